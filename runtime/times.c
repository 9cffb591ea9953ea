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
 * in the step clock's ticks (internal.h) and formatted in nanoseconds when
 * it is written (one write()): when full or when its oldest step is a
 * second old, at thread exit and at process exit. A run that crashes or is
 * killed loses only what its buffers held. O_APPEND keeps the writes of several threads whole. A path
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
   it is written, a buffer at a time: two stores per step on the loop's
   path, the formatting in one tight loop per 256 steps. */
enum { STEPS = 256, LINE_MAX_LEN = 96, HEADER_MAX = 4096 };
#define FLUSH_AGE_NS 1e9

struct cw_times {
  struct cw_times *next, **prev; /* every open buffer, for the exit flush */
  long id;
  long long first_tick; /* when the oldest buffered step ended; 0: empty */
  int n;                /* steps buffered */
  long long index[STEPS], ticks[STEPS];
  size_t header_len;  /* the loop line, until it goes out with the first steps */
  char header[HEADER_MAX];
};

static int fd = -1;
static bool failed;
static long last_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cw_times *open_buffers;
static long long flush_age_ticks;
/* The text of one flush: written under the lock, so one serves all. */
static char text[HEADER_MAX + STEPS * LINE_MAX_LEN];

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
  static const char header[] = "# capture-window step times 1\n";
  pthread_atfork(NULL, NULL, forget_in_child);
  flush_age_ticks = (long long)(FLUSH_AGE_NS / cw_ns_per_tick());
  fd = open(cw_config.times_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, header, sizeof header - 1) != (ssize_t)(sizeof header - 1)) {
    cw_log("CAPTURE_WINDOW_TIMES: cannot write '%s' (%s); step times are not recorded",
           cw_config.times_path, strerror(errno));
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

static inline char *put_decimal(char *p, unsigned long long u, char c);

/* The text "ID INDEX " that starts a step's line, kept from line to line:
   the next index is the last one plus one nearly always, a carry through
   its last digits. */
struct prefix {
  char text[48];
  int len;          /* up to and with the space after INDEX */
  int index_at;     /* where INDEX starts */
  long long index;  /* -2: none yet */
};

static void prefix_to(struct prefix *c, long long v) {
  if (v == c->index + 1) {
    int k = c->len - 2;
    while (k >= c->index_at && c->text[k] == '9') c->text[k--] = '0';
    if (k >= c->index_at) {
      c->text[k]++;
    } else { /* 999 -> 1000 */
      memmove(c->text + c->index_at + 1, c->text + c->index_at, (size_t)(c->len++ - c->index_at));
      c->text[c->index_at] = '1';
    }
  } else {
    c->len = (int)(put_decimal(c->text + c->index_at, (unsigned long long)v, ' ') - c->text);
  }
  c->index = v;
}

/* The buffer's steps as text, after the loop line if it has not gone out
   yet -> the text's length. */
static size_t format_steps(struct cw_times *t, double ns_per_tick) {
  /* ns = ticks * ns_per_tick, in integers: a multiply and a shift. */
  unsigned long long scale = (unsigned long long)(ns_per_tick * 4294967296.0 + 0.5);
  char *p = text;
  struct prefix prefix = {.index = -2};
  prefix.index_at = (int)(put_decimal(prefix.text, (unsigned long long)t->id, ' ') - prefix.text);
  memcpy(p, t->header, t->header_len);
  p += t->header_len;
  t->header_len = 0;
  for (int k = 0; k < t->n; k++) {
    /* A copy of a fixed 48 bytes (a few moves, no call; the text has room
       for LINE_MAX_LEN a line), of which the length counts. */
    prefix_to(&prefix, t->index[k]);
    memcpy(p, prefix.text, sizeof prefix.text);
    p += prefix.len;
    unsigned long long ticks = t->ticks[k] < 0 ? 0 : (unsigned long long)t->ticks[k];
    p = put_decimal(p, (unsigned long long)(((unsigned __int128)ticks * scale + (1U << 31)) >> 32),
                    '\n');
  }
  return (size_t)(p - text);
}

/* Writes the buffer out (the caller holds the lock). errno is the
   program's: kept. */
static void flush(struct cw_times *t) {
  if (!t->first_tick) return; /* no step yet (the loop line waits for one) */
  int saved_errno = errno;
  size_t len = format_steps(t, cw_ns_per_tick()), done = 0;
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
  t->first_tick = 0;
  errno = saved_errno;
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
  t->first_tick = 0;
  return t;
}

/* Writes u in decimal, then c: the length first (from the highest bit,
   no chain of divisions), then two digits per division (a table of 00-99)
   from the end. */
static inline __attribute__((always_inline)) char *put_decimal(char *p, unsigned long long u,
                                                                char c) {
  static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                              "25262728293031323334353637383940414243444546474849"
                              "50515253545556575859606162636465666768697071727374"
                              "75767778798081828384858687888990919293949596979899";
  static const unsigned long long powers[20] = {
      1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
      100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
      10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
      100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};
  int digits = (64 - __builtin_clzll(u | 1)) * 1233 >> 12; /* log10(2) ~ 1233/4096 */
  int len = digits + (digits < 20 && u >= powers[digits]);
  if (len == 0) len = 1;
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

/* A step of TICKS that ended at NOW (ticks): two stores; the buffer goes
   out when full or a second old. */
void cw_times_add(struct cw_times *t, long long index, long long ticks, long long now) {
  t->index[t->n] = index;
  t->ticks[t->n] = ticks;
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
