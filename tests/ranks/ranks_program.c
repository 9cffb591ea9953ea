/* ranks_program.c - an MPI job of one marked loop, for tests/ranks.
 *
 * Each rank marks its iterations (cw_test.h) as every test program does.
 * With --wait-for-signal, rank R stops in iteration 3R+1 and prints
 * "rank R waiting" until its own SIGUSR1 handler has run: the driver
 * signals mpirun once every rank waits, mpirun forwards the signal to every
 * rank, so each rank sees it at a different iteration (1, 4, ..., 22), as
 * ranks of a real job do when they are signalled at skewed moments.
 * The handler is installed before the first marked loop starts, so the
 * runtime's handler (CAPTURE_WINDOW_SIGNAL) chains to it.
 */
#include <mpi.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cw_test.h"

enum { STEPS = 48 };

static volatile sig_atomic_t signalled;

static void note_signal(int sig)
{
  (void)sig;
  signalled++;
}

int main(int argc, char **argv)
{
  int wait_for_signal = argc > 1 && strcmp(argv[1], "--wait-for-signal") == 0;
  int rank;
  signal(SIGUSR1, note_signal);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  long sum = 0;
#pragma capture_window(10, 4)
  for (int step = 0; step < STEPS; step++) {
    cw_mark("step", step);
    if (wait_for_signal && step == 3 * rank + 1) {
      printf("rank %d waiting\n", rank);
      fflush(stdout);
      while (!signalled)
        usleep(1000);
    }
    sum += step;
  }

  long total;
  MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d: sum %ld, job total %ld, handler ran %d time(s)\n", rank, sum, total,
         (int)signalled);
  MPI_Finalize();
  return 0;
}
