/*
 * stats.c - the statistics of step times that the runtime and
 * `capture-window plan` share (docs/where-to-cut.md, "The rule"): the
 * median, the median absolute deviation (MAD), when a step is slow, and
 * when slow steps on a grid could come by chance (a period's
 * significance); the rules' numbers, exported (capture_window/rules.h);
 * and how every duration is written (the one unit rule).
 * cli/capture_window_cli/plan.py implements the same rule and its test
 * checks its numbers against cw_rule_value_v1. A leaf: it calls no other
 * file of the runtime.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_window/rules.h"
#include "internal.h"

/* A step is slow when it exceeds the median of the steps around it by more
   than half the median, four times their MAD and 1 us: noise of a busy
   machine stays inside, an evaluation or a checkpoint does not. */
#define SLOW_RATIO 0.5
#define SLOW_MADS 4.0
#define SLOW_MIN_NS 1000.0
/* A period is reported when noise puts as many hits on some grid with at
   most this chance, among every (period >= PERIOD_MIN, phase) pair tried. */
#define ALPHA 0.01
#define PERIOD_MIN 3
/* Periods tried: every one that fits three places in the run. */
#define PERIOD_PLACES 3

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double cw_median(double *values, int n) {
  if (n <= 0) return 0;
  qsort(values, (size_t)n, sizeof *values, by_value);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

enum { MAD_MAX = 64 };

/* The median of |value - median| over at most MAD_MAX values. */
double cw_mad(const double *values, int n, double median) {
  double off[MAD_MAX];
  if (n > MAD_MAX) n = MAD_MAX;
  for (int k = 0; k < n; k++) off[k] = values[k] > median ? values[k] - median : median - values[k];
  return cw_median(off, n);
}

bool cw_is_slow(double ns, double median, double mad) {
  double margin = SLOW_RATIO * median;
  if (margin < SLOW_MADS * mad) margin = SLOW_MADS * mad;
  if (margin < SLOW_MIN_NS) margin = SLOW_MIN_NS;
  return ns - median > margin;
}

/* P(X >= k) for X ~ Binomial(n, p), summed from k while it counts; 1 when
   k is no more than chance gives (no evidence), as plan.binomial_tail. */
static double binomial_tail(long long k, long long n, double p) {
  if (k <= 0) return 1;
  if (k > n || p <= 0) return p <= 0 || k > n ? 0 : 1;
  if (k <= n * p) return 1;
  double term = exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
                    (double)k * log(p) + (double)(n - k) * log1p(-p));
  double total = 0;
  for (long long j = k; j <= n && term > 1e-300; j++) {
    total += term;
    if (term < total * 1e-16) break;
    term *= (double)(n - j) / (double)(j + 1) * p / (1 - p);
  }
  return total < 1 ? total : 1;
}

double cw_period_chance_v1(long long hits, long long places, double p, long long steps) {
  long long periods = (steps - 1) / (PERIOD_PLACES - 1);
  if (periods < PERIOD_MIN) periods = PERIOD_MIN;
  double pairs = (double)periods * (double)(periods + 1) / 2 - PERIOD_MIN * (PERIOD_MIN - 1) / 2;
  return pairs * binomial_tail(hits, places, p);
}

bool cw_period_significant(long long hits, long long places, double p, long long steps,
                           long long looks) {
  return (double)looks * cw_period_chance_v1(hits, places, p, steps) <= ALPHA;
}

/* The numbers of every rule, once: capture_window/rules.h. */
static const struct {
  const char *name;
  double value;
} rules[] = {
    {"slow_ratio", SLOW_RATIO},        {"slow_mads", SLOW_MADS},
    {"slow_min_ns", SLOW_MIN_NS},      {"alpha", ALPHA},
    {"period_min", PERIOD_MIN},        {"steady_spread", CW_STEADY_SPREAD},
    {"drift_change", CW_DRIFT_CHANGE}, {"drift_explained", CW_DRIFT_EXPLAINED},
    {"level_gap", CW_LEVEL_GAP},       {"level_share", CW_LEVEL_SHARE},
    {"level_cover", CW_LEVEL_COVER},   {"shape_min", CW_SHAPE_MIN},
};

double cw_rule_value_v1(const char *name) {
  for (size_t k = 0; name && k < sizeof rules / sizeof *rules; k++)
    if (strcmp(rules[k].name, name) == 0) return rules[k].value;
  return NAN;
}

/* The one unit rule of docs/environment.md ("Durations"), as the CLI's
   common.duration writes it: whole nanoseconds below 1 us, else 3
   significant digits in the largest of us, ms and s that keeps the number
   at 1 or more (what rounds to 1.00 counts): 850 ns, 1.23 us, 508 us. */
void cw_format_duration(char *buf, size_t size, double ns) {
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}};
  for (size_t k = 0; k < sizeof units / sizeof *units; k++)
    if (fabs(ns) >= units[k].scale * 0.9995) {
      double v = ns / units[k].scale;
      int digits = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
      snprintf(buf, size, "%.*f %s", digits, v, units[k].unit);
      return;
    }
  snprintf(buf, size, "%.0f ns", ns);
}
