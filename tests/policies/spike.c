/* CAPTURE_WINDOW=spike:COUNT opens a window around a slow step once slow
   steps recur at a steady period. Steps take 1 ms; every 10th from 9
   takes 8 ms (with SPIKE_FLAT=1 none does). The runtime judges steps once
   it has 15 to compare with, so it sees 19, 29, 39 and at 49 three equal
   gaps: the next slow step is 59, the window 58-60 (the step before, the
   slow one, the step after). A busy machine may delay that by periods,
   never shift it off the slow step. The pragma's window (1000:1) is never
   reached. */
// cw-run: CAPTURE_WINDOW=spike:3 --auto=step:58:3:10:8
// cw-run: CAPTURE_WINDOW=spike:1 --auto=step:59:1:10:9
// cw-run: CAPTURE_WINDOW=spike:3 CAPTURE_WINDOW_SELFCHECK=1 --auto=step:58:3:10:8
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+\) ran 100 iterations; window \d+8-\d+0: median 1\.\d\d ms, spread \d+\.\d%: step \d+9 is \d+\.\dx slower than the 15 steps before \(median 1\.\d\d ms, spread \d+\.\d%\): the slow step it was aimed at \(every 10 steps\)
// cw-run: CAPTURE_WINDOW=spike:3 CAPTURE_WINDOW_VERBOSE=1 --auto=step:58:3:10:8
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+, main\) is active
// cw-stderr-re: capture_window: spike: loop 'step' \(\S*spike\.c:\d+\) slow steps (\d+), (\d+), (\d+), (\d+): every 10 steps; window \d+8:3 armed, thread \d+
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened \(spike\): loop 'step' \(\S*spike\.c:\d+\) iteration \d+8, window \d+8:3, thread \d+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'step' \(\S*spike\.c:\d+\) held iterations \d+8-\d+0, thread \d+
//
// cw-run: SPIKE_FLAT=1 CAPTURE_WINDOW=spike:3 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..99(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+\) ran 100 iterations; window spike:3 never opened: no slow step recurred at a steady period
//
// A periodic window is aimed at an event too (plan's suggestion for the
// slow step every 10): the exit report says it held it, or held none. A
// busy machine may wake step 38 or 40 late too (`2 steps slow`, the
// window's median then the slow step's): the verdict stays.
// cw-run: CAPTURE_WINDOW=38:3/10x2 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..37(.) S step[ .step:aimed-every-10 step#38..40(.) ] E step#41..47(.)
// cw-expect: S step[ .step:aimed-every-10 step#48..50(.) ] E step#51..99(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+\) ran 100 iterations; window 38-40: median \d\.\d\d ms, spread \d+\.\d%: step 39 is \d+\.\dx slower than the 15 steps before \(median 1\.\d\d ms, spread \d+\.\d%\)(, 2 steps slow)?: the slow step it was aimed at \(every 10 steps\); window 48-50: median \d\.\d\d ms, spread \d+\.\d%: step 49 is \d+\.\dx slower than the 7 steps before \(median 1\.\d\d ms, spread \d+\.\d%\)(, 2 steps slow)?: the slow step it was aimed at \(every 10 steps\)
// cw-run: SPIKE_FLAT=1 CAPTURE_WINDOW=38:3/10x2 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..37(.) S step[ .step:aimed-every-10 step#38..40(.) ] E step#41..47(.)
// cw-expect: S step[ .step:aimed-every-10 step#48..50(.) ] E step#51..99(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+\) ran 100 iterations; window 38-40: median 1\.\d\d ms, spread \d+\.\d%: steady \(the 15 steps before: median 1\.\d\d ms, spread \d+\.\d%\): aimed at a slow step every 10 steps, it held none; window 48-50: median 1\.\d\d ms, spread \d+\.\d%: steady \(the 7 steps before: median 1\.\d\d ms, spread \d+\.\d%\): aimed at a slow step every 10 steps, it held none
//
// With SPIKE_DRIFT=1 every step sleeps 40 us more than the one before (1 to
// 5 ms): no step is slow against its neighbours, and the exit report says
// the steps spike watched (from 15, its warm-up) drift (shape.c, the rule
// of plan's steady.py), with the slope (a loaded machine's late wake-ups).
// cw-run: SPIKE_DRIFT=1 CAPTURE_WINDOW=spike:3 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..99(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*spike\.c:\d+\) ran 100 iterations; window spike:3 never opened: no slow step recurred at a steady period; no steady state: steps drift from [1-3]\.\d\d to [4-6]\.\d\d ms \(slope \+[2-4]\d\.\d us a step, steps 1[5-9]-9\d\)
#include <stdlib.h>

#include "cw_test.h"

int main(void)
{
  int flat = getenv("SPIKE_FLAT") != NULL, drift = getenv("SPIKE_DRIFT") != NULL;
  long sum = 0;
#pragma capture_window(1000, 1)
  for (int step = 0; step < 100; step++) {
    cw_mark("step", step);
    cw_sleep_us(drift ? 1000 + 40 * step : !flat && step % 10 == 9 ? 8000 : 1000);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
