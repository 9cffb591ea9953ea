/* The self-check's verdict on a window: its steps against the 15 steps
   before it (docs/environment.md, "Self-check at exit"): not steady when a
   step takes more than twice their median, or the window's median less
   than half of it. Steps take 20 ms; with CW_SLOW_STEP=1 step 21 takes
   60 ms, with CW_FAST_WINDOW=1 steps 20-22 take 5 ms (a sleep that
   overshoots under load, up to 10 ms, is still less than half of 20).
   selfcheck_load.py runs this under load. */
// cw-windows: step=18:3
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..17(.) S step[ step#18..20(.) ] E step#21..23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_verdict\.c:\d+\) ran 24 iterations; window 18-20: median 2\d\.\d ms, spread [0-9.]+%: steady \(the 15 steps before: median 2\d\.\d ms, spread [0-9.]+%\)
//
// cw-run: CW_SLOW_STEP=1 CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_verdict\.c:\d+\) ran 24 iterations; window 20-22: median 2\d\.\d ms, spread [0-9.]+%: step 21 is [2-3]\.\dx slower than the 15 steps before \(median 2\d\.\d ms, spread [0-9.]+%\): not steady state \(eval\? checkpoint\?\)
//
// cw-run: CW_FAST_WINDOW=1 CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_verdict\.c:\d+\) ran 24 iterations; window 20-22: median [5-9]\.\d\d ms, spread [0-9.]+%: its steps are [2-4]\.\dx faster than the 15 steps before \(median 2\d\.\d ms, spread [0-9.]+%\): not steady state \(the steps before still warming up\?\)
#include <stdlib.h>

#include "cw_test.h"

int main(void)
{
  int slow = getenv("CW_SLOW_STEP") != NULL, fast = getenv("CW_FAST_WINDOW") != NULL;
  long sum = 0;
#pragma capture_window(18, 3)
  for (int step = 0; step < 24; step++) {
    cw_mark("step", step);
    cw_sleep_us(slow && step == 21                 ? 60000
                : fast && step >= 20 && step <= 22 ? 5000
                                                   : 20000);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
