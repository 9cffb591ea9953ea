/*
 * times.c - CAPTURE_WINDOW_TIMES=PATH: the time of every iteration of every
 * active marked loop, per thread, written to one file per process
 * (docs/environment.md, "Step times"), format 2: a text line, then records
 * of little-endian 64-bit integers
 *
 *   # capture-window step times 2\n
 *   ID, -L, then L bytes "loop ID T<THREAD> LABEL FILE:LINE[@INSTANCE]\n"
 *                                   once per loop and thread, first
 *   ID, N, then N pairs INDEX, NS   N > 0 steps of that loop
 *
 * Each loop and thread fills its own buffer of 256 steps in the step
 * clock's ticks (internal.h); it is written (one write(), its record
 * made in place: nanoseconds, byte order) when full or when its oldest
 * step is a second old, at thread exit and at process exit. A run that
 * crashes or is killed loses only what its buffers held. O_APPEND keeps
 * the writes of several threads whole. A path that cannot be opened, or
 * a failed write, is reported once and the run goes on without step
 * times. Calls only options.c and clock.c.
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

/* A buffer holds STEPS steps (4 KiB): two stores per step on the loop's
   path, no formatting at all (the reader converts records to numbers a
   record at a time). */
enum { STEPS = 256, HEADER_MAX = 4096 };
#define FLUSH_AGE_NS 1e9

struct cw_times {
  struct cw_times *next, **prev; /* every open buffer, for the exit flush */
  long long first_tick;          /* when the oldest buffered step ended; 0: empty */
  int n;                         /* steps buffered */
  /* The loop's record (id, -L, L bytes of its loop line), until it goes
     out with the first steps: its length, 0 once written. */
  size_t loop_record_len;
  char loop_record[2 * sizeof(long long) + HEADER_MAX];
  /* The steps' record as written: id, N, then N pairs index, ticks (ns
     once converted). */
  long long record[2 + 2 * STEPS];
};

static int fd = -1;
static bool failed;
static long long last_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_times *open_buffers;
static long long flush_age_ticks;

/* A forked child holds copies of the parent's buffers: the parent writes
   those steps itself. */
static void forget_in_child(void) {
  for (struct cw_times *t = open_buffers; t; t = t->next) {
    t->n = 0;
    t->first_tick = 0;
  }
  pthread_mutex_init(&lock, NULL);
}

void cw_times_start(void) {
  static const char header[] = "# capture-window step times 2\n";
  pthread_atfork(NULL, NULL, forget_in_child);
  flush_age_ticks = (long long)(FLUSH_AGE_NS / cw_tick_ns);
  fd = open(cw_config.times_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
    cw_log("CAPTURE_WINDOW_TIMES: cannot write '%s' (%s); step times are not recorded",
           cw_config.times_path, strerror(errno));
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

/* Little-endian, as the format says: a no-op on the hosts we know. */
static long long little_endian(long long v) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return (long long)__builtin_bswap64((unsigned long long)v);
#else
  return v;
#endif
}

/* Writes LEN bytes (the caller holds the lock). */
static void write_all(const char *data, size_t len) {
  size_t done = 0;
  while (done < len && fd >= 0 && !failed) {
    ssize_t n = write(fd, data + done, len - done);
    if (n > 0) {
      done += (size_t)n;
    } else if (n < 0 && errno != EINTR) {
      failed = true; /* said once; the other threads stop writing too */
      cw_log("CAPTURE_WINDOW_TIMES: writing '%s' failed (%s); step times stop here",
             cw_config.times_path, strerror(errno));
    }
  }
}

/* Writes the buffer out, after the loop's record if it has not gone out
   yet (the caller holds the lock). errno is the program's: kept. */
static void flush(struct cw_times *t) {
  if (!t->first_tick) return; /* no step yet (the loop record waits for one) */
  int saved_errno = errno;
  write_all(t->loop_record, t->loop_record_len);
  t->loop_record_len = 0;
  double ns_per_tick = cw_ns_per_tick();
  long long *step = t->record + 2;
  for (int k = 0; k < t->n; k++) {
    long long ticks = step[2 * k + 1] < 0 ? 0 : step[2 * k + 1];
    step[2 * k] = little_endian(step[2 * k]);
    step[2 * k + 1] = little_endian((long long)((double)ticks * ns_per_tick + 0.5));
  }
  t->record[1] = little_endian(t->n);
  write_all((const char *)t->record, (size_t)(2 + 2 * t->n) * sizeof t->record[0]);
  t->n = 0;
  t->first_tick = 0;
  errno = saved_errno;
}

struct cw_times *cw_times_open_loop(const struct cw_site_v2 *site) {
  if (fd < 0) return NULL;
  struct cw_times *t = malloc(sizeof *t);
  if (!t) return NULL;
  pthread_mutex_lock(&lock);
  long long id = ++last_id;
  t->next = open_buffers;
  t->prev = &open_buffers;
  if (open_buffers) open_buffers->prev = &t->next;
  open_buffers = t;
  pthread_mutex_unlock(&lock);
  /* The loop's record goes out with the first steps: a loop that never
     completes a step leaves nothing. The site's names are copied now
     (dlclose). */
  char *line = t->loop_record + 2 * sizeof(long long);
  int n = snprintf(line, HEADER_MAX, "loop %lld T%ld %s %s:%u%s\n", id, cw_thread_id(), site->label,
                   site->file, site->line, CW_SITE_AT(site));
  if (n < 0 || n >= HEADER_MAX) { /* a path of kilobytes, cut */
    n = HEADER_MAX - 1;
    line[n - 1] = '\n';
  }
  long long head[2] = {little_endian(id), little_endian(-(long long)n)};
  memcpy(t->loop_record, head, sizeof head);
  t->loop_record_len = sizeof head + (size_t)n;
  t->record[0] = little_endian(id);
  t->n = 0;
  t->first_tick = 0;
  return t;
}

/* A step of TICKS that ended at NOW (ticks): two stores; the buffer goes
   out when full or a second old. */
void cw_times_add(struct cw_times *t, long long index, long long ticks, long long now) {
  t->record[2 + 2 * t->n] = index;
  t->record[3 + 2 * t->n] = ticks;
  if (!t->first_tick) t->first_tick = now;
  if (++t->n == STEPS || now - t->first_tick > flush_age_ticks) {
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
