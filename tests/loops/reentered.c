/* A marked loop entered three times: iterations count on across entries.
   The window 4:3 starts in the second entry; leaving the loop closes it,
   and iteration 6 in the third entry does not reopen it. */
// cw-run:
// cw-expect: step#0..2(.) step#3(.) S step[ step#4..5(.) ] E step#6..8(.)
#include "cw_test.h"

static long counter;

static long run_epoch(int n)
{
  long s = 0;
#pragma capture_window(4, 3)
  for (int i = 0; i < n; i++) {
    cw_mark("step", counter++);
    s += counter;
  }
  return s;
}

int main(void)
{
  long total = 0;
  for (int e = 0; e < 3; e++)
    total += run_epoch(3);
  printf("total %ld over %ld iterations\n", total, counter);
  return 0;
}
