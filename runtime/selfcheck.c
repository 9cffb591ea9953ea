/*
 * selfcheck.c - step times and the report at exit.
 *
 * A step's time runs from the start of one iteration to the start of the
 * next (or to the loop's exit), so it includes everything the step did on
 * the host. Only the windows' steps are timed, and as many steps just before
 * each window for comparison, so a run pays for the clock only there. With
 * CAPTURE_WINDOW_VERBOSE=1 or a profiler attached, the exit report prints one
 * line per marked loop: iterations, each window with the mean and spread of
 * its steps, the same for the steps before windows, a flag on
 * a window whose steps vary by more than 10 % (probably not steady state),
 * and a warning for a configured window that never opened.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

#define UNSTEADY_SPREAD 0.10

static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_loop *all_loops, **all_tail = &all_loops; /* in creation order */

static void add_sample(struct cw_stats *s, double x) {
  double delta = x - s->mean;
  s->n++;
  s->mean += delta / (double)s->n;
  s->m2 += delta * (x - s->mean);
}

static void merge(struct cw_stats *into, const struct cw_stats *from) {
  if (!from->n) return;
  double n = (double)(into->n + from->n), delta = from->mean - into->mean;
  into->m2 += from->m2 + delta * delta * (double)into->n * (double)from->n / n;
  into->mean += delta * (double)from->n / n;
  into->n += from->n;
}

static double spread(const struct cw_stats *s) {
  return s->n > 1 && s->mean > 0 ? sqrt(s->m2 / (double)(s->n - 1)) / s->mean : 0;
}

/* Closes the time of the iteration begun last, if it was timed, and starts
   timing the next one if keep_timing; called at an iteration's begin and,
   with keep_timing false, at loop exit (time across an exit is no step). */
void cw_time_step(struct cw_loop *loop, bool keep_timing, long long now) {
  if (loop->last_begin_ns) {
    double step = (double)(now - loop->last_begin_ns);
    if (loop->last_record >= 0)
      add_sample(&loop->records[loop->last_record].steps, step);
    else
      add_sample(&loop->outside, step);
    if (loop->auto_pending) {
      memmove(loop->recent, loop->recent + 1, sizeof loop->recent - sizeof *loop->recent);
      loop->recent[CW_AUTO_STEPS - 1] = step;
      if (loop->n_recent < CW_AUTO_STEPS) loop->n_recent++;
    }
  }
  loop->last_begin_ns = keep_timing ? now : 0;
  if (!keep_timing) loop->n_recent = 0;
}

/* The report runs at exit, when a library holding the descriptor may be
   gone (dlclose), so it reads only a copy of the site's names. */
static void copy_names(struct cw_loop *loop) {
  const struct cw_site_v2 *site = loop->site;
  size_t label = strlen(site->label) + 1, file = strlen(site->file) + 1;
  char *copy = malloc(label + file);
  loop->line = site->line;
  if (!copy) {
    loop->label = loop->file = "?";
    return;
  }
  loop->label = memcpy(copy, site->label, label);
  loop->file = memcpy(copy + label, site->file, file);
}

/* A reloaded library may reuse an address: the names must match too. */
static bool same_site(const struct cw_loop *a, const struct cw_loop *b) {
  return a->site == b->site && a->line == b->line && strcmp(a->label, b->label) == 0 &&
         strcmp(a->file, b->file) == 0;
}

void cw_selfcheck_track(struct cw_loop *loop) {
  copy_names(loop);
  pthread_mutex_lock(&all_lock);
  *all_tail = loop;
  all_tail = &loop->all_next;
  pthread_mutex_unlock(&all_lock);
}

/* Appends to buf at *len, never past size. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) {
  if (*len >= size) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *len, size - *len, fmt, ap);
  va_end(ap);
  if (n > 0) *len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

/* "12.345 ms", "3.210 us" or "45 ns": steps range from nanoseconds to seconds. */
static void append_duration(char *buf, size_t size, size_t *len, double ns) {
  if (ns >= 1e6)
    append(buf, size, len, "%.3f ms", ns / 1e6);
  else if (ns >= 1e3)
    append(buf, size, len, "%.3f us", ns / 1e3);
  else
    append(buf, size, len, "%.0f ns", ns);
}

static void describe_plan(char *buf, size_t size, size_t *len, const struct cw_loop *loop) {
  if (cw_config.auto_count) {
    append(buf, size, len, "auto:%lld", cw_config.auto_count);
    return;
  }
  if (cw_config.spike_count) {
    append(buf, size, len, "spike:%lld", cw_config.spike_count);
    if (cw_config.spike_times > 1) append(buf, size, len, "x%lld", cw_config.spike_times);
    return;
  }
  if (!loop->n_windows) {
    append(buf, size, len, "armed by %s", strsignal(cw_config.signal_number));
    return;
  }
  for (size_t k = 0; k < loop->n_windows; k++) {
    const struct cw_window *w = &loop->windows[k];
    append(buf, size, len, "%s%lld:%lld", k ? "," : "", w->start, w->count);
    if (w->every) append(buf, size, len, "/%lld", w->every);
    if (w->times) append(buf, size, len, "x%lld", w->times);
  }
}

/* One line for one site, over every thread that ran it. */
static void report_site(const struct cw_loop *site) {
  long long iterations = 0, opened = 0;
  int threads = 0;
  struct cw_stats outside = {0};
  const struct cw_loop *first = NULL;
  char line[1024];
  size_t len = 0;
  for (const struct cw_loop *l = all_loops; l; l = l->all_next) {
    if (!same_site(l, site)) continue;
    first = first ? first : l;
    threads++;
    iterations += l->head.next;
    opened += l->windows_opened;
    merge(&outside, &l->outside);
  }
  append(line, sizeof line, &len, "loop '%s' (%s:%u) ran %lld iterations", first->label,
         first->file, first->line, iterations);
  if (threads > 1) append(line, sizeof line, &len, " in %d threads", threads);
  if (!opened && !cw_config.none) {
    append(line, sizeof line, &len, "; window ");
    describe_plan(line, sizeof line, &len, first);
    append(line, sizeof line, &len, " never opened");
    if (cw_config.spike_count)
      append(line, sizeof line, &len, ": no slow step recurred at a steady period");
  }
  for (const struct cw_loop *l = all_loops; l; l = l->all_next) {
    if (!same_site(l, site)) continue;
    int shown = l->windows_opened < CW_RECORDED_WINDOWS ? (int)l->windows_opened
                                                        : CW_RECORDED_WINDOWS;
    for (int k = 0; k < shown; k++) {
      const struct cw_window_record *r = &l->records[k];
      append(line, sizeof line, &len, "; window %lld-%lld: step ", r->first, r->last);
      append_duration(line, sizeof line, &len, r->steps.mean);
      append(line, sizeof line, &len, " +-%.1f%%", spread(&r->steps) * 100);
      if (spread(&r->steps) > UNSTEADY_SPREAD)
        append(line, sizeof line, &len, ", varies more than %.0f%%: probably not steady state",
               UNSTEADY_SPREAD * 100);
    }
    if (l->windows_opened > shown)
      append(line, sizeof line, &len, "; and %lld more windows", l->windows_opened - shown);
  }
  if (outside.n) {
    append(line, sizeof line, &len, "; steps before windows ");
    append_duration(line, sizeof line, &len, outside.mean);
    append(line, sizeof line, &len, " +-%.1f%%", spread(&outside) * 100);
  }
  cw_log("%s", line);
}

void cw_selfcheck_report(void) {
  pthread_mutex_lock(&all_lock);
  for (const struct cw_loop *l = all_loops; l; l = l->all_next) {
    bool first_of_site = true;
    for (const struct cw_loop *e = all_loops; e != l; e = e->all_next)
      if (same_site(e, l)) first_of_site = false;
    if (first_of_site) report_site(l);
  }
  pthread_mutex_unlock(&all_lock);
}
