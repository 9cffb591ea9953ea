/*
 * loop.h - the per-thread state of one marked loop (struct cw_loop, whose
 * head is the public struct cw_loop_v2 that instrumented code tests),
 * owned by window.c (the state machine), which lends it to schedule.c (when
 * windows open: the plan fields) and selfcheck.c (step times). Never
 * installed.
 */
#ifndef CW_LOOP_H
#define CW_LOOP_H

#include <stdbool.h>

#include "internal.h"
#include "watch.h"

enum {
  CW_INLINE_DEPTH = 4,
  CW_RECORDED_WINDOWS = 8,
  CW_AUTO_STEPS = 5,
  CW_SPIKE_STEPS = 15,
  CW_SPIKE_SLOW = 32,
  CW_WINDOW_STEPS = 16,
  CW_BEFORE_STEPS = 15,
  CW_SHAPE_SAMPLE = 256,
  CW_SHAPE_LEVELS = 8
};

/* A window's steps and, for comparison, the steps just before it (their
   median and MAD when the window opened): selfcheck.c. */
struct cw_window_record {
  long long first, last;
  double steps[CW_WINDOW_STEPS]; /* the first CW_WINDOW_STEPS of them */
  int n_steps;
  double before_median, before_mad;
  int n_before;
  long long aim; /* the period of the event it was aimed at; 0: steady state */
};

struct cw_loop {
  /* next (index of the next iteration) and attention_at: the emitted code
     calls the runtime only for iterations at or after attention_at. */
  struct cw_loop_v2 head;
  struct cw_site_v2 *site;
  /* The exit report's copy of the site's label, file, line and "@NAME" of
     its instantiation (or ""): by then a dlclose() may have unmapped the
     descriptor (selfcheck.c). */
  const char *label, *file, *at;
  unsigned int line;

  /* The plan: windows listed in CAPTURE_WINDOW or the pragma's own. */
  const struct cw_window *windows;
  size_t n_windows;
  struct cw_window own;
  long long plan_start, plan_count; /* next listed window; LLONG_MAX if none */
  long long signal_start;           /* window armed by a signal; LLONG_MAX if none */
  long long time_from;              /* first iteration to time for the self-check */
  /* The iterations from here on need a decision (begin_slowly): the next
     window, signal window or timed step; 0 while auto waits, a window is
     open or signals arm windows. head.attention_at, what the emitted code
     tests, is this, or 0 while every iteration gets an L#i range. */
  long long decide_at;
  int seen_signal; /* cw_signal_generation acted on */
  /* CAPTURE_WINDOW_WATCH (watch.h): the request generation acted on, the
     window it armed (LLONG_MAX if none) and its COUNT, whether the open
     window is its, and the request's id for the answers. */
  unsigned int seen_watch;
  long long watch_start, watch_count;
  bool watch_window;
  char watch_id[CW_WATCH_ID_MAX];
  bool auto_pending; /* auto:COUNT waits for steady steps */
  /* spike:COUNT[xTIMES] watches every step: the last CW_SPIKE_STEPS step
     times and the last CW_SPIKE_SLOW slow steps (rings), the predicted
     window. */
  bool spike_pending;
  double spike_recent[CW_SPIKE_STEPS];
  int spike_n;
  long long spike_slow[CW_SPIKE_SLOW]; /* a ring, oldest overwritten */
  double spike_slow_ns[CW_SPIKE_SLOW];
  int spike_n_slow;
  long long spike_start;  /* LLONG_MAX if none */
  long long spike_period; /* the period that armed spike_start */
  long long spike_from;   /* the first step spike judged */
  struct cw_shape *shape; /* the steps spike watched, sampled (shape.c) */

  /* Progress (the index of the next iteration is head.next). */
  bool window_open;
  bool step_ranges; /* this iteration gets an L#i range (CAPTURE_WINDOW_STEPS) */
  long long window_first, window_last;
  int window_depth; /* iterations in progress when it opened */

  /* Iterations in progress that went through cw_iter_begin_v2, as
     index << 1 | (its L#i range was pushed); more than one only when the
     body re-enters its own loop. */
  long long *running;
  int depth, capacity;
  long long inline_running[CW_INLINE_DEPTH];

  /* Step times, kept when the self-check or auto needs them: for the
     self-check, the windows' steps and the CW_BEFORE_STEPS steps just
     before each (a ring). */
  bool timed;
  long long last_begin_ns; /* 0: no iteration being timed */
  long long last_wait_ns;  /* cw_run_delay_ns() when it began (-1: unknown) */
  int last_record;         /* window record of that iteration, -1 outside */
  double before[CW_BEFORE_STEPS];
  int n_before;
  struct cw_window_record records[CW_RECORDED_WINDOWS];
  long long windows_opened;
  double recent[CW_AUTO_STEPS]; /* last step times, for auto */
  int n_recent;

  /* Every step's time, for CAPTURE_WINDOW_TIMES (times.c) and spike: the
     iteration begun last and when, on the step clock (0: none being
     timed). */
  struct cw_times *times;
  long long step_index, step_begin;

  struct cw_loop *all_next; /* every loop state, for the exit report */
};

/* schedule.c: each function that changes a loop's plan returns the first
   iteration that needs a decision under it, for window.c to set as
   decide_at (0: every iteration). */
long long cw_plan_init(struct cw_loop *loop);
long long cw_plan_after(struct cw_loop *loop, long long from);
long long cw_plan_signal(struct cw_loop *loop, long long i);
long long cw_plan_watch(struct cw_loop *loop, long long i);
bool cw_auto_settled(struct cw_loop *loop, long long i);
long long cw_spike_step(struct cw_loop *loop, long long index, double ns);
long long cw_plan_aim(const struct cw_loop *loop, long long i);

/* shape.c: whether the steps spike watched have a steady state. */
struct cw_shape_verdict {
  int n_levels; /* 0, or the levels (at most CW_SHAPE_LEVELS) */
  double level_ns[CW_SHAPE_LEVELS];
  int level_steps[CW_SHAPE_LEVELS];
  bool drift; /* else a drift of slope_ns a step, from_ns to to_ns over first-last */
  double slope_ns, from_ns, to_ns;
  long long first, last;
};
void cw_shape_add(struct cw_loop *loop, long long index, double ns);
bool cw_shape_judge(const struct cw_loop *loop, struct cw_shape_verdict *verdict);
void cw_shape_describe(const struct cw_shape_verdict *verdict, char *buf, size_t size);

/* selfcheck.c */
void cw_time_step(struct cw_loop *loop, bool keep_timing, long long now);
void cw_time_restart(struct cw_loop *loop);
void cw_selfcheck_track(struct cw_loop *loop);
void cw_selfcheck_window(struct cw_loop *loop, struct cw_window_record *record);
void cw_selfcheck_report(void);

#endif /* CW_LOOP_H */
