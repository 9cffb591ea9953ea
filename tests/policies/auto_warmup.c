/* CAPTURE_WINDOW=auto:3 opens the window at the first iteration after the
   step time settled (the last 5 steps within 5 % of their median). Steps
   0-9 take 40, 38, ... 22 ms (warm-up), then every step takes 10 ms: the
   times of steps 10-14 are known when step 15 begins, so the window opens
   at 15 at the earliest; a loaded machine can disturb a step and delay it,
   which the many steady steps leave room for. */
// cw-windows: step=2:2
//
// cw-run: CAPTURE_WINDOW=auto:3 --auto=step:15:3
//
// cw-run: CAPTURE_WINDOW=auto:3 CAPTURE_WINDOW_VERBOSE=1 --auto=step:15:3
// cw-stderr-re: capture_window: loop 'step' \(\S*auto_warmup\.c:\d+, main\) is active
// cw-stderr-re: capture_window: auto: loop 'step' \(\S*auto_warmup\.c:\d+\) settled at iteration \d+: last 5 steps within [0-9.]+% of their median 10\.\d ms
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened \(auto\): loop 'step' \(\S*auto_warmup\.c:\d+\) iteration \d+, window \d+:3, thread \d+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'step' \(\S*auto_warmup\.c:\d+\) held iterations \d+-\d+, thread \d+
#include <time.h>

#include "cw_test.h"

/* Sleeps rather than spins: under CPU contention a sleeping thread is woken
   within microseconds, while a spinning one loses whole time slices. */
static void sleep_ms(long ms)
{
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

int main(void)
{
  long sum = 0;
#pragma capture_window(2, 2)
  for (int step = 0; step < 60; step++) {
    cw_mark("step", step);
    sleep_ms(step < 10 ? 40 - 2 * step : 10);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
