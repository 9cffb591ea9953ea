/*
 * internal.h - what the runtime's files share; never installed.
 *
 * The runtime's files, one job each:
 *   options.c    the environment variables: one table, strict parsing
 *   unknown_variables.c  CAPTURE_WINDOW_* variables of no row (typos)
 *   log.c        cw_log: every line the runtime prints, one write(2) each
 *   window.c     the ABI entry points and the per-thread window state machine
 *   schedule.c   when windows open: listed, periodic, automatic, signal-armed
 *   selfcheck.c  step times inside and outside windows; the report at exit
 *   times.c      CAPTURE_WINDOW_TIMES: every step's time, written to a file
 *   site.c       the name of a template instantiation's loop (tmpl<int>)
 *   stats.c      median, spread and the slow-step rule (docs/where-to-cut.md)
 *   clock.c      the monotonic clock and the thread id
 *   nvtx.c       the NVTX3 events (the only file that includes NVTX), and
 *                whether the tool attached is Nsight Compute
 *   profiler.c   CUDA profiler start/stop, resolved at run time, ref-counted
 *   teardown.c   the exit paths: exit(), SIGTERM and SIGINT, crashes; the
 *                locks a signal's teardown may take (cw_lock)
 *   watch.c      CAPTURE_WINDOW_WATCH: the thread that reads trigger requests
 *   answers.c    each rank's answers to them, beside the watched file
 *
 * Calls point one way: window.c decides nothing about when, it asks
 * schedule.c (which returns its decision) and acts on the answer through
 * nvtx.c and profiler.c, and feeds selfcheck.c and times.c; schedule.c,
 * selfcheck.c and times.c call only options.c, log.c, clock.c, stats.c
 * and site.c, which call nothing but log.c (and options.c
 * unknown_variables.c).
 */
#ifndef CW_INTERNAL_H
#define CW_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "capture_window/abi.h"
#include "capture_window/loop_spec.h" /* CW_LABEL_MAX, the FILE and label rules */

#define CW_PREFIX "capture_window: "

/* Which side of a window fires: contract section 4, CAPTURE_WINDOW_TRIGGER. */
enum { CW_TRIGGER_CUDA = 1, CW_TRIGGER_NVTX = 2 };

/* A window spec of CAPTURE_WINDOW: START:COUNT, or periodic
   START:COUNT/EVERY[xTIMES] (windows at START, START+EVERY, ...). */
struct cw_window {
  long long start;
  long long count;
  long long every; /* 0: once */
  long long times; /* 0: no limit (with every > 0) */
};

/* CAPTURE_WINDOW_STEPS: which iterations get their own `L#i` range. */
enum { CW_STEPS_ALL, CW_STEPS_WINDOW, CW_STEPS_OFF };

/* A CAPTURE_WINDOW_LOOPS entry: a label, or FILE:LINE (line > 0), and
   @INSTANCE, one template instantiation's (site.c), or NULL. */
struct cw_loop_selector {
  char *name;
  unsigned int line;
  char *instance;
};

/* The run's policy, filled once from the environment (options.c). */
struct cw_config {
  bool off;                  /* CAPTURE_WINDOW=off, rank unselected, bad value */
  struct cw_window *windows; /* CAPTURE_WINDOW list, sorted; NULL = pragma's */
  size_t n_windows;
  long long auto_count;           /* CAPTURE_WINDOW=auto:COUNT; 0 = not automatic */
  long long spike_count;          /* CAPTURE_WINDOW=spike:COUNT[xTIMES]; 0 = not spike */
  long long spike_times;          /* windows spike opens (default 1) */
  bool none;                      /* CAPTURE_WINDOW=none: loops active, no window */
  char *times_path;               /* CAPTURE_WINDOW_TIMES, %p and %r expanded; NULL = unset */
  int signal_number;              /* CAPTURE_WINDOW_SIGNAL; 0 = none */
  char *watch_path;               /* CAPTURE_WINDOW_WATCH; NULL = unset */
  bool rank_set;                  /* a rank variable was read (not rank 0 by default) */
  long long align;                /* CAPTURE_WINDOW_ALIGN; 1 = none */
  long long count;                /* CAPTURE_WINDOW_COUNT; 0 = each pragma's COUNT */
  int steps;                      /* CW_STEPS_* */
  struct cw_loop_selector *loops; /* NULL = every marked loop */
  size_t n_loops;
  long long rank;
  int trigger; /* CW_TRIGGER_* bits */
  bool verbose;
  bool nvtx_tool;          /* an NVTX tool is attached: emit NVTX at all */
  bool self_check;         /* report at exit (verbose or a tool attached) */
  bool step_ranges_always; /* a tool is attached and CAPTURE_WINDOW_STEPS=all */
};

extern struct cw_config cw_config;

/* options.c; cw_option_name(k): the K-th variable name the family reads
   (the table's rows, then those read elsewhere), NULL past the last */
void cw_config_load(void);
bool cw_loop_selected(const struct cw_site_v2 *site);
const char *cw_option_name(size_t k);

/* unknown_variables.c: one line per variable that looks meant for the
   runtime but is none of cw_option_name's */
void cw_report_unknown_variables(void);

/* log.c */
void cw_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* schedule.c (the plans of loops are in loop.h) */
void cw_signal_install(void);
extern volatile int cw_signal_generation;

/* times.c (struct cw_times: one loop's buffer in one thread) */
struct cw_times;
void cw_times_start(void);
struct cw_times *cw_times_open_loop(const struct cw_site_v2 *site);
void cw_times_add(struct cw_times *times, long long index, long long ticks, long long now);
void cw_times_left(struct cw_times *times, long long index); /* the loop was left */
void cw_times_close(struct cw_times *times);
void cw_times_flush_all(void);

/* stats.c: the rule of docs/where-to-cut.md, shared with `capture-window plan` */
double cw_median(double *values, int n); /* sorts values */
double cw_mad(const double *values, int n, double median);
bool cw_is_slow(double ns, double median, double mad);
/* Whether HITS of PLACES slow steps on one grid, in a run of STEPS where a
   step is that slow by chance with P, are no chance: cw_period_chance_v1
   at most alpha, for a test made once; one made online again at each of
   LOOKS slow steps takes LOOKS times that chance (Bonferroni over time). */
bool cw_period_significant(long long hits, long long places, double p, long long steps,
                           long long looks);

/* shape.c: whether the steps have a steady state, by the rule of
   cli/capture_window_cli/steady.py (the same numbers, exported by
   cw_rule_value_v1). */
#define CW_STEADY_SPREAD 10.0  /* steady: a spread (MAD over median) within 10 % */
#define CW_DRIFT_CHANGE 0.2    /* a drift: the fitted line moves by a fifth of the median */
#define CW_DRIFT_EXPLAINED 0.5 /* ... and leaves at most half the spread around it */
#define CW_LEVEL_GAP 1.2       /* levels: sorted step times jump by 20 % between them */
#define CW_LEVEL_SHARE 0.1     /* ... each a tenth of the steps, its middle 80 % within GAP */
#define CW_LEVEL_COVER 0.8     /* ... together 80 % of them */
#define CW_SHAPE_MIN 12        /* steps needed to judge a drift or levels */
/* "508 us": the one unit rule of docs/environment.md, as cli common.duration */
enum { CW_DURATION_MAX = 24 };
void cw_format_duration(char *buf, size_t size, double ns);

/* site.c: a template instantiation's name, tmpl<int> (at most
   CW_INSTANCE_MAX - 1 characters); false for a site outside templates.
   cw_site_at gives "@NAME" or "", for messages: "FILE:LINE@NAME". */
#define CW_INSTANCE_MAX 256
bool cw_site_instance(const struct cw_site_v2 *site, char *out, size_t size);
const char *cw_site_at(const struct cw_site_v2 *site, char *buf, size_t size);
/* cw_site_at into a buffer that lives as long as the enclosing block. */
#define CW_SITE_AT(site) cw_site_at((site), (char[CW_INSTANCE_MAX + 1]){0}, CW_INSTANCE_MAX + 1)

/* clock.c. The step clock, for CAPTURE_WINDOW_TIMES and spike, which read
   it at every iteration: the CPU's time-stamp counter on x86-64 where
   Linux keeps its own time with it (clocksource "tsc": invariant and in
   step across CPUs), a third of clock_gettime's cost; elsewhere
   CLOCK_MONOTONIC's nanoseconds. cw_step_clock_start() decides once, at
   load; cw_ns_per_tick() converts (1 for nanoseconds), measured anew
   since load at each call (a clock read: times.c, once a buffer);
   cw_tick_ns is the rate measured at load, for thresholds read at every
   step (spike's). */
long long cw_now_ns(void);
extern bool cw_step_clock_tsc;
extern double cw_tick_ns;
void cw_step_clock_start(void);
double cw_ns_per_tick(void);
static inline long long cw_ticks(void) {
#if defined(__x86_64__)
  if (cw_step_clock_tsc) return (long long)__builtin_ia32_rdtsc();
#endif
  return cw_now_ns();
}
long long cw_run_delay_ns(void); /* -1: unknown */
long cw_thread_id(void);

/* nvtx.c */
void *cw_nvtx_register(const char *label);
void cw_nvtx_push_iteration(const char *label, long long index);
void cw_nvtx_push_window(void *registered_label);
void cw_nvtx_mark_aim(const char *label, long long every);
bool cw_nsight_compute_attached(void);
void cw_nvtx_pop(void);

/* teardown.c: installed at the runtime's first load (window.c). A lock
   of the runtime that a teardown may need is taken with cw_lock, which
   fails (false) only on a signal's teardown path, instead of waiting for
   a lock its thread already holds (docs/robustness.md). */
void cw_teardown_install(void);
bool cw_lock(pthread_mutex_t *lock);
void cw_unlock(pthread_mutex_t *lock);

/* window.c: this thread leaves every marked loop it is in (at exit, on a
   fatal signal); WHY ends the verbose "window closed" line. */
void cw_leave_thread_loops(const char *why);
/* window.c: at exit, one line when CAPTURE_WINDOW_LOOPS selected none of
   the loops that ran. */
void cw_report_unselected(void);

/* profiler.c */
void cw_profiler_acquire(void);
void cw_profiler_release(void);
void cw_profiler_stop_at_exit(void);

#endif /* CW_INTERNAL_H */
