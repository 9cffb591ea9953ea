/* The self-check's verdict on a window: its steps against the 15 steps
   before it, by the rule `capture-window plan` uses (docs/where-to-cut.md):
   a step is slow when it exceeds their median by more than half of it,
   four MADs and 1 us. Steps take 20 ms, long enough that a busy machine's
   delays stay inside that margin; with CW_SLOW_STEP=1 step 21 takes 60 ms. */
// cw-windows: step=18:3
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..17(.) S step[ step#18..20(.) ] E step#21..23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_verdict\.c:\d+\) ran 24 iterations; window 18-20: median 2\d\.\d+ ms, spread [0-9.]+%: steady \(the 15 steps before: median 2\d\.\d+ ms, spread [0-9.]+%\)
//
// cw-run: CW_SLOW_STEP=1 CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_verdict\.c:\d+\) ran 24 iterations; window 20-22: median 2\d\.\d+ ms, spread [0-9.]+%: step 21 is [2-3]\.\dx slower than the 15 steps before \(median 2\d\.\d+ ms, spread [0-9.]+%\): not steady state \(eval\? checkpoint\?\)
#include <stdlib.h>

#include "cw_test.h"

int main(void)
{
  int slow = getenv("CW_SLOW_STEP") != NULL;
  long sum = 0;
#pragma capture_window(18, 3)
  for (int step = 0; step < 24; step++) {
    cw_mark("step", step);
    cw_sleep_us(slow && step == 21 ? 60000 : 20000);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
