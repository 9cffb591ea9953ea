/* exit() called inside an open window (issue 7, hostile b).

   Outcome: exit() runs no loop or iteration cleanup, so the iteration
   range `step#2` and the window range `step` stay open in the record: NVTX
   ranges are per thread and only the thread itself can pop them, and
   pthread key destructors do not run for the thread that calls exit().
   The runtime's exit handler still stops the CUDA profiler, as the
   record's last event, so nsys -c cudaProfilerApi ends its capture at the
   stop (nsys -c nvtx ends it at process exit, with the range open). The
   program's output and exit status are unchanged, and the exit self-check
   still prints its line (the window shows as planned, 2-4). */
// cw-run: --open-at-exit
// cw-expect: step#0..1(.) S step[ step#2(. E
//
// cw-run: --open-at-exit CAPTURE_WINDOW_TRIGGER=cuda
// cw-expect: step#0..1(.) S step#2(. E
//
// cw-run: --open-at-exit CAPTURE_WINDOW_TRIGGER=nvtx
// cw-expect: step#0..1(.) step[ step#2(.
//
// cw-run: --open-at-exit CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SELFCHECK=0
// cw-expect: step#0..1(.) S step[ step#2(. E
// cw-stderr-re: capture_window: loop 'step' \(\S*exit_in_window\.c:\d+, main\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 2, window 2:3, thread \d+
// cw-stderr: capture_window: profiler stopped at exit with a window still open
//
// cw-run: --open-at-exit CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..1(.) S step[ step#2(. E
// cw-stderr-re: capture_window: loop 'step' \(\S*exit_in_window\.c:\d+\) ran 3 iterations; window 2-4\b.*
// cw-exit: 3
#include "cw_test.h"
#include <stdlib.h>

int main(void)
{
  long sum = 0;
#pragma capture_window(2, 3)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    sum += i;
    if (i == 2) {
      printf("exit at %d, sum %ld\n", i, sum);
      fflush(stdout);
      exit(3);
    }
  }
  printf("not reached\n");
  return 0;
}
