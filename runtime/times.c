/*
 * times.c - CAPTURE_WINDOW_TIMES=PATH: the time of every iteration of every
 * active marked loop, per thread, written to one text file per process
 * (docs/environment.md, "Step times"):
 *
 *   # capture-window step times 1
 *   loop ID T<THREAD> LABEL FILE:LINE[@INSTANCE]  once per loop and thread
 *   ID INDEX NS                            one line per step
 *
 * Each loop and thread fills its own buffer, written with one write() when
 * full or when its oldest step is a second old, at thread exit and at
 * process exit: a run that crashes or is killed loses only what its
 * buffers held. O_APPEND keeps the writes of several threads whole. A path
 * that cannot be opened, or a failed write, is reported once and the run
 * goes on without step times. Calls only options.c and clock.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

enum { BUFFER = 4096, LINE_MAX_LEN = 64 };
#define FLUSH_AGE_NS 1000000000LL

struct cw_times {
  struct cw_times *next, **prev; /* every open buffer, for the exit flush */
  long id;
  long long first_ns; /* when the oldest buffered step ended; 0: empty */
  size_t len;
  char text[BUFFER];
};

static int fd = -1;
static bool failed;
static long last_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_times *open_buffers;

/* A forked child holds copies of the parent's buffers: the parent writes
   those steps itself. */
static void forget_in_child(void) {
  for (struct cw_times *t = open_buffers; t; t = t->next) {
    t->len = 0;
    t->first_ns = 0;
  }
  pthread_mutex_init(&lock, NULL);
}

void cw_times_start(void) {
  static const char header[] = "# capture-window step times 1\n";
  pthread_atfork(NULL, NULL, forget_in_child);
  fd = open(cw_config.times_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
    cw_log("CAPTURE_WINDOW_TIMES: cannot write '%s' (%s); step times are not recorded",
           cw_config.times_path, strerror(errno));
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

/* Writes the buffer out (the caller holds the lock or owns the buffer). */
static void flush(struct cw_times *t) {
  size_t done = 0;
  if (!t->first_ns) return; /* no step yet (the header waits for one) */
  while (done < t->len && fd >= 0 && !failed) {
    ssize_t n = write(fd, t->text + done, t->len - done);
    if (n > 0) {
      done += (size_t)n;
    } else if (n < 0 && errno != EINTR) {
      failed = true; /* said once; the other threads stop writing too */
      cw_log("CAPTURE_WINDOW_TIMES: writing '%s' failed (%s); step times stop here",
             cw_config.times_path, strerror(errno));
    }
  }
  t->len = 0;
  t->first_ns = 0;
}

struct cw_times *cw_times_open_loop(const struct cw_site_v2 *site) {
  if (fd < 0) return NULL;
  struct cw_times *t = malloc(sizeof *t);
  if (!t) return NULL;
  pthread_mutex_lock(&lock);
  t->id = ++last_id;
  t->next = open_buffers;
  t->prev = &open_buffers;
  if (open_buffers) open_buffers->prev = &t->next;
  open_buffers = t;
  pthread_mutex_unlock(&lock);
  /* The header goes out with the first steps: a loop that never completes
     a step leaves nothing. The site's names are copied now (dlclose). */
  int n = snprintf(t->text, BUFFER - LINE_MAX_LEN, "loop %ld T%ld %s %s:%u%s\n", t->id,
                   cw_thread_id(), site->label, site->file, site->line, CW_SITE_AT(site));
  if (n < 0 || n >= BUFFER - LINE_MAX_LEN) { /* a path of kilobytes, cut */
    n = BUFFER - LINE_MAX_LEN - 1;
    t->text[n - 1] = '\n';
  }
  t->len = (size_t)n;
  t->first_ns = 0;
  return t;
}

/* Writes v >= 0 in decimal, then c: a third of what snprintf costs, on a
   path every iteration takes. */
static char *put_decimal(char *p, long long v, char c) {
  char digits[20];
  int n = 0;
  do digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) > 0);
  while (n > 0) *p++ = digits[--n];
  *p++ = c;
  return p;
}

void cw_times_add(struct cw_times *t, long long index, long long ns, long long now) {
  char *p = put_decimal(t->text + t->len, t->id, ' ');
  p = put_decimal(p, index, ' ');
  t->len = (size_t)(put_decimal(p, ns < 0 ? 0 : ns, '\n') - t->text);
  if (!t->first_ns) t->first_ns = now;
  if (t->len > BUFFER - LINE_MAX_LEN || now - t->first_ns > FLUSH_AGE_NS) {
    pthread_mutex_lock(&lock);
    flush(t);
    pthread_mutex_unlock(&lock);
  }
}

/* At thread exit: the buffer goes out and away. */
void cw_times_close(struct cw_times *t) {
  if (!t) return;
  pthread_mutex_lock(&lock);
  flush(t);
  *t->prev = t->next;
  if (t->next) t->next->prev = t->prev;
  pthread_mutex_unlock(&lock);
  free(t);
}

void cw_times_flush_all(void) {
  pthread_mutex_lock(&lock);
  for (struct cw_times *t = open_buffers; t; t = t->next) flush(t);
  pthread_mutex_unlock(&lock);
}
