/* A signal handler that runs during an iteration and itself emits NVTX
   marks and runs a different marked loop (issue 7, hostile f).

   The body of loop `step` (window 1:2) raises SIGUSR1 in iterations 0 and
   2; the handler marks `handler` and runs loop `sig` (2 iterations per
   call, window 3:1). A handler runs on the interrupted thread, so its
   events nest inside the interrupted iteration's range. Outcome: ranges
   stay balanced and exactly nested. In the first call loop `sig` runs
   outside any window; in the second, its window opens while `step`'s is
   open: the profiler is reference-counted, so it neither starts nor stops
   again. The handler's loop allocates its per-thread state on first use
   (malloc), so a marked loop in a handler is safe only for a synchronous
   signal (raise(), a fault), not for one that may interrupt malloc. */
// cw-run:
// cw-expect: step#0( . .handler sig#0..1(.) )
// cw-expect: S step[ step#1(.) step#2( . .handler sig#2(.) sig[ sig#3(.) ] ) ] E
// cw-expect: step#3(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=sig
// cw-expect: .step@0 .handler sig#0..1(.) .step@1..2 .handler sig#2(.) S sig[ sig#3(.) ] E .step@3
#include "cw_test.h"
#include <signal.h>
#include <string.h>

static long handled;

static void on_usr1(int sig)
{
  (void)sig;
  nvtxMarkA("handler");
#pragma capture_window(3, 1, "sig")
  for (int i = 0; i < 2; i++) {
    cw_mark("sig", handled);
    handled++;
  }
}

int main(void)
{
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_usr1;
  sigaction(SIGUSR1, &action, NULL);
  long sum = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 4; i++) {
    cw_mark("step", i);
    if (i % 2 == 0)
      raise(SIGUSR1);
    sum += i;
  }
  printf("sum %ld, handler iterations %ld\n", sum, handled);
  return 0;
}
