/*
 * shapes.c - a marked loop whose step times have a known shape, for the
 * planner's tests (tests/plan) and spike (tests/policies/spike.c):
 *
 *   shapes SHAPE [STEPS]
 *     flat       every step 1 ms
 *     warmup     steps 0-9 take 10, 9, ... 1.9 ms (linearly), then 1 ms
 *     periodic   warm-up as above; every 25th step from 25 takes 8 ms
 *     sporadic   warm-up as above; steps 37 and 81 take 8 ms
 *     two        warm-up; every 20th from 30 takes 8 ms, every 50th from 45
 *                takes 5 ms
 *     coincide   warm-up; an evaluation every 20 steps from 20 (+4 ms) and
 *                a checkpoint every 30 from 30 (+30 ms): step 60 holds
 *                both; with 101 steps the last one (100) checkpoints too
 *
 * Steps sleep rather than spin: a sleeping thread is woken within
 * microseconds on a busy machine, a spinning one loses whole time slices.
 * 1 ms against 8 ms leaves the planner's slow-step rule (1.5x) a wide
 * margin either way. STEPS defaults to 120; 0 runs until killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_us(long us)
{
  struct timespec t = {us / 1000000, (us % 1000000) * 1000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

/* Microseconds of step i of a run whose last step is `last`. */
static long step_us(const char *shape, long i, long last)
{
  if (strcmp(shape, "flat") == 0) return 1000;
  if (i < 10) return 10000 - 900 * i;
  if (strcmp(shape, "periodic") == 0 && i % 25 == 0) return 8000;
  if (strcmp(shape, "sporadic") == 0 && (i == 37 || i == 81)) return 8000;
  if (strcmp(shape, "two") == 0 && i % 20 == 10 && i >= 30) return 8000;
  if (strcmp(shape, "two") == 0 && i % 50 == 45) return 5000;
  if (strcmp(shape, "coincide") == 0)
    return 1000 + (i % 20 == 0 ? 4000 : 0) + (i % 30 == 0 || i == last ? 30000 : 0);
  return 1000;
}

int main(int argc, char **argv)
{
  const char *shape = argc > 1 ? argv[1] : "flat";
  long steps = argc > 2 ? atol(argv[2]) : 120, sum = 0;
#pragma capture_window(1000000, 1)
  for (long i = 0; steps == 0 || i < steps; i++) {
    sleep_us(step_us(shape, i, steps - 1));
    sum += i;
  }
  printf("shapes %s: %ld\n", shape, sum);
  return 0;
}
