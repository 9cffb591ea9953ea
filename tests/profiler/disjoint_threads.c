/* Two threads one after the other: their windows do not overlap, so each
   has its own profiler start and stop. */
// cw-run:
// cw-thread: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-thread: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"
#include <pthread.h>

static void *worker(void *arg)
{
  long *sum = arg;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    *sum += i * i;
  }
  return NULL;
}

int main(void)
{
  pthread_t t;
  long sums[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    pthread_create(&t, NULL, worker, &sums[k]);
    pthread_join(t, NULL);
  }
  printf("sums %ld %ld\n", sums[0], sums[1]);
  return 0;
}
