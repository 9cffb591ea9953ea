/*
 * train_eval.c - a CPU training loop that evaluates every 25 steps: the
 * shape `capture-window plan` finds and `spike` aims at
 * (docs/where-to-cut.md).
 *
 *   gcc -fplugin=capture_window.so train_eval.c -lcapture_window -o train_eval
 *   capture-window plan -- ./train_eval
 *
 * 200 steps (or argv[1]), each about 1 ms of arithmetic; steps 25, 50, 75, ... also run an
 * evaluation over the data, five passes of the same arithmetic.
 */
#include <stdio.h>
#include <stdlib.h>

enum { PARAMS = 1 << 16, EVAL_EVERY = 25, EVAL_PASSES = 5 };
static float weights[PARAMS];

/* One pass of gradient descent on a made-up quadratic loss. */
static double pass(int step, float rate) {
  double loss = 0;
  for (int r = 0; r < 8; r++)
    for (int k = 0; k < PARAMS; k++) {
      float grad = weights[k] - (float)((k * 7 + step + r) % 13);
      weights[k] -= rate * grad;
      loss += (double)grad * grad;
    }
  return loss / PARAMS;
}

/* The evaluation: passes that change nothing (rate 0). */
static double evaluate(int step) {
  double loss = 0;
  for (int p = 0; p < EVAL_PASSES; p++) loss += pass(step, 0.0f);
  return loss / EVAL_PASSES;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 200;
  double loss = 0, eval = 0;
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    loss = pass(step, 0.05f);
    if (step > 0 && step % EVAL_EVERY == 0) eval = evaluate(step);
  }
  printf("train_eval: %d steps, final loss %.4f, eval %.4f\n", steps, loss, eval);
  return 0;
}
