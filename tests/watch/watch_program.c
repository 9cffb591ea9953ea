/* watch_program.c - one rank of a job whose marked loop is triggered
 * through CAPTURE_WINDOW_WATCH, for tests/watch.
 *
 *   watch_program STEPS [PAUSE...]
 *
 * runs STEPS iterations of a loop marked capture_window(10, 4) (with
 * CAPTURE_WINDOW_WATCH set, the pragma's own window does not open: the
 * requests decide). In each iteration PAUSE it prints "rank R pauses at
 * PAUSE" and reads one line of stdin before going on: the driver writes
 * requests while every rank pauses, waits until each rank's watcher has
 * read them, then lets the ranks go, so each loop sees a request in the
 * iteration after its pause, whatever the machine's load.
 */
#include <stdlib.h>

#include "cw_test.h"

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 48;
  const char *rank = getenv("RANK") ? getenv("RANK") : "0";
  long sum = 0;
  int next_pause = 2;
#pragma capture_window(10, 4)
  for (int step = 0; step < steps; step++) {
    cw_mark("step", step);
    if (next_pause < argc && step == atoi(argv[next_pause])) {
      char line[16];
      printf("rank %s pauses at %d\n", rank, step);
      fflush(stdout);
      if (!fgets(line, sizeof line, stdin)) return 1;
      next_pause++;
    }
    sum += step;
  }
  printf("rank %s: sum %ld\n", rank, sum);
  return 0;
}
