/* SIGTERM in step 3 of the window 2:3, its disposition the default one
   (issue 41 item 3): the runtime's handler (runtime/teardown.c) closes the
   window as leaving the loop closes it - the iteration range `step#3`
   ends, the window range `step` is popped, the profiler stops - then the
   default action comes back and the process dies by SIGTERM, as it would
   unmarked (exit status -15 for both builds; stdout flushed before). The
   verbose line and the exit self-check name the steps held, 2-3. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cuda
// cw-expect: step#0..1(.) S step#2..3(.) E
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
// cw-stderr-re: capture_window: loop 'step' \(\S*sigterm_in_window\.c:\d+, main\) is active
// cw-stderr: capture_window: profiler started (cuProfilerStart: 0)
// cw-stderr-re: capture_window: window opened: loop 'step' \(\S*\) iteration 2, window 2:3, thread \d+
// cw-stderr: capture_window: profiler stopped (cuProfilerStop: 0)
// cw-stderr-re: capture_window: window closed on SIGTERM: loop 'step' \(\S*sigterm_in_window\.c:\d+\) held iterations 2-3, thread \d+
// cw-stderr-re: capture_window: loop 'step' \(\S*sigterm_in_window\.c:\d+\) ran 4 iterations; window 2-3: .*
// cw-exit: -15
#include "cw_test.h"
#include <signal.h>
#include <unistd.h>

int main(void)
{
#pragma capture_window(2, 3)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    if (i < 3)
      continue;
    puts("SIGTERM in step 3"); /* stdout is a pipe: flushed before death */
    fflush(stdout);
    kill(getpid(), SIGTERM);
  }
  puts("not reached");
  return 0;
}
