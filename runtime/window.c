/*
 * window.c - the ABI entry points and the window state machine.
 *
 * Each marked loop has one static descriptor (struct cw_site_v2) and, per
 * thread that runs it, one struct cw_loop (loop.h) holding that thread's
 * cumulative iteration count and its open window. For iteration i of a loop
 * labelled L whose window opens at START for COUNT iterations (contract
 * section 3; schedule.c decides START):
 *
 *   i == START, before the body     profiler start, push of registered L
 *   every iteration                 push of "L#i" ... pop
 *   i == START+COUNT-1, after body  pop of L, profiler stop
 *   loop left with the window open  pop of L, profiler stop
 *
 * The descriptor's runtime[] words: [0] activation state, [1] index into the
 * per-thread table, [2] L's registered NVTX string.
 *
 * Iterations that need nothing (no window open or starting, no L#i range,
 * not timed; with CAPTURE_WINDOW_TIMES or spike every step is timed) never
 * get here: the emitted code tests head.next against
 * head.attention_at and counts them itself (abi.h). The per-iteration
 * calls therefore serve windows, tools and timing, whose own work dwarfs
 * the call's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "loop.h"

#define CW_COLD __attribute__((noinline, cold))
#define CW_NOINLINE __attribute__((noinline))

enum { SITE_UNKNOWN = 0, SITE_INACTIVE = 1, SITE_ACTIVE = 2 };

/* Per-thread table of loop states, indexed by runtime[1]. */
struct cw_thread {
  size_t capacity;
  struct cw_loop *loops[];
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_key;
static size_t n_sites;
static __thread struct cw_thread *this_thread __attribute__((tls_model("initial-exec")));

/* Set while this thread runs a hook that changes its loops' state or
   calls the NVTX tool: a signal's teardown must then leave them alone. */
static __thread int in_hook __attribute__((tls_model("initial-exec")));

/* Iterations from `at` on need a decision (begin_slowly); every iteration
   calls the runtime while it gets an L#i range. */
static void set_decide_at(struct cw_loop *loop, long long at) {
  long long attention = loop->step_ranges || loop->times ? 0 : at;
  if (!cw_config.watch_path) {
    loop->decide_at = at;
    loop->head.attention_at = attention;
    return;
  }
  /* The watcher may lower both at any time: watch.h says why this order. */
  __atomic_store_n(&loop->decide_at, at, __ATOMIC_SEQ_CST);
  __atomic_store_n(&loop->head.attention_at, attention, __ATOMIC_SEQ_CST);
  if (cw_watch_pending(loop->seen_watch)) {
    __atomic_store_n(&loop->decide_at, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&loop->head.attention_at, 0, __ATOMIC_SEQ_CST);
  }
}

/* decide_at as this thread reads it (the watcher may store it). */
static inline long long decide_at(const struct cw_loop *loop) {
  return __atomic_load_n(&loop->decide_at, __ATOMIC_RELAXED);
}

static bool window_range_wanted(void) {
  return (cw_config.trigger & CW_TRIGGER_NVTX) && cw_config.nvtx_tool;
}

/* AIM: the period of the event the window is aimed at, 0 for steady state. */
static void open_window(struct cw_loop *loop, long long i, long long count, long long aim,
                        const char *why) {
  const struct cw_site_v2 *site = loop->site;
  loop->window_open = true;
  loop->step_ranges = cw_config.nvtx_tool && cw_config.steps != CW_STEPS_OFF;
  set_decide_at(loop, 0);
  loop->window_first = i;
  loop->window_last = i + count - 1;
  loop->window_depth = loop->depth; /* before this iteration's own entry */
  if (loop->windows_opened < CW_RECORDED_WINDOWS) {
    struct cw_window_record *record = &loop->records[loop->windows_opened];
    record->first = i;
    record->last = i + count - 1;
    record->aim = aim;
    cw_selfcheck_window(loop, record);
  }
  loop->windows_opened++;
  if (loop->watch_window) cw_answer_opened(loop, i);
  if (cw_config.trigger & CW_TRIGGER_CUDA) cw_profiler_acquire();
  if (window_range_wanted()) {
    cw_nvtx_push_window(site->runtime[2]);
    if (aim) cw_nvtx_mark_aim(site->label, aim);
  }
  if (cw_config.verbose)
    cw_log("window opened%s: loop '%s' (%s:%u%s) iteration %lld, window %lld:%lld, thread %ld", why,
           site->label, site->file, site->line, CW_SITE_AT(site), i, i, count, cw_thread_id());
  /* Neither the profiler's start-up nor the log line is part of the step. */
  if (loop->last_begin_ns) cw_time_restart(loop);
  if (loop->step_begin) loop->step_begin = cw_ticks();
}

static void close_window(struct cw_loop *loop, long long last, const char *why) {
  const struct cw_site_v2 *site = loop->site;
  if (window_range_wanted()) cw_nvtx_pop();
  if (cw_config.trigger & CW_TRIGGER_CUDA) cw_profiler_release();
  if (loop->watch_window) cw_answer_held(loop, loop->window_first, last);
  loop->watch_window = false;
  loop->window_open = false;
  loop->step_ranges = cw_config.step_ranges_always;
  /* The next iteration plans anew (and closes this one's step time). */
  set_decide_at(loop, loop->head.next);
  if (loop->windows_opened <= CW_RECORDED_WINDOWS)
    loop->records[loop->windows_opened - 1].last = last;
  if (cw_config.verbose)
    cw_log("window closed%s: loop '%s' (%s:%u%s) held iterations %lld-%lld, thread %ld", why,
           site->label, site->file, site->line, CW_SITE_AT(site), loop->window_first, last,
           cw_thread_id());
}

/* What a thread ended without finishing: pthread_exit() from a body
   compiled as C unwinds without running the body's cleanups, so its
   iterations and window are still in progress. They end here as those
   cleanups would have ended them, innermost first: iteration ranges begun
   after the window opened, the window, the ones begun before it. */
static void end_in_progress(struct cw_loop *loop, const char *why) {
  while (loop->depth > 0) {
    if (loop->window_open && loop->depth == loop->window_depth)
      close_window(loop, loop->head.next - 1, why);
    if (loop->running[--loop->depth] & 1) cw_nvtx_pop();
  }
  if (loop->window_open) close_window(loop, loop->head.next - 1, why);
}

/* A thread that ends inside a window must still close it. Loops are taken
   newest first: a loop nested in another's body usually got its table slot
   later, so its ranges are the inner ones. */
static void thread_exit(void *data) {
  struct cw_thread *thread = data;
  for (size_t k = thread->capacity; k-- > 0;) {
    struct cw_loop *loop = thread->loops[k];
    if (!loop) continue;
    if (cw_config.watch_path) cw_watch_forget(loop);
    end_in_progress(loop, " at thread exit");
    cw_times_close(loop->times);
    loop->times = NULL;
    if (loop->running != loop->inline_running) free(loop->running);
    loop->running = loop->inline_running;
    loop->depth = 0;
    if (!loop->timed) { /* else the exit report still reads it */
      free(loop->shape);
      free(loop);
    }
  }
  free(thread);
  this_thread = NULL;
}

static void load_once(void) {
  cw_config_load();
  pthread_key_create(&thread_key, thread_exit);
  if (cw_config.signal_number && !cw_config.off) cw_signal_install();
  if (cw_config.watch_path && !cw_config.off) cw_watch_start();
  if (cw_config.times_path || cw_config.spike_count) cw_step_clock_start();
  if (cw_config.times_path) cw_times_start();
  cw_teardown_install();
}

/* Decides once per descriptor whether its loop is active. */
/* The loops CAPTURE_WINDOW_LOOPS left out, the first few, for the line at
   exit when it selected none (cw_report_unselected). */
enum { UNSELECTED_SHOWN = 4 };
static const struct cw_site_v2 *unselected[UNSELECTED_SHOWN];
static size_t n_unselected;

static void note_unselected(const struct cw_site_v2 *site) {
  if (n_unselected < UNSELECTED_SHOWN) unselected[n_unselected] = site;
  n_unselected++;
}

/* A CAPTURE_WINDOW_LOOPS that matched none of the loops that ran (a typo:
   `stepp`) would turn every window off in silence: said once at exit,
   naming the loops that did run (verbose named each as it came). */
void cw_report_unselected(void) {
  if (n_sites || !n_unselected || cw_config.verbose) return;
  char names[1024];
  size_t len = 0;
  for (size_t k = 0; k < n_unselected && k < UNSELECTED_SHOWN && len < sizeof names; k++)
    len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s' (%s:%u)", k ? ", " : "",
                            unselected[k]->label, unselected[k]->file, unselected[k]->line);
  cw_log("CAPTURE_WINDOW_LOOPS='%s' selected none of the loops that ran: %s%s; no window opened",
         getenv("CAPTURE_WINDOW_LOOPS"), names, n_unselected > UNSELECTED_SHOWN ? ", ..." : "");
}

static CW_COLD uintptr_t activate_site(struct cw_site_v2 *site) {
  pthread_once(&init_once, load_once);
  pthread_mutex_lock(&sites_lock);
  uintptr_t state = (uintptr_t)__atomic_load_n(&site->runtime[0], __ATOMIC_ACQUIRE);
  if (state == SITE_UNKNOWN) {
    bool active = !cw_config.off && site->abi_version == CW_ABI_VERSION && site->start >= 0 &&
                  site->count >= 1 && cw_loop_selected(site);
    state = active ? SITE_ACTIVE : SITE_INACTIVE;
    if (!active && !cw_config.off && site->abi_version == CW_ABI_VERSION) note_unselected(site);
    if (active) {
      site->runtime[1] = (void *)(uintptr_t)n_sites++;
      if (cw_config.nvtx_tool) site->runtime[2] = cw_nvtx_register(site->label);
    }
    if (cw_config.verbose && !cw_config.off)
      cw_log("loop '%s' (%s:%u%s, %s) is %s", site->label, site->file, site->line, CW_SITE_AT(site),
             site->function, active ? "active" : "not selected by CAPTURE_WINDOW_LOOPS");
    __atomic_store_n(&site->runtime[0], (void *)state, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&sites_lock);
  return state;
}

static struct cw_loop *new_loop(struct cw_site_v2 *site) {
  struct cw_loop *loop = calloc(1, sizeof *loop);
  if (!loop) return NULL;
  loop->site = site;
  loop->running = loop->inline_running;
  loop->capacity = CW_INLINE_DEPTH;
  loop->last_record = -1;
  loop->step_ranges = cw_config.step_ranges_always;
  if (cw_config.times_path) loop->times = cw_times_open_loop(site);
  if (cw_config.watch_path) cw_watch_register(loop); /* before it plans: watch.c */
  set_decide_at(loop, cw_plan_init(loop));
  loop->timed = cw_config.self_check || loop->auto_pending;
  if (cw_config.self_check) cw_selfcheck_track(loop);
  return loop;
}

/* This thread's state for the loop, created on first use; NULL if out of
   memory, in which case the loop simply runs unmarked. */
static CW_COLD struct cw_loop *new_thread_loop(struct cw_site_v2 *site, size_t id) {
  struct cw_thread *thread = this_thread;
  if (!thread || id >= thread->capacity) {
    size_t capacity = (id + 1) * 2;
    size_t old = thread ? thread->capacity : 0;
    thread = realloc(thread, sizeof *thread + capacity * sizeof thread->loops[0]);
    if (!thread) return NULL;
    for (size_t k = old; k < capacity; k++) thread->loops[k] = NULL;
    thread->capacity = capacity;
    this_thread = thread;
    pthread_setspecific(thread_key, thread);
  }
  if (!thread->loops[id]) thread->loops[id] = new_loop(site);
  return thread->loops[id];
}

/* The hooks run between the program's own statements, which must see
   errno as they left it: the slow paths (reading the environment, loading
   NVTX and CUDA, allocating) restore it. */
static CW_COLD struct cw_loop *enter_slowly(struct cw_site_v2 *site, uintptr_t state) {
  int saved_errno = errno;
  struct cw_loop *loop = NULL;
  in_hook++;
  if (state == SITE_UNKNOWN) state = activate_site(site);
  if (state == SITE_ACTIVE) loop = new_thread_loop(site, (size_t)(uintptr_t)site->runtime[1]);
  in_hook--;
  errno = saved_errno;
  return loop;
}

struct cw_loop_v2 *cw_loop_enter_v2(struct cw_site_v2 *site) {
  uintptr_t state = (uintptr_t)__atomic_load_n(&site->runtime[0], __ATOMIC_ACQUIRE);
  if (state == SITE_INACTIVE) return NULL;
  struct cw_loop *loop = NULL;
  if (__builtin_expect(state == SITE_ACTIVE, 1)) {
    /* runtime[1], the site's id, is written before the state says active. */
    size_t id = (size_t)(uintptr_t)site->runtime[1];
    struct cw_thread *thread = this_thread;
    if (__builtin_expect(thread && id < thread->capacity, 1)) loop = thread->loops[id];
  }
  if (__builtin_expect(!loop, 0)) loop = enter_slowly(site, state);
  return loop ? &loop->head : NULL;
}

static CW_COLD bool grow_running(struct cw_loop *loop) {
  int capacity = loop->capacity * 2;
  long long *grown = malloc((size_t)capacity * sizeof *grown);
  if (!grown) return false;
  for (int k = 0; k < loop->depth; k++) grown[k] = loop->running[k];
  if (loop->running != loop->inline_running) free(loop->running);
  loop->running = grown;
  loop->capacity = capacity;
  return true;
}

/* The step begun last ends NOW (step clock ticks): its time goes to
   CAPTURE_WINDOW_TIMES and to spike, which may arm a window. */
static void end_step(struct cw_loop *loop, long long now) {
  if (!loop->step_begin) return;
  long long ticks = now - loop->step_begin;
  loop->step_begin = 0;
  if (loop->times) cw_times_add(loop->times, loop->step_index, ticks, now);
  if (loop->spike_pending) {
    long long at = cw_spike_step(loop, loop->step_index, (double)ticks * cw_tick_ns);
    if (!loop->window_open) set_decide_at(loop, at);
  }
}

/* Iteration i begins at NOW: the step before it ends. */
static void step_boundary(struct cw_loop *loop, long long i, long long now) {
  end_step(loop, now);
  loop->step_index = i;
  loop->step_begin = now;
}

/* Every step is timed while CAPTURE_WINDOW_TIMES records or spike watches. */
static bool times_every_step(const struct cw_loop *loop) {
  return loop->times || loop->spike_pending;
}

/* Iteration i needs more than counting: it may open a window (a listed
   one, a signal's, auto's once the steps settled, spike's), be timed, or
   run inside an open window. */
static CW_COLD void begin_slowly(struct cw_loop *loop, long long i) {
  if (times_every_step(loop)) step_boundary(loop, i, cw_ticks());
  if (loop->timed)
    cw_time_step(loop,
                 i >= loop->time_from || loop->window_open || loop->auto_pending ||
                     loop->spike_pending,
                 cw_now_ns());
  if (loop->seen_signal != cw_signal_generation) set_decide_at(loop, cw_plan_signal(loop, i));
  if (cw_config.watch_path && cw_watch_pending(loop->seen_watch))
    set_decide_at(loop, cw_plan_watch(loop, i));
  if (!loop->window_open) {
    if (loop->auto_pending) {
      if (cw_auto_settled(loop, i)) {
        loop->auto_pending = false;
        open_window(loop, i, cw_config.auto_count, 0, " (auto)");
      }
    } else if (i == loop->plan_start || i == loop->signal_start || i == loop->watch_start) {
      long long count = i == loop->plan_start ? loop->plan_count : 0;
      if (i == loop->signal_start && loop->own.count > count) count = loop->own.count;
      loop->watch_window = i == loop->watch_start;
      if (loop->watch_window) {
        loop->watch_start = LLONG_MAX; /* taken: cw_plan_after would call it missed */
        if (loop->watch_count > count) count = loop->watch_count;
      }
      bool on_demand = i == loop->signal_start || loop->watch_window;
      open_window(loop, i, count, on_demand ? 0 : cw_plan_aim(loop, i),
                  loop->watch_window        ? " (watch)"
                  : i == loop->signal_start ? " (signal)"
                  : i == loop->spike_start  ? " (spike)"
                                            : "");
    }
    /* Windows starting inside this one are skipped. */
    if (!loop->auto_pending)
      set_decide_at(loop, cw_plan_after(loop, loop->window_open ? loop->window_last + 1 : i + 1));
  }
  if (loop->timed)
    loop->last_record = loop->window_open && loop->windows_opened <= CW_RECORDED_WINDOWS
                            ? (int)loop->windows_opened - 1
                            : -1;
}

/* Iteration i of a run that records step times, when it needs nothing
   else: the step before it ends. It and begin_tracked are tail calls
   of cw_iter_begin_v2, which then saves no registers. It is
   step_boundary less what this path never needs (spike, a loop without
   a buffer), kept apart because calling step_boundary costs more than
   the budget allows (docs/performance.md, "How the run-time targets were
   reached"). */
static CW_NOINLINE int time_only(struct cw_loop *loop, long long i) {
  long long now = cw_ticks(), begin = loop->step_begin, index = loop->step_index;
  loop->step_index = i;
  loop->step_begin = now;
  if (begin) cw_times_add(loop->times, index, now - begin, now);
  return 0;
}

/* Pushes iteration i on the stack of iterations in progress, with its L#i
   range if it gets one. */
static inline void push_iteration(struct cw_loop *loop, long long i) {
  bool ranged = loop->step_ranges;
  loop->running[loop->depth++] = i << 1 | ranged;
  if (ranged) cw_nvtx_push_iteration(loop->site->label, i);
}

/* Iteration i, tracked until its end hook. */
static CW_NOINLINE int begin_tracked(struct cw_loop *loop, long long i) {
  int saved_errno = errno;
  int tracked = 0;
  in_hook++;
  if (i >= decide_at(loop))
    begin_slowly(loop, i);
  else if (loop->times) /* an iteration with an L#i range is timed as one without */
    time_only(loop, i);
  if (loop->depth < loop->capacity || grow_running(loop)) {
    push_iteration(loop, i);
    tracked = 1;
  }
  in_hook--;
  errno = saved_errno;
  return tracked;
}

/* Called for the iterations the inline test sends here (their index, now
   head.next - 1, at or after head.attention_at), which are all of them
   while a window is open or a tool gets L#i ranges. Returns whether
   cw_iter_end_v2 must follow: not when there was no memory to track the
   iteration (the body re-entered its own loop that deep), which then runs
   silently. */
int cw_iter_begin_v2(struct cw_loop_v2 *head) {
  struct cw_loop *loop = (struct cw_loop *)head;
  long long i = head->next - 1;
  /* Most iterations of a run that records step times come here only for
     their time: they read the step clock and go on as an iteration the
     inline test kept would (no end hook). */
  if (i < decide_at(loop) && !loop->step_ranges) /* so: loop->times, no spike */
    return time_only(loop, i);
  return begin_tracked(loop, i);
}

static void end_iteration(struct cw_loop_v2 *head) {
  struct cw_loop *loop = (struct cw_loop *)head;
  if (loop->depth == 0) return; /* an end without its begin: ignored */
  long long entry = loop->running[--loop->depth];
  if (entry & 1) cw_nvtx_pop();
  /* The window range may only be popped at the nesting level that pushed
     it: there, at the first end after its last iteration began (later, in
     a body that re-entered the loop, than that iteration's own end). */
  long long last = head->next - 1;
  if (loop->window_open && last >= loop->window_last && loop->depth == loop->window_depth) {
    /* The last step ends here, before the profiler stops. */
    if (loop->last_begin_ns) cw_time_step(loop, false, cw_now_ns());
    close_window(loop, last, "");
  }
}

void cw_iter_end_v2(struct cw_loop_v2 *head) {
  int saved_errno = errno;
  in_hook++;
  end_iteration(head);
  in_hook--;
  errno = saved_errno;
}

void cw_loop_exit_v2(struct cw_loop_v2 *head, int iteration_open) {
  if (!head) return; /* an inactive loop */
  int saved_errno = errno;
  struct cw_loop *loop = (struct cw_loop *)head;
  in_hook++;
  if (iteration_open) end_iteration(head);
  if ((loop->last_begin_ns || loop->step_begin) && loop->depth == 0) {
    /* The last step ends at the loop's exit. */
    if (loop->step_begin) end_step(loop, cw_ticks());
    if (loop->last_begin_ns) cw_time_step(loop, false, cw_now_ns());
  }
  /* Where an entry ends, for plan's windows (times.c). */
  if (loop->times && loop->depth == 0) cw_times_left(loop->times, head->next - 1);
  if (loop->window_open && loop->depth == loop->window_depth)
    close_window(loop, head->next - 1, " early, loop left");
  in_hook--;
  errno = saved_errno;
}

/* The process ends (exit(), a fatal signal: teardown.c) while this thread
   may be inside marked loops: each ends as leaving it would end it, the
   step begun last ends now (its time is written), iteration ranges and
   windows close, innermost first, a window's held steps being those
   begun. Not when the signal interrupted a hook of this thread. */
void cw_leave_thread_loops(const char *why) {
  struct cw_thread *thread = this_thread;
  if (in_hook || !thread) return;
  for (size_t k = thread->capacity; k-- > 0;) {
    struct cw_loop *loop = thread->loops[k];
    if (!loop) continue;
    if (loop->step_begin) end_step(loop, cw_ticks());
    if (loop->last_begin_ns) cw_time_step(loop, false, cw_now_ns());
    end_in_progress(loop, why);
  }
}
