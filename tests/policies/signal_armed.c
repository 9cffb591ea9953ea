/* CAPTURE_WINDOW_SIGNAL=USR1: the signal arms a window of the pragma's
   COUNT at the next iteration boundary, or with CAPTURE_WINDOW_ALIGN=N at
   the next iteration that is a multiple of N. The pragma's own START is not
   used. The program raises SIGUSR1 itself inside an iteration (raise() runs
   the handler before it returns, so the test is deterministic), and its
   own handler, installed first, still runs: it prints how often it ran,
   and the runtime says once that the program handles the signal too.
   The signal arrives in iteration 4, so iteration 5 is the next boundary
   and 8 the next multiple of 4. */
// cw-windows: step=
//
// cw-run: CAPTURE_WINDOW_SIGNAL=USR1 --windows=step=5:2
// cw-expect: step#0..4(.) S step[ step#5..6(.) ] E step#7..9(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL: the program already handles SIGUSR1; its handler runs after ours on every SIGUSR1 sent to arm a window. To arm windows with no signal, use CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`
//
// cw-run: CAPTURE_WINDOW_SIGNAL=USR1 CAPTURE_WINDOW_ALIGN=4 --windows=step=8:2
// cw-expect: step#0..7(.) S step[ step#8..9(.) ] E
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL: the program already handles SIGUSR1; its handler runs after ours on every SIGUSR1 sent to arm a window. To arm windows with no signal, use CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`
//
// cw-run: CAPTURE_WINDOW_SIGNAL=USR1 CAPTURE_WINDOW_COUNT=3 --windows=step=5:3
// cw-expect: step#0..4(.) S step[ step#5..7(.) ] E step#8..9(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL: the program already handles SIGUSR1; its handler runs after ours on every SIGUSR1 sent to arm a window. To arm windows with no signal, use CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`
//
// cw-run: CAPTURE_WINDOW_SIGNAL=USR2
// cw-expect: step#0..9(.)
//
// cw-run: CAPTURE_WINDOW_SIGNAL=USR1 CAPTURE_WINDOW=0:1 --windows=step=0:1,5:2
// cw-expect: S step[ step#0(.) ] E step#1..4(.) S step[ step#5..6(.) ] E step#7..9(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL: the program already handles SIGUSR1; its handler runs after ours on every SIGUSR1 sent to arm a window. To arm windows with no signal, use CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`
#include <signal.h>

#include "cw_test.h"

static volatile sig_atomic_t handled;

static void count_signal(int sig)
{
  (void)sig;
  handled++;
}

int main(void)
{
  signal(SIGUSR1, count_signal);
  long sum = 0;
#pragma capture_window(50, 2)
  for (int step = 0; step < 10; step++) {
    cw_mark("step", step);
    if (step == 4)
      raise(SIGUSR1);
    sum += step;
  }
  printf("sum %ld, handler ran %d time(s)\n", sum, (int)handled);
  return 0;
}
