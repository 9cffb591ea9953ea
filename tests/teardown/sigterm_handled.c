/* SIGTERM in step 3 of the window 2:3 of a program that handles SIGTERM
   itself and goes on (issue 41 item 3): the runtime's handler writes the
   buffered step times and hands the signal to the program's handler,
   which returns; capture is intact, and the window closes at its planned
   end, 4. With CW_TEST_IGNORE=1 SIGTERM is ignored (SIG_IGN, as under
   nohup) before the runtime loads: the runtime leaves it ignored. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5(.)
//
// cw-run: CW_TEST_IGNORE=1
// cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5(.)
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1
// cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*sigterm_handled\.c:\d+, main\) is active
// cw-stderr: capture_window: profiler started (cuProfilerStart: 0)
// cw-stderr-re: capture_window: window opened: loop 'step' \(\S*\) iteration 2, window 2:3, thread \d+
// cw-stderr: capture_window: profiler stopped (cuProfilerStop: 0)
// cw-stderr-re: capture_window: window closed: loop 'step' \(\S*sigterm_handled\.c:\d+\) held iterations 2-4, thread \d+
#include "cw_test.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_term(int sig)
{
  (void)sig;
  handled++;
}

int main(void)
{
  const char *ignore = getenv("CW_TEST_IGNORE");
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = ignore && *ignore == '1' ? SIG_IGN : on_term;
  sigaction(SIGTERM, &action, NULL);
  long sum = 0;
#pragma capture_window(2, 3)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    sum += i;
    if (i == 3)
      kill(getpid(), SIGTERM);
  }
  printf("sum %ld, handled %d\n", sum, (int)handled);
  return 0;
}
