/*
 * spike_rule.c - spike's period rule and the steady-state rule on
 * generated step times, exactly: the runtime's own cw_spike_step and
 * cw_shape_judge (linked from the static library) are fed step times from
 * a seeded generator instead of a clock, so every run decides the same.
 *
 *   noise      300 steps of 1 ms (+-2 %), RATE % of them (6, 7, 8) slowed
 *              1.5-13x at random, SEEDS runs of each: how many runs spike
 *              arms a window in (a false alarm; alpha is 1 % a run). With
 *              1000 seeds: 9 of 3000 (0.3 %); without the significance
 *              rule, 553 (18 %)
 *   period     the same with every 10th step from 9 taking 8 ms and 6 %
 *              random slowdowns: how many runs find every 10 with the window
 *              at 10k+8 (1000 seeds: 984; 16 find every 5 of the events and
 *              noise between them; none arms after step 100)
 *   drift      10 -> 30 ms over 300 steps: "steps drift from 10.0 to 29.8 ms"
 *              (the sample keeps every other step past 256)
 *   levels     steps among 6, 9, 14 and 21 ms: "4 levels: 5.98, 9.02, 14.0,
 *              21.0 ms: shapes change?"
 *   steady     1 ms +-2 % with 8 % random slowdowns: steady, no shape said
 *
 * Usage: spike_rule noise|period|drift|levels|steady [SEEDS EXPECTED]:
 * prints what each run decided and exits 1 unless the count is EXPECTED
 * (or, for the shapes, the words are those above).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

static unsigned long long state;

static double uniform(void) { /* xorshift64*, [0, 1) */
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return (double)((state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double jitter(double ns) { return ns * (0.98 + 0.04 * uniform()); }

static double random_slowdown(double ns, double rate) {
  return uniform() < rate ? ns * (1.5 + 11.5 * uniform()) : ns;
}

static struct cw_loop *fresh_loop(void) {
  static struct cw_site_v2 site = {.label = "step", .file = "spike_rule.c", .line = 1};
  struct cw_loop *loop = calloc(1, sizeof *loop);
  loop->site = &site;
  cw_config.spike_count = 3;
  cw_config.spike_times = 1;
  loop->spike_pending = true;
  loop->spike_start = loop->signal_start = loop->plan_start = LLONG_MAX;
  return loop;
}

/* Runs 300 steps; -> the period spike armed a window for (0: none), and
   its window's start in *start. */
static long long run_spike(double rate, long long every, long long *start) {
  struct cw_loop *loop = fresh_loop();
  for (long long i = 0; i < 300 && loop->spike_start == LLONG_MAX; i++) {
    double ns = every && i % every == every - 1 ? jitter(8e6) : random_slowdown(jitter(1e6), rate);
    cw_spike_step(loop, i, ns);
  }
  long long period = loop->spike_start == LLONG_MAX ? 0 : loop->spike_period;
  *start = loop->spike_start;
  free(loop->shape);
  free(loop);
  return period;
}

static int expected = -1; /* the count a run of SEEDS must give */

static int noise(int seeds) {
  int fired = 0;
  for (int rate = 6; rate <= 8; rate++)
    for (int seed = 1; seed <= seeds; seed++) {
      long long start;
      state = 0x9E3779B97F4A7C15ULL * (unsigned long long)(seed * 10 + rate);
      long long period = run_spike(rate / 100.0, 0, &start);
      if (period) {
        printf("noise %d%% seed %d: every %lld armed at %lld\n", rate, seed, period, start);
        fired++;
      }
    }
  printf("noise: %d of %d runs armed a window\n", fired, 3 * seeds);
  return fired != expected;
}

static int period(int seeds) {
  int found = 0, late = 0;
  for (int seed = 1; seed <= seeds; seed++) {
    long long start;
    state = 0x9E3779B97F4A7C15ULL * (unsigned long long)seed;
    long long every = run_spike(0.06, 10, &start);
    if (every == 10 && start % 10 == 8)
      found++;
    else
      printf("period seed %d: every %lld, window at %lld\n", seed, every, start);
    if (start > 108) late++;
  }
  printf("period: every 10 found in %d of %d runs, %d armed after step 100\n", found, seeds, late);
  return found != expected;
}

/* Feeds N generated steps to the shape sample; -> what the exit report says. */
static bool shape_of(int n, double (*step)(int), char *said, size_t size) {
  struct cw_loop *loop = fresh_loop();
  struct cw_shape_verdict v;
  for (int i = 0; i < n; i++) cw_shape_add(loop, i, step(i));
  bool unsteady = cw_shape_judge(loop, &v);
  said[0] = 0;
  if (unsteady) cw_shape_describe(&v, said, size);
  free(loop->shape);
  free(loop);
  return unsteady;
}

static double drifting(int i) { return jitter(10e6 + 20e6 * i / 299); }
static double levelled(int i) {
  static const double level[] = {6e6, 9e6, 14e6, 21e6};
  (void)i;
  return jitter(level[(int)(uniform() * 4)]);
}
static double noisy(int i) { return (void)i, random_slowdown(jitter(1e6), 0.08); }

static int shape(const char *which, const char *expected) {
  char said[256];
  state = 42;
  double (*step)(int) = strcmp(which, "drift") == 0    ? drifting
                        : strcmp(which, "levels") == 0 ? levelled
                                                       : noisy;
  shape_of(300, step, said, sizeof said);
  printf("%s: %s\n", which, said[0] ? said : "steady");
  return strcmp(said, expected) != 0;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  int seeds = argc > 2 ? atoi(argv[2]) : 100;
  expected = argc > 3 ? atoi(argv[3]) : -1;
  if (strcmp(what, "noise") == 0) return noise(seeds);
  if (strcmp(what, "period") == 0) return period(seeds);
  if (strcmp(what, "drift") == 0)
    return shape(what, "no steady state: steps drift from 10.0 to 29.8 ms (slope +66.4 us a step, "
                       "steps 0-298)");
  if (strcmp(what, "levels") == 0)
    return shape(what, "no steady state: 4 levels: 5.98, 9.02, 14.0, 21.0 ms: shapes change?");
  if (strcmp(what, "steady") == 0) return shape(what, "");
  fprintf(stderr, "usage: spike_rule noise|period|drift|levels|steady [SEEDS]\n");
  return 2;
}
