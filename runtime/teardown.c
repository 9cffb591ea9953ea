/*
 * teardown.c - the exit paths: what the runtime does when the process ends
 * with a window open or step times buffered (docs/robustness.md, "What
 * survives which end"; contract section 8).
 *
 *   exit(), return from main   at_exit: the exiting thread's windows close
 *                              as leaving their loops closes them (its
 *                              steps end there), then the exit self-check,
 *                              the buffered step times, and a profiler
 *                              stop for windows open in other threads.
 *   SIGTERM, SIGINT            the same when the signal would kill the
 *                              process (its disposition was SIG_DFL); then
 *                              the default action, so the process still
 *                              dies by the signal, as launchers expect. If
 *                              the program handles the signal (Python's
 *                              SIGINT, torch's, its own handler), only the
 *                              step times are written, and that handler
 *                              runs: the program may go on, capture
 *                              intact, and if it then exits or unwinds
 *                              (KeyboardInterrupt) the paths above close.
 *   SIGABRT, SIGSEGV, SIGBUS,  a crash (an uncaught C++ exception ends in
 *   SIGFPE, SIGILL             abort()): the step times are written, then
 *                              the handler that was there or the default
 *                              action. Nothing else: the program's state
 *                              may be broken.
 *   SIGKILL, _exit()           nothing: at most the last second of step
 *                              times (times.c writes a buffer once its
 *                              oldest step is a second old) is lost.
 *
 * A signal ignored when the runtime loads (SIG_IGN: nohup, a background
 * job's SIGINT) stays ignored. Handlers are installed at the runtime's
 * first load, unless capture is off; a handler the program installs later
 * replaces ours, and the program's exit paths then do the work.
 *
 * In a signal handler only this thread's own windows can be closed (NVTX
 * ranges belong to the thread that pushed them): a window open in another
 * thread keeps its range, but the profiler stops for it. The handler
 * cannot know what the code it interrupted was doing, so it is careful:
 * if it interrupted the runtime's own hook on this thread (or an NVTX
 * tool called from it), it leaves that thread's windows as they are; every
 * runtime lock it needs is taken through cw_lock, which on a teardown path
 * gives up instead of waiting on a lock its own thread holds or another
 * holds for long. errno is kept.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture_window/exit.h"
#include "loop.h"

/* ---- locks a teardown may need ------------------------------------------ */

enum { MAX_HELD = 4, TRY_LOCK_ROUNDS = 1000 };
#define CW_TLS __thread __attribute__((tls_model("initial-exec")))

static CW_TLS int teardown_depth; /* > 0: this thread runs a teardown */
static CW_TLS pthread_mutex_t *held[MAX_HELD];
static CW_TLS int n_held;

bool cw_lock(pthread_mutex_t *lock) {
  if (!teardown_depth) {
    pthread_mutex_lock(lock);
  } else {
    /* The interrupted code of this thread holds it: waiting would never end. */
    for (int k = 0; k < n_held; k++)
      if (held[k] == lock) return false;
    int round = 0;
    while (pthread_mutex_trylock(lock) != 0) {
      /* Another thread holds it (or this one did, when the signal came, but
         had not yet noted it): at most 100 ms. */
      if (++round == TRY_LOCK_ROUNDS) return false;
      nanosleep(&(struct timespec){0, 100000}, NULL);
    }
  }
  if (n_held < MAX_HELD) held[n_held] = lock;
  n_held++;
  return true;
}

void cw_unlock(pthread_mutex_t *lock) {
  n_held--;
  pthread_mutex_unlock(lock);
}

/* ---- exit --------------------------------------------------------------- */

/* What process exit and a fatal signal share. WHY names the end in verbose
   lines: " at exit", " on SIGTERM". */
static void end_of_process(const char *why) {
  cw_leave_thread_loops(why);
  if (cw_config.self_check) cw_selfcheck_report();
  if (cw_config.times_path) cw_times_flush_all();
  cw_profiler_stop_at_exit();
}

static bool exited;
/* A forked child (multiprocessing's workers, a DataLoader's) holds copies
   of its parent's windows, which are not its own to close or report: on
   SIGTERM or SIGINT it only writes its step times, as on a crash. */
static bool forked_child;

static void note_child(void) { forked_child = true; }

/* Once: the Python door may call it before the process's own exit
   (cw_exit_v1), which must not report twice. */
static void at_exit(void) {
  if (__atomic_exchange_n(&exited, true, __ATOMIC_ACQ_REL)) return;
  end_of_process(" at exit");
  cw_report_unselected();
}

CW_EXIT_EXPORT void cw_exit_v1(void) {
  int saved_errno = errno;
  at_exit();
  errno = saved_errno;
}

/* ---- signals ------------------------------------------------------------ */

/* Signals that end the process by default and that the runtime answers.
   A request to stop (WHY, as verbose lines say it: "window closed on
   SIGTERM") closes windows; a crash (WHY NULL) only writes step times. */
static const struct {
  int number;
  const char *why;
} handled[] = {
    {SIGTERM, " on SIGTERM"}, {SIGINT, " on SIGINT"}, {SIGABRT, NULL}, {SIGSEGV, NULL},
    {SIGBUS, NULL},           {SIGFPE, NULL},         {SIGILL, NULL},
};
enum { N_HANDLED = sizeof handled / sizeof *handled };

static struct sigaction previous[N_HANDLED];

static int slot_of(int sig) {
  for (int k = 0; k < N_HANDLED; k++)
    if (handled[k].number == sig) return k;
  return -1;
}

/* sa_handler and sa_sigaction share their storage: SIG_DFL is NULL in both. */
static bool is_default(const struct sigaction *action) { return action->sa_handler == SIG_DFL; }

/* The handler that was there before ours, run as the kernel would have
   run it. One installed with SA_RESETHAND would have been reset by now:
   the next signal gets the default action (after our work). */
static void call_previous(struct sigaction *before, int sig, siginfo_t *info, void *context) {
  struct sigaction copy = *before;
  if (copy.sa_flags & SA_RESETHAND) {
    memset(before, 0, sizeof *before);
    before->sa_handler = SIG_DFL;
  }
  if (copy.sa_flags & SA_SIGINFO)
    copy.sa_sigaction(sig, info, context);
  else
    copy.sa_handler(sig);
}

/* The process dies of SIG once this handler returns: the default action
   comes back and the signal is raised again, pending (blocked while its
   handler runs) until then, so the exit status says "killed by SIG". */
static void die_by(int sig) {
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_signal(int sig, siginfo_t *info, void *context) {
  int saved_errno = errno;
  int k = slot_of(sig);
  teardown_depth++;
  if (k >= 0 && is_default(&previous[k])) {
    if (handled[k].why && !forked_child) {
      if (!__atomic_exchange_n(&exited, true, __ATOMIC_ACQ_REL)) end_of_process(handled[k].why);
    } else if (cw_config.times_path) {
      cw_times_flush_all();
    }
    die_by(sig);
  } else if (k >= 0) {
    /* The program's handler decides; the window stays open, the steps
       written so far are on disk whatever it does next. */
    if (cw_config.times_path) cw_times_flush_all();
    call_previous(&previous[k], sig, info, context);
  }
  teardown_depth--;
  errno = saved_errno;
}

static void install(int k) {
  struct sigaction action, before;
  if (sigaction(handled[k].number, NULL, &before) != 0) return;
  if (before.sa_handler == SIG_IGN) return; /* nohup, a background job's SIGINT */
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  /* The program's handler keeps its own flags (SA_RESTART, SA_ONSTACK: a
     crash on an overflowed stack) and mask. */
  action.sa_flags = SA_SIGINFO | (before.sa_flags & (SA_RESTART | SA_ONSTACK));
  action.sa_mask = before.sa_mask;
  previous[k] = before;
  sigaction(handled[k].number, &action, NULL);
}

void cw_teardown_install(void) {
  atexit(at_exit);
  pthread_atfork(NULL, NULL, note_child);
  if (cw_config.off) return;
  for (int k = 0; k < N_HANDLED; k++) install(k);
}
