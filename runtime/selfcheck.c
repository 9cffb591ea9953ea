/*
 * selfcheck.c - step times and the report at exit.
 *
 * A step's time runs from the start of one iteration to the start of the
 * next (or to the loop's exit), so it includes everything the step did on
 * the host. Only the windows' steps are timed, and the CW_BEFORE_STEPS
 * steps just before each window for comparison, so a run pays for the
 * clock only there. With CAPTURE_WINDOW_VERBOSE=1 or a profiler attached,
 * the exit report prints one line per marked loop: iterations, each window
 * with the median and spread of its steps and its verdict against the
 * steps before it, by the rule `capture-window plan` uses (stats.c,
 * docs/where-to-cut.md): steady, or which step is slow and how much (not
 * steady state); and a warning for a configured window that never opened.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

/* Fewer steps before a window than this: nothing to judge it against. */
#define MIN_BEFORE 5
/* A window differs from the steps before it when one of its steps takes
   more than twice their median, or its median less than half of it (and
   in both cases by more than 4 MADs). Twice, not plan's 1.5x: the
   self-check judges a few steps against a few, and a second program on the
   same core can slow every step by 1.5-1.8x for a while; an evaluation or
   a checkpoint step takes several times a training step. And by more than
   100 us: what the thread waits for a CPU is left out of its steps, but
   interrupts and a hypervisor's pauses are not, and they add tens of us to
   a step now and then. */
#define JUDGE_RATIO 2.0
#define JUDGE_MIN_NS 100000.0

static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_loop *all_loops, **all_tail = &all_loops; /* in creation order */

static double median_of(const double *values, int n) {
  double sorted[CW_WINDOW_STEPS > CW_BEFORE_STEPS ? CW_WINDOW_STEPS : CW_BEFORE_STEPS];
  memcpy(sorted, values, (size_t)n * sizeof *values);
  return cw_median(sorted, n);
}

/* A window opens: what to judge its steps against is the steps before. */
void cw_selfcheck_window(struct cw_loop *loop, struct cw_window_record *record) {
  int n = loop->n_before < CW_BEFORE_STEPS ? loop->n_before : CW_BEFORE_STEPS;
  record->n_steps = 0;
  record->n_before = n;
  record->before_median = n ? median_of(loop->before, n) : 0;
  record->before_mad = n ? cw_mad(loop->before, n, record->before_median) : 0;
  loop->n_before = 0; /* the next window's steps before start after this one */
}

/* Closes the time of the iteration begun last, if it was timed, and starts
   timing the next one if keep_timing; called at an iteration's begin and,
   with keep_timing false, at loop exit (time across an exit is no step).
   For the self-check a step's time leaves out what the thread waited for a
   CPU meanwhile (a busy machine's share, not the program's), and the next
   step starts after that reading, so its cost is in no step. */
void cw_time_step(struct cw_loop *loop, bool keep_timing, long long now) {
  long long waited = cw_config.self_check ? cw_run_delay_ns() : -1;
  if (loop->last_begin_ns) {
    double step = (double)(now - loop->last_begin_ns);
    if (waited >= 0 && loop->last_wait_ns >= 0) step -= (double)(waited - loop->last_wait_ns);
    if (step < 0) step = 0;
    struct cw_window_record *r = loop->last_record >= 0 ? &loop->records[loop->last_record] : NULL;
    if (r && r->n_steps < CW_WINDOW_STEPS)
      r->steps[r->n_steps++] = step;
    else if (!r)
      loop->before[loop->n_before++ % CW_BEFORE_STEPS] = step;
    if (loop->auto_pending) {
      memmove(loop->recent, loop->recent + 1, sizeof loop->recent - sizeof *loop->recent);
      loop->recent[CW_AUTO_STEPS - 1] = step;
      if (loop->n_recent < CW_AUTO_STEPS) loop->n_recent++;
    }
  }
  loop->last_wait_ns = waited;
  loop->last_begin_ns = keep_timing ? (waited >= 0 ? cw_now_ns() : now) : 0;
  if (!keep_timing) loop->n_recent = 0;
}

/* The step being timed starts again now (what came before was no part of
   it: the window's opening, its log line). */
void cw_time_restart(struct cw_loop *loop) {
  loop->last_wait_ns = cw_config.self_check ? cw_run_delay_ns() : -1;
  loop->last_begin_ns = cw_now_ns();
}

/* The report runs at exit, when a library holding the descriptor may be
   gone (dlclose), so it reads only a copy of the site's names. */
static void copy_names(struct cw_loop *loop) {
  const struct cw_site_v2 *site = loop->site;
  const char *at = CW_SITE_AT(site);
  size_t label = strlen(site->label) + 1, file = strlen(site->file) + 1, n_at = strlen(at) + 1;
  char *copy = malloc(label + file + n_at);
  loop->line = site->line;
  if (!copy) {
    loop->label = loop->file = "?";
    loop->at = "";
    return;
  }
  loop->label = memcpy(copy, site->label, label);
  loop->file = memcpy(copy + label, site->file, file);
  loop->at = memcpy(copy + label + file, at, n_at);
}

/* A reloaded library may reuse an address: the names must match too. */
static bool same_site(const struct cw_loop *a, const struct cw_loop *b) {
  return a->site == b->site && a->line == b->line && strcmp(a->label, b->label) == 0 &&
         strcmp(a->file, b->file) == 0 && strcmp(a->at, b->at) == 0;
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

static void append_duration(char *buf, size_t size, size_t *len, double ns) {
  char text[CW_DURATION_MAX];
  cw_format_duration(text, sizeof text, ns);
  append(buf, size, len, "%s", text);
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

static void append_steps(char *buf, size_t size, size_t *len, double median, double mad) {
  append(buf, size, len, "median ");
  append_duration(buf, size, len, median);
  append(buf, size, len, ", spread %.1f%%", median > 0 ? 100 * mad / median : 0);
}

/* Whether x exceeds y by more than the self-check's margin (JUDGE_RATIO)
   around the steps before (median m, MAD d). */
static bool beyond(double x, double y, double m, double d) {
  double margin = (JUDGE_RATIO - 1) * (m < y ? m : y);
  if (margin < 4 * d) margin = 4 * d;
  if (margin < JUDGE_MIN_NS) margin = JUDGE_MIN_NS;
  return x - y > margin;
}

/* One window: its steps, and the verdict against the steps before it
   (not "steady" in a loop without a steady state: unsteady). */
static void report_window(char *buf, size_t size, size_t *len, const struct cw_window_record *r,
                          bool unsteady) {
  double median = median_of(r->steps, r->n_steps), m = r->before_median, d = r->before_mad;
  append(buf, size, len, "; window %lld-%lld: ", r->first, r->last);
  append_steps(buf, size, len, median, cw_mad(r->steps, r->n_steps, median));
  if (cw_nsight_compute_attached()) { /* kernel replay makes every profiled step slow */
    append(buf, size, len,
           ": Nsight Compute replayed its kernels, so its step times say "
           "nothing about the program");
    return;
  }
  if (r->n_before < MIN_BEFORE) {
    append(buf, size, len, " (%d step%s before it: too few to judge)", r->n_before,
           r->n_before == 1 ? "" : "s");
    return;
  }
  int slowest = -1, n_slow = 0;
  for (int k = 0; k < r->n_steps; k++)
    if (beyond(r->steps[k], m, m, d)) {
      n_slow++;
      if (slowest < 0 || r->steps[k] > r->steps[slowest]) slowest = k;
    }
  bool faster = slowest < 0 && median > 0 && beyond(m, median, m, d);
  if (slowest >= 0)
    append(buf, size, len, ": step %lld is %.1fx slower than the %d steps before (",
           r->first + slowest, r->steps[slowest] / m, r->n_before);
  else if (faster)
    append(buf, size, len, ": its steps are %.1fx faster than the %d steps before (", m / median,
           r->n_before);
  else if (unsteady)
    append(buf, size, len, ": no slower than the %d steps before (", r->n_before);
  else
    append(buf, size, len, ": steady (the %d steps before: ", r->n_before);
  append_steps(buf, size, len, m, d);
  append(buf, size, len, ")");
  if (n_slow > 1) append(buf, size, len, ", %d steps slow", n_slow);
  if (r->aim) /* spike's window, or a periodic one (plan's suggestion for an event) */
    append(buf, size, len,
           slowest >= 0 ? ": the slow step it was aimed at (every %lld steps)"
                        : ": aimed at a slow step every %lld steps, it held none",
           r->aim);
  else if (slowest >= 0)
    append(buf, size, len, ": not steady state (eval? checkpoint?)");
  else if (faster)
    append(buf, size, len, ": not steady state (the steps before still warming up?)");
}

/* One line for one site, over every thread that ran it. */
static void report_site(const struct cw_loop *site) {
  long long iterations = 0, opened = 0;
  int threads = 0;
  const struct cw_loop *first = NULL;
  char line[2048];
  size_t len = 0;
  for (const struct cw_loop *l = all_loops; l; l = l->all_next) {
    if (!same_site(l, site)) continue;
    first = first ? first : l;
    threads++;
    iterations += l->head.next;
    opened += l->windows_opened;
  }
  append(line, sizeof line, &len, "loop '%s' (%s:%u%s) ran %lld iteration%s", first->label,
         first->file, first->line, first->at, iterations, iterations == 1 ? "" : "s");
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
    /* The steps spike watched drift or jump among levels (shape.c): say so
       (per thread, with more than one), and call no window steady. */
    struct cw_shape_verdict shape;
    bool unsteady = cw_shape_judge(l, &shape);
    if (unsteady) {
      char said[256];
      cw_shape_describe(&shape, said, sizeof said);
      append(line, sizeof line, &len, "; %s%s", threads > 1 ? "a thread's steps: " : "", said);
    }
    int shown =
        l->windows_opened < CW_RECORDED_WINDOWS ? (int)l->windows_opened : CW_RECORDED_WINDOWS;
    for (int k = 0; k < shown; k++)
      report_window(line, sizeof line, &len, &l->records[k], unsteady);
    if (l->windows_opened > shown)
      append(line, sizeof line, &len, "; and %lld more windows", l->windows_opened - shown);
  }
  cw_log("%s", line);
}

void cw_selfcheck_report(void) {
  if (!cw_lock(&all_lock)) return; /* a signal's teardown, in the middle of a new loop */
  for (const struct cw_loop *l = all_loops; l; l = l->all_next) {
    bool first_of_site = true;
    for (const struct cw_loop *e = all_loops; e != l; e = e->all_next)
      if (same_site(e, l)) first_of_site = false;
    if (first_of_site) report_site(l);
  }
  cw_unlock(&all_lock);
}
