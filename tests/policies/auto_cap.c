/* auto:COUNT whose steps never settle (alternating 0 and 0.2 ms) opens at
   the cap, iteration 1000, and says so on stderr even without verbose. */
// cw-windows: step=1000:2
//
// cw-run: CAPTURE_WINDOW=auto:2
// cw-expect: step#0..999(.) S step[ step#1000..1001(.) ] E step#1002..1004(.)
// cw-stderr-re: capture_window: auto: loop 'step' \(\S*auto_cap\.c:\d+\) step time did not settle within 1000 iterations; opening the window anyway
#include <time.h>

#include "cw_test.h"

static void spin_us(double us)
{
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do
    clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1e6 + (t.tv_nsec - t0.tv_nsec) / 1e3 < us);
}

int main(void)
{
  long sum = 0;
#pragma capture_window(1000, 2)
  for (int step = 0; step < 1005; step++) {
    cw_mark("step", step);
    spin_us(step % 2 ? 200 : 0);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
