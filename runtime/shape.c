/*
 * shape.c - whether a loop's steps have a steady state, by the rule of
 * cli/capture_window_cli/steady.py (docs/where-to-cut.md, "No steady
 * state"; the numbers are internal.h's CW_* and cw_rule_value_v1's):
 *
 *   levels   the sorted step times split where one is LEVEL_GAP times the
 *            one before; two groups or more of LEVEL_SHARE of the steps
 *            each, each with its middle 80 % within LEVEL_GAP, together
 *            LEVEL_COVER of the steps
 *   drift    else the least-squares line through the steps that are not
 *            slow moves by more than DRIFT_CHANGE of their median over the
 *            run and leaves at most DRIFT_EXPLAINED of their spread (MAD)
 *
 * The steps judged are those spike watched after its first CW_SPIKE_STEPS
 * (its warm-up), at most SAMPLE of them evenly spaced: when the sample is
 * full every other one goes and the stride doubles. Slow is the rule of
 * stats.c against the median and MAD of the sample's second half, as plan
 * takes its reference. Leaves the words to the caller (cw_shape_describe).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

struct cw_shape {
  double ns[CW_SHAPE_SAMPLE];
  long long index[CW_SHAPE_SAMPLE];
  int n;
  long long stride, seen;
};

void cw_shape_add(struct cw_loop *loop, long long index, double ns) {
  struct cw_shape *s = loop->shape;
  if (!s && !(s = loop->shape = calloc(1, sizeof *s))) return;
  if (!s->stride) s->stride = 1;
  if (s->seen++ % s->stride) return;
  if (s->n == CW_SHAPE_SAMPLE) { /* keep every other: the stride doubles */
    for (int k = 0; 2 * k < CW_SHAPE_SAMPLE; k++) {
      s->ns[k] = s->ns[2 * k];
      s->index[k] = s->index[2 * k];
    }
    s->n = CW_SHAPE_SAMPLE / 2;
    s->stride *= 2;
    if ((s->seen - 1) % s->stride) return;
  }
  s->ns[s->n] = ns;
  s->index[s->n++] = index;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of n values (a sorted copy) and their MAD in *mad. */
static double median_mad(const double *values, int n, double *mad) {
  double sorted[CW_SHAPE_SAMPLE];
  memcpy(sorted, values, (size_t)n * sizeof *values);
  qsort(sorted, (size_t)n, sizeof *sorted, by_value);
  double m = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  for (int k = 0; k < n; k++) sorted[k] = fabs(values[k] - m);
  qsort(sorted, (size_t)n, sizeof *sorted, by_value);
  *mad = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return m;
}

/* steady.levels_of: the levels among n sorted times, or 0. */
static int levels_of(const double *s, int n, double *level_median, int *level_steps) {
  int found = 0, covered = 0;
  for (int a = 0; a < n;) {
    int b = a + 1;
    while (b < n && s[b] <= CW_LEVEL_GAP * s[b - 1]) b++;
    int len = b - a;
    double need = CW_LEVEL_SHARE * n > 3 ? CW_LEVEL_SHARE * n : 3;
    int hi = len * 9 / 10 - 1 > len / 10 ? len * 9 / 10 - 1 : len / 10;
    if (len >= need && s[a + hi] <= CW_LEVEL_GAP * s[a + len / 10] && found < CW_SHAPE_LEVELS) {
      level_median[found] = len % 2 ? s[a + len / 2] : (s[a + len / 2 - 1] + s[a + len / 2]) / 2;
      level_steps[found++] = len;
      covered += len;
    }
    a = b;
  }
  return found >= 2 && covered >= CW_LEVEL_COVER * n ? found : 0;
}

bool cw_shape_judge(const struct cw_loop *loop, struct cw_shape_verdict *v) {
  const struct cw_shape *s = loop->shape;
  memset(v, 0, sizeof *v);
  if (!s || s->n < CW_SHAPE_MIN) return false;
  double mad0, m0 = median_mad(s->ns + s->n / 2, s->n - s->n / 2, &mad0);
  double ys[CW_SHAPE_SAMPLE], xs[CW_SHAPE_SAMPLE];
  int n = 0;
  for (int k = 0; k < s->n; k++)
    if (!cw_is_slow(s->ns[k], m0, mad0)) {
      xs[n] = (double)s->index[k];
      ys[n++] = s->ns[k];
    }
  if (n < CW_SHAPE_MIN) return false;
  double sorted[CW_SHAPE_SAMPLE];
  memcpy(sorted, ys, (size_t)n * sizeof *ys);
  qsort(sorted, (size_t)n, sizeof *sorted, by_value);
  v->n_levels = levels_of(sorted, n, v->level_ns, v->level_steps);
  if (v->n_levels) return true;
  double mad, m = median_mad(ys, n, &mad), mx = 0, my = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < n; k++) mx += xs[k], my += ys[k];
  mx /= n, my /= n;
  for (int k = 0; k < n; k++)
    sxx += (xs[k] - mx) * (xs[k] - mx), sxy += (xs[k] - mx) * (ys[k] - my);
  double b = sxx ? sxy / sxx : 0, residual[CW_SHAPE_SAMPLE], left;
  for (int k = 0; k < n; k++) residual[k] = ys[k] - my - b * (xs[k] - mx);
  double centre = median_mad(residual, n, &left);
  (void)centre;
  double f0 = my + b * (xs[0] - mx), f1 = my + b * (xs[n - 1] - mx);
  if (fabs(f1 - f0) > CW_DRIFT_CHANGE * m && left <= CW_DRIFT_EXPLAINED * mad) {
    v->drift = true;
    v->slope_ns = b;
    v->from_ns = f0, v->to_ns = f1;
    v->first = (long long)xs[0], v->last = (long long)xs[n - 1];
  }
  return v->drift;
}

/* steady.durations: values in the unit of the largest, "6.00, 9.00, 14.0 ms". */
static void durations(char *buf, size_t size, const double *values, int n, const char *sep) {
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};
  double top = 0;
  for (int k = 0; k < n; k++) top = values[k] > top ? values[k] : top;
  size_t u = 0;
  while (u < 3 && top < units[u].scale * 0.9995) u++;
  size_t len = 0;
  for (int k = 0; k < n && len < size; k++) {
    double x = values[k] / units[u].scale;
    int digits = x >= 99.95 || u == 3 ? 0 : x >= 9.995 ? 1 : 2;
    len += (size_t)snprintf(buf + len, size - len, "%s%.*f", k ? sep : "", digits, x);
  }
  if (len < size) snprintf(buf + len, size - len, " %s", units[u].unit);
}

void cw_shape_describe(const struct cw_shape_verdict *v, char *buf, size_t size) {
  char values[160], slope[CW_DURATION_MAX];
  if (v->n_levels) {
    durations(values, sizeof values, v->level_ns, v->n_levels, ", ");
    snprintf(buf, size, "no steady state: %d levels: %s: shapes change?", v->n_levels, values);
    return;
  }
  double ends[2] = {v->from_ns, v->to_ns};
  durations(values, sizeof values, ends, 2, " to ");
  cw_format_duration(slope, sizeof slope, fabs(v->slope_ns));
  snprintf(buf, size, "no steady state: steps drift from %s (slope %s%s a step, steps %lld-%lld)",
           values, v->slope_ns >= 0 ? "+" : "-", slope, v->first, v->last);
}
