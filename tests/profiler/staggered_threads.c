/* Two threads whose windows overlap and close in a fixed order: thread A
   closes its window while thread B's is still open, so the one profiler
   stop comes from B, after B's window pop; the one start comes from
   whichever thread opened first. */
// cw-run:
// cw-thread: step#0..1(.) S? step[ step#2..3(.) ] step#4..5(.)
// cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"
#include <pthread.h>
#include <semaphore.h>

static sem_t b_in_window, a_done;

static void *worker(void *arg)
{
  int id = *(int *)arg, sum = 0;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    if (id == 0 && i == 2)
      sem_wait(&b_in_window);     /* B is inside its window */
    if (id == 0 && i == 4)
      sem_post(&a_done);          /* A's window is closed */
    if (id == 1 && i == 3) {
      sem_post(&b_in_window);
      sem_wait(&a_done);
    }
    sum += i * (id + 1);
  }
  *(int *)arg = sum;
  return NULL;
}

int main(void)
{
  pthread_t t[2];
  int arg[2] = {0, 1};
  sem_init(&b_in_window, 0, 0);
  sem_init(&a_done, 0, 0);
  for (int k = 0; k < 2; k++)
    pthread_create(&t[k], NULL, worker, &arg[k]);
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], NULL);
  printf("sums %d %d\n", arg[0], arg[1]);
  return 0;
}
