/* rank_program.c - one rank of a job, for tests/launchers.
 *
 * No MPI: every launcher (srun, mpirun, torchrun) starts it as it starts any
 * program, and the runtime reads the rank from the launcher's variable.
 *
 *   rank_program STEPS STEP_US [ANNOUNCE [HOLD]]
 *
 * runs STEPS iterations of one marked loop (pragma window 10:3), each
 * marked cw_mark("step", i) and sleeping STEP_US microseconds. At iteration
 * ANNOUNCE it prints "reached step ANNOUNCE" (one line, flushed), so the
 * test knows when every rank is there; with HOLD it then stays in that
 * iteration until a signal has been handled (USR1: the runtime's
 * CAPTURE_WINDOW_SIGNAL handler) or ends the process (TERM). The signals
 * are blocked from before the line until sigsuspend, so one sent right
 * after the line is not lost. With CW_GO_FILE=PATH set, HOLD waits instead
 * until PATH exists (the watch cases: the test creates it once every rank
 * read the request). At the end it prints "done STEPS steps".
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cw_test.h"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rank_program STEPS STEP_US [ANNOUNCE [HOLD]]\n");
    return 2;
  }
  long steps = atol(argv[1]), step_us = atol(argv[2]);
  long announce = argc > 3 ? atol(argv[3]) : -1;
  int hold = argc > 4;

#pragma capture_window(10, 3)
  for (long step = 0; step < steps; step++) {
    cw_mark("step", step);
    if (step == announce) {
      sigset_t block, before;
      sigemptyset(&block);
      sigaddset(&block, SIGUSR1);
      sigaddset(&block, SIGTERM);
      sigprocmask(SIG_BLOCK, &block, &before);
      printf("reached step %ld\n", step);
      fflush(stdout);
      const char *go = getenv("CW_GO_FILE");
      if (hold && go)
        while (access(go, F_OK) != 0) cw_sleep_us(10000);
      else if (hold)
        sigsuspend(&before);
      sigprocmask(SIG_SETMASK, &before, NULL);
    }
    cw_sleep_us(step_us);
  }
  printf("done %ld steps\n", steps);
  return 0;
}
