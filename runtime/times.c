/*
 * times.c - CAPTURE_WINDOW_TIMES=PATH: the time of every iteration of every
 * active marked loop, per thread, written to one text file per process
 * (docs/environment.md, "Step times"):
 *
 *   # capture-window step times 1
 *   loop ID T<THREAD> LABEL FILE:LINE[@INSTANCE]  once per loop and thread
 *   ID INDEX NS                            one line per step
 *
 * Each loop and thread fills its own buffer of 256 steps, kept as numbers
 * and formatted when it is written (one write()) when full or when its
 * oldest step is a second old, at thread exit and at process exit: a run that crashes or is killed loses only what its
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

/* A buffer holds STEPS steps as numbers (4 KiB); they become text when
   it is written, a buffer at a time: a store per step on the loop's path,
   the formatting in one tight loop per 256 steps. */
enum { STEPS = 256, LINE_MAX_LEN = 64, HEADER_MAX = 4096 };
#define FLUSH_AGE_NS 1000000000LL

struct cw_times {
  struct cw_times *next, **prev; /* every open buffer, for the exit flush */
  long id;
  long long first_ns; /* when the oldest buffered step ended; 0: empty */
  int n;              /* steps buffered */
  long long index[STEPS], ns[STEPS];
  size_t header_len;  /* the loop line, until it goes out with the first steps */
  char header[HEADER_MAX];
};

static int fd = -1;
static bool failed;
static long last_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_times *open_buffers;
/* The text of one flush: written under the lock, so one serves all. */
static char text[HEADER_MAX + STEPS * LINE_MAX_LEN];

/* A forked child holds copies of the parent's buffers: the parent writes
   those steps itself. */
static void forget_in_child(void) {
  for (struct cw_times *t = open_buffers; t; t = t->next) {
    t->n = 0;
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

static char *put_decimal(char *p, unsigned long long u, char c);

/* The decimal text of an index, kept from line to line: the next index is
   the last one plus one nearly always, a carry through its last digits. */
struct counter {
  char text[24];
  int len;
  long long value;
};

static void count_to(struct counter *c, long long v) {
  if (v == c->value + 1 && c->len) {
    int k = c->len - 1;
    while (k >= 0 && c->text[k] == '9') c->text[k--] = '0';
    if (k >= 0) {
      c->text[k]++;
    } else { /* 999 -> 1000 */
      memmove(c->text + 1, c->text, (size_t)c->len++);
      c->text[0] = '1';
    }
  } else {
    c->len = (int)(put_decimal(c->text, (unsigned long long)v, 0) - c->text) - 1;
  }
  c->value = v;
}

/* The buffer's steps as text, after the loop line if it has not gone out
   yet -> the text's length. */
static size_t format_steps(struct cw_times *t) {
  char *p = text, id[24] = {0};
  int id_len = (int)(put_decimal(id, (unsigned long long)t->id, ' ') - id);
  struct counter index = {.len = 0, .value = -2};
  memcpy(p, t->header, t->header_len);
  p += t->header_len;
  t->header_len = 0;
  for (int k = 0; k < t->n; k++) {
    /* Copies of a fixed 24 bytes (a few moves, no call; the text has room
       for LINE_MAX_LEN a line), of which the length counts. */
    memcpy(p, id, sizeof id);
    p += id_len;
    count_to(&index, t->index[k]);
    memcpy(p, index.text, sizeof index.text);
    p += index.len;
    *p++ = ' ';
    p = put_decimal(p, t->ns[k] < 0 ? 0 : (unsigned long long)t->ns[k], '\n');
  }
  return (size_t)(p - text);
}

/* Writes the buffer out (the caller holds the lock). */
static void flush(struct cw_times *t) {
  if (!t->first_ns) return; /* no step yet (the loop line waits for one) */
  size_t len = format_steps(t), done = 0;
  while (done < len && fd >= 0 && !failed) {
    ssize_t n = write(fd, text + done, len - done);
    if (n > 0) {
      done += (size_t)n;
    } else if (n < 0 && errno != EINTR) {
      failed = true; /* said once; the other threads stop writing too */
      cw_log("CAPTURE_WINDOW_TIMES: writing '%s' failed (%s); step times stop here",
             cw_config.times_path, strerror(errno));
    }
  }
  t->n = 0;
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
  int n = snprintf(t->header, HEADER_MAX, "loop %ld T%ld %s %s:%u%s\n", t->id,
                   cw_thread_id(), site->label, site->file, site->line, CW_SITE_AT(site));
  if (n < 0 || n >= HEADER_MAX) { /* a path of kilobytes, cut */
    n = HEADER_MAX - 1;
    t->header[n - 1] = '\n';
  }
  t->header_len = (size_t)n;
  t->n = 0;
  t->first_ns = 0;
  return t;
}

/* Writes u in decimal, then c: the length first, then two digits per
   division (a table of 00-99) from the end. */
static char *put_decimal(char *p, unsigned long long u, char c) {
  static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";
  int len = 1;
  for (unsigned long long t = u; t >= 10 && len < 20; t /= 10) len++;
  char *end = p + len, *q = end;
  while (u >= 100) {
    unsigned r = (unsigned)(u % 100) * 2;
    u /= 100;
    *--q = pairs[r + 1];
    *--q = pairs[r];
  }
  if (u >= 10) {
    *--q = pairs[u * 2 + 1];
    *--q = pairs[u * 2];
  } else {
    *--q = (char)('0' + u);
  }
  *end = c;
  return end + 1;
}

/* A step: two stores; the buffer goes out when full or a second old. */
void cw_times_add(struct cw_times *t, long long index, long long ns, long long now) {
  t->index[t->n] = index;
  t->ns[t->n] = ns;
  if (!t->first_ns) t->first_ns = now;
  if (++t->n == STEPS || now - t->first_ns > FLUSH_AGE_NS) {
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
