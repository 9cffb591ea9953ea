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
 *   ID, -L, then L bytes "left ID INDEX\n"
 *                                   the loop was left after step INDEX
 *                                   (plan keeps its windows inside one
 *                                   entry of the loop)
 *
 * Each loop and thread fills its own buffer of 256 steps in the step
 * clock's ticks (internal.h); it is written (one write(), its record made
 * in a copy: nanoseconds, byte order) when full or when its oldest step is
 * a second old, at thread exit, at process exit and when a signal ends
 * the process (teardown.c). A run killed by SIGKILL loses only what its
 * buffers held. O_APPEND keeps the writes of several threads whole. A
 * path that cannot be opened, or a failed write, is reported once and the
 * run goes on without step times. Calls only options.c, log.c, clock.c
 * and teardown.c's locks.
 *
 * The file is this process's alone: opened without O_TRUNC, locked
 * (flock, held for the process's life; NFS clients emulate it with a
 * POSIX lock on the server), and emptied only once the lock is ours, so
 * a second process given the same path (a rank that starts late, a run
 * started twice) never truncates the first one's steps: it writes
 * PATH.PID instead and says so. A forked child that times steps writes
 * PATH.PID of its own (the parent's file stays the parent's).
 *
 * A buffer is written by its thread when full, and by any thread at exit
 * or by a signal handler meanwhile: those write the steps not yet written
 * (index `written` up to `n`, which the owner publishes with a release
 * store after filling the step) from a copy, and never touch what the
 * owner is filling, so its thread may go on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* A buffer holds STEPS steps (4 KiB): two stores per step on the loop's
   path, no formatting at all (the reader converts records to numbers a
   record at a time). */
enum { STEPS = 256, HEADER_MAX = 4096, PATH_MAX_LEN = 4096 };
#define FLUSH_AGE_NS 1e9

struct cw_times {
  struct cw_times *next, **prev; /* every open buffer, for the exit flush */
  long long id;
  long long first_tick; /* when the oldest buffered step ended; 0: empty */
  int n;                /* steps buffered (the owner stores it, release) */
  int written;          /* of them, already written (by another thread) */
  /* The loop's record (id, -L, L bytes of its loop line), written before
     its first steps in each file (a forked child's too). */
  bool loop_record_sent;
  size_t loop_record_len;
  char loop_record[2 * sizeof(long long) + HEADER_MAX];
  long long steps[2 * STEPS]; /* pairs index, ticks; ticks LEFT: left after index */
  long long last_left;        /* the step after which the loop was last left */
};

/* In a buffer, the pair (INDEX, LEFT) says the loop was left after INDEX:
   no step takes LLONG_MIN ticks. */
#define LEFT LLONG_MIN

static int fd = -1;
static bool failed, child_reopens;
static char path_written[PATH_MAX_LEN + 24]; /* the file's name, for messages */
static long long last_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_times *open_buffers;
static long long flush_age_ticks;
static long long record[2 + 2 * STEPS]; /* the record being written (lock) */

/* PATH, empty and this process's alone, or -1 (errno): EWOULDBLOCK when
   another process holds it. Without LOCKED no lock is taken and the file
   is emptied at once: PATH.PID, where locks are not to be had. What is
   not a regular file (/dev/null, a FIFO, a terminal) is written as it is:
   nothing there to empty or to lose. */
static int open_own(const char *path, bool locked) {
  int f = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  struct stat st;
  if (f < 0 || fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) return f;
  if ((locked && flock(f, LOCK_EX | LOCK_NB) != 0) || ftruncate(f, 0) != 0) {
    int e = errno;
    close(f);
    errno = e;
    return -1;
  }
  return f;
}

/* Opens the file (PATH, else PATH.PID) and writes the header. A forked
   child (CHILD) goes straight to PATH.PID: PATH is its parent's, even
   once the parent has ended. */
static void open_file(bool child) {
  static const char header[] = "# capture-window step times 2\n";
  const char *path = cw_config.times_path;
  int lock_errno = 0;
  struct stat st;
  if (child && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) child = false; /* /dev/null */
  fd = child ? -1 : open_own(path, true);
  if (fd < 0 && (child || errno == EWOULDBLOCK || errno == ENOLCK || errno == EINVAL ||
                 errno == EOPNOTSUPP)) {
    lock_errno = child ? 0 : errno;
    snprintf(path_written, sizeof path_written, "%s.%ld", path, (long)getpid());
    /* A PATH.PID left by an earlier process of this pid is stale; one of
       another node's process of this pid, on a shared folder, is locked. */
    fd = open_own(path_written, lock_errno == 0 || lock_errno == EWOULDBLOCK);
  } else {
    snprintf(path_written, sizeof path_written, "%s", path);
  }
  if (fd < 0 || write(fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
    cw_log("CAPTURE_WINDOW_TIMES: cannot write '%s' (%s); step times are not recorded",
           path_written, strerror(errno));
    if (fd >= 0) close(fd);
    fd = -1;
  } else if (child) {
    cw_log("CAPTURE_WINDOW_TIMES: forked process %ld writes its steps to '%s' ('%s' is its "
           "parent's)",
           (long)getpid(), path_written, path);
  } else if (lock_errno) {
    cw_log("CAPTURE_WINDOW_TIMES: '%s' is %s; process %ld writes its steps to '%s'", path,
           lock_errno == EWOULDBLOCK ? "being written by another process"
                                     : "on a file system without locks",
           (long)getpid(), path_written);
  }
}

/* A forked child holds copies of the parent's buffers: the parent writes
   those steps itself. Its own steps go to a file of its own, opened when
   it has some. */
static void forget_in_child(void) {
  for (struct cw_times *t = open_buffers; t; t = t->next) {
    t->n = t->written = 0;
    t->first_tick = 0;
    t->loop_record_sent = false;
  }
  if (fd >= 0) close(fd); /* the parent's lock stays the parent's */
  fd = -1;
  child_reopens = true;
  pthread_mutex_init(&lock, NULL);
}

void cw_times_start(void) {
  pthread_atfork(NULL, NULL, forget_in_child);
  flush_age_ticks = (long long)(FLUSH_AGE_NS / cw_tick_ns);
  open_file(false);
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
static void write_all(const void *data, size_t len) {
  size_t done = 0;
  while (done < len && fd >= 0 && !failed) {
    ssize_t n = write(fd, (const char *)data + done, len - done);
    if (n > 0) {
      done += (size_t)n;
    } else if (n == 0 || errno != EINTR) {
      failed = true; /* said once; the other threads stop writing too */
      cw_log("CAPTURE_WINDOW_TIMES: writing '%s' failed (%s); step times stop here", path_written,
             strerror(errno));
    }
  }
}

/* Writes the buffer's steps not yet written, after the loop's record if
   it has not gone out to this file yet (the caller holds the lock). Its
   OWNER thread then empties it; another only notes what went out. errno
   is the program's: kept. */
/* Steps FROM up to TO (not included) of T's buffer as one record, in the
   copy `record` (the caller holds the lock). */
static void write_steps(const struct cw_times *t, int from, int to, double ns_per_tick) {
  if (to == from) return;
  record[0] = little_endian(t->id);
  record[1] = little_endian(to - from);
  for (int k = 0; k < to - from; k++) {
    long long index = t->steps[2 * (from + k)], ticks = t->steps[2 * (from + k) + 1];
    record[2 + 2 * k] = little_endian(index);
    record[3 + 2 * k] =
        little_endian((long long)((double)(ticks < 0 ? 0 : ticks) * ns_per_tick + 0.5));
  }
  write_all(record, (size_t)(2 + 2 * (to - from)) * sizeof record[0]);
}

/* The record "loop ID was left after step INDEX". */
static void write_left(long long id, long long index) {
  char text[64];
  int len = snprintf(text, sizeof text, "left %lld %lld\n", id, index);
  long long head[2] = {little_endian(id), little_endian(-(long long)len)};
  memcpy(record, head, sizeof head);
  memcpy(record + 2, text, (size_t)len);
  write_all(record, sizeof head + (size_t)len);
}

static void flush(struct cw_times *t, bool owner) {
  int n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
  if (n > t->written) {
    int saved_errno = errno;
    if (child_reopens) {
      child_reopens = false;
      open_file(true);
    }
    if (!t->loop_record_sent) write_all(t->loop_record, t->loop_record_len);
    t->loop_record_sent = true;
    double ns_per_tick = cw_ns_per_tick();
    int from = t->written;
    for (int k = from; k <= n; k++) {
      if (k < n && t->steps[2 * k + 1] != LEFT) continue;
      write_steps(t, from, k, ns_per_tick);
      if (k < n) write_left(t->id, t->steps[2 * k]);
      from = k + 1;
    }
    t->written = n;
    errno = saved_errno;
  }
  if (owner) {
    t->written = 0;
    t->first_tick = 0;
    __atomic_store_n(&t->n, 0, __ATOMIC_RELAXED);
  }
}

struct cw_times *cw_times_open_loop(const struct cw_site_v2 *site) {
  if (fd < 0 && !child_reopens) return NULL;
  struct cw_times *t = malloc(sizeof *t);
  if (!t) return NULL;
  t->n = t->written = 0;
  t->first_tick = 0;
  t->last_left = -1;
  t->loop_record_sent = false;
  pthread_mutex_lock(&lock);
  t->id = ++last_id;
  t->next = open_buffers;
  t->prev = &open_buffers;
  if (open_buffers) open_buffers->prev = &t->next;
  open_buffers = t;
  pthread_mutex_unlock(&lock);
  /* The loop's record goes out with the first steps: a loop that never
     completes a step leaves nothing. The site's names are copied now
     (dlclose). */
  char *line = t->loop_record + 2 * sizeof(long long);
  int n = snprintf(line, HEADER_MAX, "loop %lld T%ld %s %s:%u%s\n", t->id, cw_thread_id(),
                   site->label, site->file, site->line, CW_SITE_AT(site));
  if (n < 0 || n >= HEADER_MAX) { /* a path of kilobytes, cut */
    n = HEADER_MAX - 1;
    line[n - 1] = '\n';
  }
  long long head[2] = {little_endian(t->id), little_endian(-(long long)n)};
  memcpy(t->loop_record, head, sizeof head);
  t->loop_record_len = sizeof head + (size_t)n;
  return t;
}

/* A step of TICKS that ended at NOW (ticks): two stores; the buffer goes
   out when full or a second old. A full buffer that could not go out (a
   signal's teardown found the lock taken) keeps its steps and drops new
   ones. */
/* The loop was left after step INDEX: recorded once per entry, in the
   buffer beside the steps (no write of its own). */
void cw_times_left(struct cw_times *t, long long index) {
  if (index < 0 || index == t->last_left) return;
  t->last_left = index;
  cw_times_add(t, index, LEFT, cw_ticks());
}

void cw_times_add(struct cw_times *t, long long index, long long ticks, long long now) {
  int n = t->n;
  if (__builtin_expect(n == STEPS, 0)) return;
  t->steps[2 * n] = index;
  t->steps[2 * n + 1] = ticks;
  if (!t->first_tick) t->first_tick = now;
  __atomic_store_n(&t->n, n + 1, __ATOMIC_RELEASE); /* for flush() in another thread */
  if (n + 1 == STEPS || now - t->first_tick > flush_age_ticks) {
    if (!cw_lock(&lock)) return;
    flush(t, true);
    cw_unlock(&lock);
  }
}

/* At thread exit: the buffer goes out and away. */
void cw_times_close(struct cw_times *t) {
  if (!t) return;
  if (!cw_lock(&lock)) return; /* a signal's teardown: the buffer stays listed */
  flush(t, true);
  *t->prev = t->next;
  if (t->next) t->next->prev = t->prev;
  cw_unlock(&lock);
  free(t);
}

/* At exit and when a signal comes (teardown.c), from any thread: every
   buffer's steps not yet written. */
void cw_times_flush_all(void) {
  if (!cw_lock(&lock)) return;
  for (struct cw_times *t = open_buffers; t; t = t->next) flush(t, false);
  cw_unlock(&lock);
}
