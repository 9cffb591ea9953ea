/*
 * watch.c - CAPTURE_WINDOW_WATCH=PATH: one thread per process reads PATH
 * every WATCH_PERIOD_MS and publishes each request it has not seen (a new
 * id) to the marked loops: watch.h gives the request's format and how a
 * loop learns of it without paying for it on any iteration.
 *
 * Why open and read, never stat: over NFS with default mount options a
 * client keeps a file's attributes for 3 to 60 s (acregmin..acregmax), so
 * stat() may show the old file for a minute, while open() revalidates
 * them with the server (close-to-open consistency): a request renamed over
 * PATH on one node is read by the next open on every other node. Each poll
 * therefore opens PATH and reads it whole (a few hundred bytes); on NFS
 * that is a LOOKUP/GETATTR round trip, and a READ when the file changed.
 *
 * Why a second: a person who types `capture-window trigger` does not
 * notice a second, and a `--at STEP` request names a step further ahead
 * than that anyway; while a thousand ranks polling every second send their
 * NFS server a thousand small requests a second, a few percent of what
 * one server answers. So a request is acted on at the first iteration that
 * begins at most WATCH_PERIOD_MS after its rename (docs/environment.md).
 *
 * The thread blocks every signal, so signals (CAPTURE_WINDOW_SIGNAL,
 * SIGTERM) go to the program's threads as before, and it never exits: the
 * process's end takes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture_window/watch.h"
#include "loop.h"

enum { WATCH_PERIOD_MS = 1000, REQUEST_MAX = 1024 };

unsigned int cw_watch_generation;

/* The request published last, and the loops to tell: both under lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_watch_request published;
static struct cw_loop **loops;
static size_t n_loops, loops_capacity;

CW_WATCH_EXPORT int cw_watch_active_v1(void) { return cw_config.watch_path && !cw_config.off; }

/* ---- the request ------------------------------------------------------- */

static bool is_id(const char *s, size_t len) {
  if (len == 0 || len >= CW_WATCH_ID_MAX) return false;
  for (size_t k = 0; k < len; k++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", s[k]) || !s[k])
      return false;
  return true;
}

/* A request's number: the one number rule of every door. */
static bool is_number(const char *s, size_t len, long long min, long long *out) {
  char why[80];
  return cw_number_parse_v1(s, len, NULL, min, CW_VALUE_MAX, out, why, sizeof why) == NULL;
}

/* One line NAME=VALUE of a request into R; false if it is none of the
   names, bad or given twice (SEEN: the names met so far, one bit each). */
static bool request_line(const char *s, size_t len, struct cw_watch_request *r, unsigned *seen) {
  static const char *const names[] = {"id", "at", "align", "count", "label"};
  const char *eq = memchr(s, '=', len);
  if (!eq) return false;
  size_t name_len = (size_t)(eq - s), value_len = len - name_len - 1;
  const char *value = eq + 1;
  for (unsigned k = 0; k < sizeof names / sizeof *names; k++) {
    if (strlen(names[k]) != name_len || memcmp(names[k], s, name_len) != 0) continue;
    if (*seen & 1u << k) return false;
    *seen |= 1u << k;
    switch (k) {
    case 0:
      if (!is_id(value, value_len)) return false;
      memcpy(r->id, value, value_len);
      return true;
    case 1:
      return is_number(value, value_len, 0, &r->at);
    case 2:
      return is_number(value, value_len, 1, &r->align);
    case 3:
      return is_number(value, value_len, 0, &r->count);
    default:
      if (!cw_label_is_valid_v1(value, value_len)) return false;
      memcpy(r->label, value, value_len);
      return true;
    }
  }
  return false;
}

bool cw_watch_parse(const char *text, size_t len, struct cw_watch_request *r) {
  static const char first[] = "capture-window request 1\n", last[] = "\nend\n";
  size_t head = sizeof first - 1, tail = sizeof last - 1;
  if (len < head + tail - 1 || memcmp(text, first, head) != 0 ||
      memcmp(text + len - tail, last, tail) != 0)
    return false;
  memset(r, 0, sizeof *r);
  r->at = -1;
  unsigned seen = 0;
  for (const char *s = text + head, *end = text + len - tail + 1; s < end;) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    if (!request_line(s, (size_t)(nl - s), r, &seen)) return false;
    s = nl + 1;
  }
  /* An id, and at or align: one of them. */
  return (seen & 1u) && ((seen >> 1 & 1u) != (seen >> 2 & 1u));
}

/* PATH's request, if it holds a whole one. */
static bool read_request(struct cw_watch_request *r) {
  int fd = open(cw_config.watch_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[REQUEST_MAX];
  size_t len = 0;
  for (;;) {
    ssize_t n = read(fd, text + len, sizeof text - len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    len += (size_t)n;
    if (len == sizeof text) break;
  }
  close(fd);
  return len < sizeof text && cw_watch_parse(text, len, r);
}

/* ---- publishing -------------------------------------------------------- */

/* The order of watch.h: the request, the generation, then every loop's
   decide_at and attention_at to 0 (its next iteration calls the runtime). */
static void publish(const struct cw_watch_request *r) {
  pthread_mutex_lock(&lock);
  published = *r;
  __atomic_add_fetch(&cw_watch_generation, 1, __ATOMIC_SEQ_CST);
  for (size_t k = 0; k < n_loops; k++) {
    __atomic_store_n(&loops[k]->decide_at, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&loops[k]->head.attention_at, 0, __ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&lock);
  cw_answer_read(r);
  if (cw_config.verbose)
    cw_log("watch: request %s read from %s: %s %lld, count %lld, loop %s", r->id,
           cw_config.watch_path, r->align ? "align" : "at", r->align ? r->align : r->at, r->count,
           r->label[0] ? r->label : "(every one)");
}

unsigned int cw_watch_current(struct cw_watch_request *r) {
  pthread_mutex_lock(&lock);
  *r = published;
  unsigned int generation = __atomic_load_n(&cw_watch_generation, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&lock);
  return generation;
}

/* A loop state joins before it first plans (window.c's new_loop), so a
   request published meanwhile either lowers it here or is seen by its
   set_decide_at; it leaves before it is freed. */
void cw_watch_register(struct cw_loop *loop) {
  pthread_mutex_lock(&lock);
  if (n_loops == loops_capacity) {
    size_t capacity = loops_capacity ? 2 * loops_capacity : 16;
    struct cw_loop **grown = realloc(loops, capacity * sizeof *grown);
    if (grown) loops = grown, loops_capacity = capacity;
  }
  if (n_loops < loops_capacity) loops[n_loops++] = loop;
  pthread_mutex_unlock(&lock);
}

void cw_watch_forget(struct cw_loop *loop) {
  pthread_mutex_lock(&lock);
  for (size_t k = 0; k < n_loops; k++)
    if (loops[k] == loop) {
      loops[k] = loops[--n_loops];
      break;
    }
  pthread_mutex_unlock(&lock);
}

static void *watch(void *unused) {
  (void)unused;
  char last[CW_WATCH_ID_MAX] = "";
  const struct timespec period = {WATCH_PERIOD_MS / 1000, WATCH_PERIOD_MS % 1000 * 1000000L};
  for (;;) {
    struct cw_watch_request r;
    if (read_request(&r) && strcmp(r.id, last) != 0) {
      memcpy(last, r.id, sizeof last);
      publish(&r);
    }
    nanosleep(&period, NULL);
  }
  return NULL;
}

void cw_watch_start(void) {
  cw_answers_start();
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attr, watch, NULL) != 0)
    cw_log("CAPTURE_WINDOW_WATCH: cannot start the thread that watches %s; no requests will be "
           "seen",
           cw_config.watch_path);
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &before, NULL);
  if (cw_config.verbose)
    cw_log("watching %s every %d ms, rank %lld", cw_config.watch_path, WATCH_PERIOD_MS,
           cw_config.rank);
}
