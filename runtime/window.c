/*
 * window.c - the ABI entry points and the window state machine.
 *
 * Each marked loop has one static descriptor (struct cw_site_v1) and, per
 * thread that runs it, one struct cw_loop_v1 holding that thread's
 * cumulative iteration count and its open window. For iteration i of a loop
 * labelled L with a window START:COUNT (contract section 3):
 *
 *   i == START, before the body     profiler start, push of registered L
 *   every iteration                 push of "L#i" ... pop
 *   i == START+COUNT-1, after body  pop of L, profiler stop
 *   loop left with the window open  pop of L, profiler stop
 *
 * The descriptor's runtime[] words: [0] activation state, [1] index into the
 * per-thread table, [2] L's registered NVTX string.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

enum { SITE_UNKNOWN = 0, SITE_INACTIVE = 1, SITE_ACTIVE = 2 };
enum { INLINE_DEPTH = 4 };

struct cw_loop_v1 {
  struct cw_site_v1 *site;
  const struct cw_window *windows; /* sorted, non-overlapping */
  size_t n_windows;
  size_t next_window; /* first window not yet opened */
  struct cw_window own; /* the pragma's window, unless CAPTURE_WINDOW is set */
  long long next;     /* index of the next iteration */
  bool window_open;
  long long window_first; /* first and last iteration of the open window */
  long long window_last;
  int window_depth;      /* iterations in progress when it opened */
  /* Indices of the iterations in progress: more than one only when the
     body re-enters its own loop (recursion). */
  long long *running;
  int depth, capacity;
  long long inline_running[INLINE_DEPTH];
  int lost; /* iterations begun without memory to track them */
};

/* Per-thread table of loop states, indexed by runtime[1]. */
struct cw_thread {
  size_t capacity;
  struct cw_loop_v1 *loops[];
};

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_key;
static size_t n_sites;
static __thread struct cw_thread *this_thread __attribute__((tls_model("initial-exec")));

static long thread_id(void) {
  return (long)syscall(SYS_gettid);
}

static void close_window(struct cw_loop_v1 *loop, long long last, const char *why) {
  const struct cw_site_v1 *site = loop->site;
  if ((cw_config.trigger & CW_TRIGGER_NVTX) && cw_config.nvtx_tool) cw_nvtx_pop();
  if (cw_config.trigger & CW_TRIGGER_CUDA) cw_profiler_release();
  loop->window_open = false;
  if (cw_config.verbose)
    cw_log("window closed%s: loop '%s' (%s:%u) held iterations %lld-%lld, thread %ld", why,
           site->label, site->file, site->line, loop->window_first, last, thread_id());
}

static void open_window(struct cw_loop_v1 *loop, long long i) {
  const struct cw_window *w = &loop->windows[loop->next_window++];
  const struct cw_site_v1 *site = loop->site;
  loop->window_open = true;
  loop->window_first = i;
  loop->window_last = w->start + w->count - 1;
  loop->window_depth = loop->depth - 1;
  if (cw_config.trigger & CW_TRIGGER_CUDA) cw_profiler_acquire();
  if ((cw_config.trigger & CW_TRIGGER_NVTX) && cw_config.nvtx_tool)
    cw_nvtx_push_window(site->runtime[2]);
  if (cw_config.verbose)
    cw_log("window opened: loop '%s' (%s:%u) iteration %lld, window %lld:%lld, thread %ld",
           site->label, site->file, site->line, i, w->start, w->count, thread_id());
}

/* A thread that ends inside a window must still close it. */
static void thread_exit(void *data) {
  struct cw_thread *thread = data;
  for (size_t k = 0; k < thread->capacity; k++) {
    struct cw_loop_v1 *loop = thread->loops[k];
    if (!loop) continue;
    if (loop->window_open) close_window(loop, loop->next - 1, " at thread exit");
    if (loop->running != loop->inline_running) free(loop->running);
    free(loop);
  }
  free(thread);
  this_thread = NULL;
}

static void load_once(void) {
  cw_config_load();
  pthread_key_create(&thread_key, thread_exit);
  atexit(cw_profiler_stop_at_exit);
}

/* Decides once per descriptor whether its loop is active. */
static uintptr_t activate_site(struct cw_site_v1 *site) {
  pthread_once(&init_once, load_once);
  pthread_mutex_lock(&sites_lock);
  uintptr_t state = (uintptr_t)__atomic_load_n(&site->runtime[0], __ATOMIC_ACQUIRE);
  if (state == SITE_UNKNOWN) {
    bool active = !cw_config.off && site->abi_version == CW_ABI_VERSION &&
                  site->start >= 0 && site->count >= 1 && cw_loop_selected(site);
    state = active ? SITE_ACTIVE : SITE_INACTIVE;
    if (active) {
      site->runtime[1] = (void *)(uintptr_t)n_sites++;
      if (cw_config.nvtx_tool) site->runtime[2] = cw_nvtx_register(site->label);
    }
    if (cw_config.verbose && !cw_config.off)
      cw_log("loop '%s' (%s:%u, %s) is %s", site->label, site->file, site->line,
             site->function, active ? "active" : "not selected by CAPTURE_WINDOW_LOOPS");
    __atomic_store_n(&site->runtime[0], (void *)state, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&sites_lock);
  return state;
}

static struct cw_loop_v1 *new_loop(struct cw_site_v1 *site) {
  struct cw_loop_v1 *loop = calloc(1, sizeof *loop);
  if (!loop) return NULL;
  loop->site = site;
  loop->running = loop->inline_running;
  loop->capacity = INLINE_DEPTH;
  if (cw_config.windows) {
    loop->windows = cw_config.windows;
    loop->n_windows = cw_config.n_windows;
  } else {
    loop->own = (struct cw_window){site->start, site->count};
    loop->windows = &loop->own;
    loop->n_windows = 1;
  }
  return loop;
}

/* This thread's state for the loop, created on first use; NULL if out of
   memory, in which case the loop simply runs unmarked. */
static struct cw_loop_v1 *thread_loop(struct cw_site_v1 *site) {
  size_t id = (size_t)(uintptr_t)site->runtime[1];
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

struct cw_loop_v1 *cw_loop_enter_v1(struct cw_site_v1 *site) {
  uintptr_t state = (uintptr_t)__atomic_load_n(&site->runtime[0], __ATOMIC_ACQUIRE);
  if (state == SITE_UNKNOWN) state = activate_site(site);
  return state == SITE_ACTIVE ? thread_loop(site) : NULL;
}

static bool push_running(struct cw_loop_v1 *loop, long long i) {
  if (loop->depth == loop->capacity) {
    int capacity = loop->capacity * 2;
    long long *grown = malloc((size_t)capacity * sizeof *grown);
    if (!grown) return false;
    for (int k = 0; k < loop->depth; k++) grown[k] = loop->running[k];
    if (loop->running != loop->inline_running) free(loop->running);
    loop->running = grown;
    loop->capacity = capacity;
  }
  loop->running[loop->depth++] = i;
  return true;
}

void cw_iter_begin_v1(struct cw_loop_v1 *loop) {
  long long i = loop->next++;
  if (!push_running(loop, i)) { /* out of memory: a silent iteration */
    loop->lost++;
    return;
  }
  while (loop->next_window < loop->n_windows &&
         loop->windows[loop->next_window].start + loop->windows[loop->next_window].count <= i)
    loop->next_window++;
  if (!loop->window_open && loop->next_window < loop->n_windows &&
      loop->windows[loop->next_window].start <= i)
    open_window(loop, i);
  if (cw_config.nvtx_tool) cw_nvtx_push_iteration(loop->site->label, i);
}

void cw_iter_end_v1(struct cw_loop_v1 *loop) {
  if (loop->lost) { /* its begin ran out of memory */
    loop->lost--;
    return;
  }
  long long i = loop->running[--loop->depth];
  if (cw_config.nvtx_tool) cw_nvtx_pop();
  /* The window range may only be popped at the nesting level that pushed it. */
  if (loop->window_open && i >= loop->window_last && loop->depth == loop->window_depth)
    close_window(loop, i, "");
}

void cw_loop_exit_v1(struct cw_loop_v1 *loop) {
  if (loop->window_open && loop->depth == loop->window_depth)
    close_window(loop, loop->next - 1, " early, loop left");
}
