/* The CAPTURE_WINDOW macros of annotations/capture_window.h. */
// cw-run:
// cw-expect: step#0(.) S step[ step#1..2(.) ] E step#3(.)
// cw-expect: S eval[ eval#0(.) ] E eval#1..2(.)
#include <capture_window.h>
#include "cw_test.h"

int main(void)
{
  int a = 0, b = 0, k = 0;
  CAPTURE_WINDOW(1, 2)
  for (int i = 0; i < 4; i++) {
    cw_mark("step", i);
    a += i;
  }
  CAPTURE_WINDOW_LABEL(0, 1, "eval")
  while (k < 3) {
    cw_mark("eval", k);
    b += k++;
  }
  printf("a %d b %d\n", a, b);
  return 0;
}
