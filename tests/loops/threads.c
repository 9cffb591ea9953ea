/* Two threads run the same marked loop. Iterations count per thread; the
   windows overlap (a barrier in iteration 3), so the profiler starts once,
   in whichever thread opens a window first, and stops once, when the
   last window closes. */
// cw-run:
// cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
// cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
#include "cw_test.h"
#include <pthread.h>

static pthread_barrier_t in_window;

static void *worker(void *arg)
{
  long *sum = arg;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    if (i == 3)
      pthread_barrier_wait(&in_window);
    *sum += i;
  }
  return NULL;
}

int main(void)
{
  pthread_t t[2];
  long sums[2] = {0, 0};
  pthread_barrier_init(&in_window, NULL, 2);
  for (int k = 0; k < 2; k++)
    pthread_create(&t[k], NULL, worker, &sums[k]);
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], NULL);
  printf("sums %ld %ld\n", sums[0], sums[1]);
  return 0;
}
