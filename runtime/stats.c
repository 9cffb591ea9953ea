/*
 * stats.c - the statistics of step times that the runtime and
 * `capture-window plan` share (docs/where-to-cut.md, "The rule"): the
 * median, the median absolute deviation (MAD), and when a step is slow;
 * and how every duration is written (the one unit rule).
 * cli/capture_window_cli/plan.py implements the same rule; keep them in
 * step. A leaf: it calls no other file of the runtime.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* A step is slow when it exceeds the median of the steps around it by more
   than half the median, four times their MAD and 1 us: noise of a busy
   machine stays inside, an evaluation or a checkpoint does not. */
#define SLOW_RATIO 0.5
#define SLOW_MADS 4.0
#define SLOW_MIN_NS 1000.0

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

/* The one unit rule of docs/environment.md ("Durations"), as the CLI's
   common.duration writes it: whole nanoseconds below 1 us, else 3
   significant digits in the largest of us, ms and s that keeps the number
   at 1 or more (what rounds to 1.00 counts): 850 ns, 1.23 us, 508 us. */
void cw_format_duration(char *buf, size_t size, double ns) {
  static const struct { const char *unit; double scale; } units[] = {
      {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}};
  for (size_t k = 0; k < sizeof units / sizeof *units; k++)
    if (fabs(ns) >= units[k].scale * 0.9995) {
      double v = ns / units[k].scale;
      int digits = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
      snprintf(buf, size, "%.*f %s", digits, v, units[k].unit);
      return;
    }
  snprintf(buf, size, "%.0f ns", ns);
}
