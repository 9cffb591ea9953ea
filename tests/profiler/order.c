/* The profiler starts right before the window's registered push and stops
   right after its pop, also for a window on the first and on the last
   iteration, and once per window when there are several. */
// cw-run:
// cw-expect: S step[ step#0..3(.) ] E
//
// cw-run: CAPTURE_WINDOW=0:1,3:1
// cw-expect: S step[ step#0(.) ] E step#1..2(.) S step[ step#3(.) ] E
//
// cw-run: CAPTURE_WINDOW=1:1,2:1
// cw-expect: step#0(.) S step[ step#1(.) ] E S step[ step#2(.) ] E step#3(.)
#include "cw_test.h"

int main(void)
{
  int f = 1;
#pragma capture_window(0, 4)
  for (int i = 0; i < 4; i++) {
    cw_mark("step", i);
    f *= i + 2;
  }
  printf("f %d\n", f);
  return 0;
}
