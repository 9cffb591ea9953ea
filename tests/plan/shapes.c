/*
 * shapes.c - a marked loop whose step times have a known shape, for the
 * planner's tests (tests/plan) and spike (tests/policies/spike.c):
 *
 *   shapes SHAPE [STEPS [model]]
 *     flat       every step 1 ms
 *     warmup     steps 0-9 take 10, 9, ... 1.9 ms (linearly), then 1 ms
 *     periodic   warm-up as above; every 25th step from 25 takes 40 ms
 *     sporadic   warm-up as above; steps 37 and 81 take 40 ms
 *     two        warm-up; every 20th from 30 takes 40 ms, every 50th from
 *                45 takes 25 ms
 *     coincide   warm-up; an evaluation every 20 steps from 20 (+30 ms)
 *                and a checkpoint every 30 from 30 (+120 ms): step 60
 *                holds both; with 101 steps the last one (100) checkpoints
 *                too
 *     nested     periodic's steps, in epochs of 50: the marked loop is the
 *                inner one, left and entered again every 50 steps
 *   With `model`, nothing runs: the shape's step times as the model has
 *   them, a step-time file of format 1 on stdout (the planner's input
 *   with no noise, which decides the tests of what plan finds).
 *
 * Steps sleep rather than spin: a sleeping thread is woken within
 * microseconds on a busy machine, a spinning one loses whole time slices.
 * Every event is 25 ms or more over 1 ms steps: the planner bands slow
 * steps by a factor of 3, so a step the machine delays (by a few ms)
 * cannot join an event's band, and the delay only ever makes an event's
 * step slower. STEPS defaults to 120; 0 runs until killed.
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
  if (strcmp(shape, "periodic") == 0 && i % 25 == 0) return 40000;
  if (strcmp(shape, "sporadic") == 0 && (i == 37 || i == 81)) return 40000;
  if (strcmp(shape, "two") == 0 && i % 20 == 10 && i >= 30) return 40000;
  if (strcmp(shape, "two") == 0 && i % 50 == 45) return 25000;
  if (strcmp(shape, "coincide") == 0)
    return 1000 + (i % 20 == 0 ? 30000 : 0) + (i % 30 == 0 || i == last ? 120000 : 0);
  return 1000;
}

static int print_model(const char *shape, long steps)
{
  printf("# capture-window step times 1\nloop 1 T1 step shapes.c:1\n");
  for (long i = 0; i < steps; i++)
    printf("1 %ld %ld\n", i, step_us(shape, i, steps - 1) * 1000);
  return 0;
}

/* The periodic shape in epochs of 50 steps: the marked loop is left after
   steps 49, 99, ... (step files say so; plan's windows fit an entry). */
static long nested(long steps)
{
  long sum = 0, i = 0;
  while (i < steps) {
#pragma capture_window(1000000, 1)
    for (long batch = 0; batch < 50 && i < steps; batch++, i++) {
      sleep_us(step_us("periodic", i, steps - 1));
      sum += i;
    }
  }
  return sum;
}

int main(int argc, char **argv)
{
  const char *shape = argc > 1 ? argv[1] : "flat";
  long steps = argc > 2 ? atol(argv[2]) : 120, sum = 0;
  if (argc > 3 && strcmp(argv[3], "model") == 0) return print_model(shape, steps);
  if (strcmp(shape, "nested") == 0) {
    printf("shapes nested: %ld\n", nested(steps));
    return 0;
  }
#pragma capture_window(1000000, 1)
  for (long i = 0; steps == 0 || i < steps; i++) {
    sleep_us(step_us(shape, i, steps - 1));
    sum += i;
  }
  printf("shapes %s: %ld\n", shape, sum);
  return 0;
}
