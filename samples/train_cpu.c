/*
 * train_cpu.c - a CPU-only stand-in for a training loop.
 *
 *   gcc -fplugin=capture_window.so train_cpu.c -lcapture_window -o train_cpu
 *   CAPTURE_WINDOW_VERBOSE=1 ./train_cpu
 *
 * Iterations 30, 31 and 32 form the window; CAPTURE_WINDOW=45:2 moves it
 * without a rebuild. Built without the plugin, the pragma is ignored.
 */
#include <stdio.h>
#include <stdlib.h>

enum { PARAMS = 4096 };
static float weights[PARAMS];
static void extra_work(int step); /* TRAIN_EXTRA_WORK, after main */
/* One step of gradient descent on a made-up quadratic loss. */
static double train_step(int step) {
  double loss = 0;
  for (int k = 0; k < PARAMS; k++) {
    float target = (float)((k * 7 + step) % 13);
    float grad = weights[k] - target;
    weights[k] -= 0.05f * grad;
    loss += (double)grad * grad;
  }
  return loss / PARAMS;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  double loss = 0;
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) { loss = train_step(step); extra_work(step); }
  printf("train_cpu: %d steps, final loss %.4f\n", steps, loss);
  return 0;
}

/* TRAIN_EXTRA_WORK=PCT: about PCT % more work in every step, of the same
 * kind, on a scratch array (the output does not change): a change for
 * `capture-window diff` to find (docs/where-to-cut.md, "Did my change
 * help?"). Unset: a load and a branch a step. */
float train_scratch[PARAMS]; /* not static: the work is not optimized away */

static void extra_work(int step) {
  static long updates = -1;
  if (updates < 0) {
    const char *pct = getenv("TRAIN_EXTRA_WORK");
    updates = pct ? atol(pct) * PARAMS / 100 : 0;
  }
  for (long u = 0; u < updates; u++) {
    int k = (int)(u % PARAMS);
    train_scratch[k] -= 0.05f * (train_scratch[k] - (float)((k * 7 + step) % 13));
  }
}
