/* A do-while loop whose window is its first iteration. */
// cw-run:
// cw-expect: S step[ step#0(.) ] E step#1..3(.)
#include "cw_test.h"

int main(void)
{
  int i = 0;
  unsigned h = 7;
#pragma capture_window(0, 1)
  do {
    cw_mark("step", i);
    h = h * 31u + (unsigned)i;
  } while (++i < 4);
  printf("hash %u after %d\n", h, i);
  return 0;
}
