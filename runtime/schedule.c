/*
 * schedule.c - when a loop's windows open.
 *
 * Six sources, all decided at iteration boundaries (never mid-iteration):
 *   listed     CAPTURE_WINDOW=START:COUNT[,...] or the pragma's own window
 *   periodic   START:COUNT/EVERY[xTIMES]: windows at START, START+EVERY, ...
 *   automatic  auto:COUNT: at the first iteration after the step time settled
 *   spike      spike:COUNT[xTIMES]: around the next slow step, once slow
 *              steps recur at a steady period
 *   signal     CAPTURE_WINDOW_SIGNAL: `kill -USR1 PID` arms a window of the
 *              pragma's COUNT at the next iteration (or the next multiple
 *              of CAPTURE_WINDOW_ALIGN)
 *   watched    CAPTURE_WINDOW_WATCH: a request of `capture-window trigger`
 *              arms a window at its STEP, or at the next multiple of its N
 *
 * A window that would start while another is open is skipped.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"

/* Automatic warm-up: open once the last CW_AUTO_STEPS step times are all
   within AUTO_TOLERANCE of their median, or at AUTO_CAP at the latest. */
#define AUTO_TOLERANCE 0.05
#define AUTO_CAP 1000

volatile int cw_signal_generation;

static void watch_missed(struct cw_loop *loop, long long i, long long at, const char *why);

/* First start >= from of one spec, or LLONG_MAX. */
static long long spec_start(const struct cw_window *w, long long from) {
  if (from <= w->start) return w->start;
  if (w->every == 0) return LLONG_MAX;
  long long k = (from - w->start + w->every - 1) / w->every;
  if (w->times && k >= w->times) return LLONG_MAX;
  return w->start + k * w->every;
}

/* The earliest start >= from over all specs, with its COUNT. */
static long long next_window_start(const struct cw_window *windows, size_t n, long long from,
                                   long long *count) {
  long long best = LLONG_MAX;
  *count = 0;
  for (size_t k = 0; k < n; k++) {
    long long s = spec_start(&windows[k], from);
    if (s < best || (s == best && windows[k].count > *count)) {
      best = s;
      *count = windows[k].count;
    }
  }
  return best;
}

/* The self-check times each window's steps and, for comparison, the
   CW_BEFORE_STEPS steps just before it; everything else runs untimed.
   Returns the first iteration that needs a decision. */
static long long attention(struct cw_loop *loop) {
  long long next = loop->plan_start < loop->signal_start ? loop->plan_start : loop->signal_start;
  if (loop->watch_start < next) next = loop->watch_start;
  long long lead = CW_BEFORE_STEPS; /* the self-check's steps before the window */
  loop->time_from = !cw_config.self_check || next == LLONG_MAX ? LLONG_MAX
                    : next > lead                              ? next - lead
                                                               : 0;
  /* A signal may arrive at any time: with CAPTURE_WINDOW_SIGNAL every
     iteration looks, so the inline test of other runs need not. */
  bool every_iteration =
      loop->auto_pending || loop->window_open || cw_config.signal_number || loop->spike_pending;
  return every_iteration ? 0 : loop->time_from < next ? loop->time_from : next;
}

long long cw_plan_init(struct cw_loop *loop) {
  const struct cw_site_v2 *site = loop->site;
  /* The pragma's window; CAPTURE_WINDOW_COUNT replaces its COUNT (signal
     windows take that COUNT too). */
  long long count = cw_config.count ? cw_config.count : site->count;
  loop->own = (struct cw_window){site->start, count, 0, 0};
  if (cw_config.windows) {
    loop->windows = cw_config.windows;
    loop->n_windows = cw_config.n_windows;
  } else if (!cw_config.auto_count && !cw_config.signal_number && !cw_config.spike_count &&
             !cw_config.none && !cw_config.watch_path) {
    /* The pragma's window, unless auto, spike, a signal or a request decides instead. */
    loop->windows = &loop->own;
    loop->n_windows = 1;
  }
  loop->auto_pending = cw_config.auto_count > 0;
  loop->spike_pending = cw_config.spike_count > 0;
  loop->spike_start = LLONG_MAX;
  loop->signal_start = LLONG_MAX;
  loop->seen_signal = cw_signal_generation;
  loop->watch_start = LLONG_MAX; /* seen_watch 0: a request read already is acted on */
  return cw_plan_after(loop, 0);
}

/* The next window starting at or after `from`. */
long long cw_plan_after(struct cw_loop *loop, long long from) {
  loop->plan_start = next_window_start(loop->windows, loop->n_windows, from, &loop->plan_count);
  if (loop->signal_start < from) loop->signal_start = LLONG_MAX; /* covered */
  if (loop->watch_start < from) watch_missed(loop, from - 1, loop->watch_start, "window");
  if (loop->spike_start < from) loop->spike_start = LLONG_MAX;
  if (loop->spike_start < loop->plan_start) {
    loop->plan_start = loop->spike_start;
    loop->plan_count = cw_config.spike_count;
  }
  return attention(loop);
}

/* A signal arrived since this loop last looked: arm a window. */
long long cw_plan_signal(struct cw_loop *loop, long long i) {
  loop->seen_signal = cw_signal_generation;
  long long align = cw_config.align;
  long long at = (i + align - 1) / align * align;
  const struct cw_site_v2 *site = loop->site;
  if (loop->window_open) {
    if (cw_config.verbose)
      cw_log("signal: loop '%s' (%s:%u%s) has a window open at iteration %lld; ignored",
             site->label, site->file, site->line, CW_SITE_AT(site), i);
    return attention(loop);
  }
  loop->signal_start = at;
  if (cw_config.verbose)
    cw_log("signal: loop '%s' (%s:%u%s) window of %lld armed at iteration %lld (signal seen "
           "at %lld, align %lld), thread %ld",
           site->label, site->file, site->line, CW_SITE_AT(site), loop->own.count, at, i, align,
           cw_thread_id());
  return attention(loop);
}

/* A request's window that does not open: it says so, on stderr and in the
   rank's answers. */
static void watch_missed(struct cw_loop *loop, long long i, long long at, const char *why) {
  const struct cw_site_v2 *site = loop->site;
  loop->watch_start = LLONG_MAX;
  cw_answer_missed(loop, i, at, why);
  cw_log("watch: request %s: loop '%s' (%s:%u%s) does not open at iteration %lld: %s (iteration "
         "%lld), thread %ld",
         loop->watch_id, site->label, site->file, site->line, CW_SITE_AT(site), at,
         strcmp(why, "past") == 0 ? "it was past when the loop saw the request"
                                  : "another window held it",
         i, cw_thread_id());
}

/* A request of CAPTURE_WINDOW_WATCH that this loop has not acted on
   (watch.h): arm its window at its STEP, or at the next multiple of its N
   from i, for its COUNT or the loop's; a request for another label is
   passed over. A window armed by an earlier request is replaced. */
long long cw_plan_watch(struct cw_loop *loop, long long i) {
  struct cw_watch_request r;
  loop->seen_watch = cw_watch_current(&r);
  const struct cw_site_v2 *site = loop->site;
  if (r.label[0] && strcmp(r.label, site->label) != 0) return attention(loop);
  if (loop->watch_start != LLONG_MAX) cw_answer_replaced(loop, i, r.id);
  memcpy(loop->watch_id, r.id, sizeof r.id);
  long long at = r.align ? (i + r.align - 1) / r.align * r.align : r.at;
  loop->watch_count = r.count ? r.count : loop->own.count;
  loop->watch_start = at;
  if (at < i) {
    watch_missed(loop, i, at, "past");
  } else if (loop->window_open && at <= loop->window_last) {
    watch_missed(loop, i, at, "window");
  } else {
    cw_answer_seen(loop, i, at, loop->watch_count);
    if (cw_config.verbose)
      cw_log("watch: request %s: loop '%s' (%s:%u%s) window of %lld armed at iteration %lld "
             "(request seen at %lld), thread %ld",
             r.id, site->label, site->file, site->line, CW_SITE_AT(site), loop->watch_count, at, i,
             cw_thread_id());
  }
  return attention(loop);
}

/* auto:COUNT - called at each iteration while waiting. Opens the window
   and says why when the steps have settled, or at the cap. */
bool cw_auto_settled(struct cw_loop *loop, long long i) {
  const struct cw_site_v2 *site = loop->site;
  if (loop->n_recent == CW_AUTO_STEPS) {
    double sorted[CW_AUTO_STEPS], worst = 0;
    memcpy(sorted, loop->recent, sizeof sorted);
    double median = cw_median(sorted, CW_AUTO_STEPS);
    for (int k = 0; k < CW_AUTO_STEPS; k++) {
      double off = (sorted[k] - median) / median;
      if (off < 0) off = -off;
      if (off > worst) worst = off;
    }
    if (median > 0 && worst <= AUTO_TOLERANCE) {
      char shown[CW_DURATION_MAX];
      cw_format_duration(shown, sizeof shown, median);
      if (cw_config.verbose)
        cw_log("auto: loop '%s' (%s:%u%s) settled at iteration %lld: last %d steps within "
               "%.1f%% of their median %s",
               site->label, site->file, site->line, CW_SITE_AT(site), i, CW_AUTO_STEPS, worst * 100,
               shown);
      return true;
    }
  }
  if (i < AUTO_CAP) return false;
  cw_log("auto: loop '%s' (%s:%u%s) step time did not settle within %d iterations; "
         "opening the window anyway",
         site->label, site->file, site->line, CW_SITE_AT(site), AUTO_CAP);
  return true;
}

/* Whether step `index` is among the n slow steps and at least as slow as
   a third of ns, the level of the step that took ns: a step holding this
   event and a slower one too (an evaluation that also checkpoints) counts
   for this one. *alike counts those within a factor of 3 of ns: an
   evaluation takes about the same time each time, noise does not (a busy
   machine may still double one). */
static bool slow_as(const struct cw_loop *loop, int n, long long index, double ns, int *alike) {
  for (int k = 0; k < n; k++)
    if (loop->spike_slow[k] == index) {
      if (3 * loop->spike_slow_ns[k] < ns) return false;
      if (loop->spike_slow_ns[k] <= 3 * ns) ++*alike;
      return true;
    }
  return false;
}

/* Whether at most a quarter of the steps between last - 3 PERIOD and last,
   other than the three occurrences, were slow: a burst of noise (another
   process taking the CPU for a while) makes many slow steps in a row, an
   evaluation makes one per period. */
static bool quiet_between(const struct cw_loop *loop, int n, long long last, long long period) {
  int slow = 0;
  for (int k = 0; k < n; k++) {
    long long i = loop->spike_slow[k];
    if (i > last - 3 * period && i < last && (last - i) % period != 0) slow++;
  }
  return 4 * slow <= 3 * period - 3;
}

/* Whether slow steps every PERIOD up to `last` (of ns) could not come by
   chance, by plan's significance rule (stats.c, docs/where-to-cut.md):
   over the steps the listed slow steps cover (from the oldest listed, or
   from the first step judged), the grid's places, its hits (a slow step
   as slow as its level: slow_as), and p, the rate of the steps off the
   grid at least as slow as its least slow hit, (x + 1) / (n + 2). A busy
   machine's random slow steps make p large: their chance grids do not
   pass, a true period's many hits do. */
static bool significant(const struct cw_loop *loop, int n, long long last, long long period,
                        double ns) {
  long long from = loop->spike_n_slow > CW_SPIKE_SLOW
                       ? loop->spike_slow[loop->spike_n_slow % CW_SPIKE_SLOW]
                       : loop->spike_from;
  long long places = 0, hits = 0, at_least = 0;
  double lowest = ns;
  for (long long i = last; i >= from; i -= period) {
    places++;
    if (i == last) {
      hits++;
      continue;
    }
    for (int k = 0; k < n; k++)
      if (loop->spike_slow[k] == i && 3 * loop->spike_slow_ns[k] >= ns) {
        hits++;
        if (loop->spike_slow_ns[k] < lowest) lowest = loop->spike_slow_ns[k];
      }
  }
  for (int k = 0; k < n; k++) {
    long long i = loop->spike_slow[k];
    if (i >= from && (last - i) % period != 0 && loop->spike_slow_ns[k] >= lowest) at_least++;
  }
  long long steps = last - from + 1;
  double p = ((double)at_least + 1) / ((double)(steps - places) + 2);
  return cw_period_significant(hits, places, p, steps, loop->spike_n_slow + 1);
}

/* The smallest PERIOD >= 3 at which slow step `last` (of ns) recurs:
   last - PERIOD, last - 2 PERIOD and last - 3 PERIOD are among the earlier
   slow steps, at least as slow as its level and at least two of them
   alike (slow_as), the steps between were mostly not slow
   (quiet_between), and the hits are no chance (significant). 0 if none. Three equal gaps, not two:
   on a busy machine, noise alone sometimes makes two. PERIOD >= 3: with every other step slow, the
   median is no steady step. */
static long long recurring_period(const struct cw_loop *loop, int n, long long last, double ns) {
  long long best = 0;
  for (int k = 0; k < n; k++) {
    long long period = last - loop->spike_slow[k];
    int alike = 0;
    if (period >= 3 && (!best || period < best) && slow_as(loop, n, last - period, ns, &alike) &&
        slow_as(loop, n, last - 2 * period, ns, &alike) &&
        slow_as(loop, n, last - 3 * period, ns, &alike) && alike >= 2 &&
        quiet_between(loop, n, last, period) && significant(loop, n, last, period, ns))
      best = period;
  }
  return best;
}

/* spike:COUNT[xTIMES] - called with the time of every step. A step is slow
   by the rule of stats.c against the last CW_SPIKE_STEPS steps; once a
   slow step recurs at a period (recurring_period), the next one is
   predicted PERIOD steps later, and a window of COUNT opens COUNT/2 steps
   before it (COUNT 3: the step before, the slow step, the step after),
   TIMES windows in all. */
long long cw_spike_step(struct cw_loop *loop, long long index, double ns) {
  double sorted[CW_SPIKE_STEPS];
  int n = loop->spike_n < CW_SPIKE_STEPS ? loop->spike_n : CW_SPIKE_STEPS;
  bool slow = false;
  if (loop->windows_opened >= cw_config.spike_times) {
    loop->spike_pending = false; /* all its windows opened: no more watching */
    return attention(loop);
  }
  if (n == CW_SPIKE_STEPS) {
    if (loop->spike_n == CW_SPIKE_STEPS) loop->spike_from = index;
    cw_shape_add(loop, index, ns);
    memcpy(sorted, loop->spike_recent, sizeof sorted);
    double median = cw_median(sorted, n);
    slow = cw_is_slow(ns, median, cw_mad(sorted, n, median));
  }
  loop->spike_recent[loop->spike_n++ % CW_SPIKE_STEPS] = ns;
  if (!slow) return attention(loop);
  int listed = loop->spike_n_slow < CW_SPIKE_SLOW ? loop->spike_n_slow : CW_SPIKE_SLOW;
  long long period = recurring_period(loop, listed, index, ns);
  loop->spike_slow_ns[loop->spike_n_slow % CW_SPIKE_SLOW] = ns;
  loop->spike_slow[loop->spike_n_slow++ % CW_SPIKE_SLOW] = index;
  if (!period) return attention(loop);
  long long start = index + period - cw_config.spike_count / 2;
  loop->spike_period = period;
  loop->spike_start = start > index ? start : index + 1;
  const struct cw_site_v2 *site = loop->site;
  if (cw_config.verbose)
    cw_log("spike: loop '%s' (%s:%u%s) slow steps %lld, %lld, %lld, %lld: every %lld steps; "
           "window %lld:%lld armed, thread %ld",
           site->label, site->file, site->line, CW_SITE_AT(site), index - 3 * period,
           index - 2 * period, index - period, index, period, loop->spike_start,
           cw_config.spike_count, cw_thread_id());
  return cw_plan_after(loop, index + 1);
}

/* What the window opening at i is aimed at: the period of the event it
   was placed for (a periodic window's EVERY, spike's period), or 0 for a
   window meant for steady state (listed once, the pragma's, auto). */
long long cw_plan_aim(const struct cw_loop *loop, long long i) {
  if (i == loop->spike_start) return loop->spike_period;
  for (size_t k = 0; k < loop->n_windows; k++)
    if (loop->windows[k].every && spec_start(&loop->windows[k], i) == i)
      return loop->windows[k].every;
  return 0;
}

/* ---- the signal ---------------------------------------------------------- */

static struct sigaction previous;

/* Async-signal-safe: one atomic increment, then the program's own handler. */
static void on_signal(int sig, siginfo_t *info, void *context) {
  __atomic_add_fetch(&cw_signal_generation, 1, __ATOMIC_RELAXED);
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
  }
}

void cw_signal_install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(cw_config.signal_number, &action, &previous) != 0) {
    cw_log("CAPTURE_WINDOW_SIGNAL: cannot install a handler; signal-armed windows are off");
    return;
  }
  /* A program that already handles the signal (Lightning's SLURM requeue,
     NCCL) acts on every one sent to arm a window: say so, not only when
     verbose, and name the trigger that needs no signal. */
  const char *name = cw_config.signal_number == SIGUSR1 ? "USR1" : "USR2";
  if ((previous.sa_flags & SA_SIGINFO) ||
      (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN))
    cw_log("CAPTURE_WINDOW_SIGNAL: the program already handles SIG%s; its handler runs after "
           "ours on every SIG%s sent to arm a window. To arm windows with no signal, use "
           "CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`",
           name, name);
  else if (cw_config.verbose)
    cw_log("signal %s arms windows", strsignal(cw_config.signal_number));
}
