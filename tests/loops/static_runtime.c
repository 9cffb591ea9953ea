/* The same loop linked with the static runtime, libcapture_window.a. */
// cw-link: static
// cw-run:
// cw-expect: step#0(.) S step[ step#1..2(.) ] E step#3(.)
#include "cw_test.h"

int main(void)
{
  double x = 1.0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 4; i++) {
    cw_mark("step", i);
    x = x * 1.5 + i;
  }
  printf("x %.3f\n", x);
  return 0;
}
