/* exit() called inside an open window (issue 7, hostile b; issue 41 item 5).

   Outcome: exit() runs no loop or iteration cleanup, but the runtime's
   exit handler (runtime/teardown.c) ends the exiting thread's loops as
   leaving them would: the iteration range `step#2` ends, the window
   range `step` is popped and the CUDA profiler stops, so the record is
   balanced and the window holds the steps it ran, 2-2 (not the planned
   2-4), in the verbose line and in the exit self-check. The program's
   output and exit status are unchanged. (A window open in another thread
   keeps its range, which only that thread can pop; the profiler still
   stops at exit: docs/robustness.md.) */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2(.) ] E
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cuda
// cw-expect: step#0..1(.) S step#2(.) E
//
// cw-run: CAPTURE_WINDOW_TRIGGER=nvtx
// cw-expect: step#0..1(.) step[ step#2(.) ]
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SELFCHECK=0
// cw-expect: step#0..1(.) S step[ step#2(.) ] E
// cw-stderr-re: capture_window: loop 'step' \(\S*exit_in_window\.c:\d+, main\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 2, window 2:3, thread \d+
// cw-stderr: capture_window: profiler stopped (cuProfilerStop: 0)
// cw-stderr-re: capture_window: window closed at exit: loop 'step' \(\S*exit_in_window\.c:\d+\) held iterations 2-2, thread \d+
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..1(.) S step[ step#2(.) ] E
// cw-stderr-re: capture_window: loop 'step' \(\S*exit_in_window\.c:\d+\) ran 3 iterations; window 2-2: .*
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
