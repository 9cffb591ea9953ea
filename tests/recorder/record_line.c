/* record_line.c - see record_line.h. */
#define _GNU_SOURCE
#include "record_line.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int record_fd = -1;
static pthread_once_t record_once = PTHREAD_ONCE_INIT;
static __thread long tid; /* this thread's id, once looked up */

/* A forked child is a thread of its own in the record: it must not go on
   with the id its parent's thread had cached. */
static void forget_thread_id(void) { tid = 0; }

/* $CW_RECORD with each %q{VAR} replaced by $VAR (empty if unset), as nsys
   names its reports, so that the processes of one launch (mpirun, srun)
   write one file each: CW_RECORD=rec.%q{OMPI_COMM_WORLD_RANK}. */
static void expand_record_path(const char *in, char *out, size_t size) {
  size_t o = 0;
  while (*in && o + 1 < size) {
    const char *close = strncmp(in, "%q{", 3) == 0 ? strchr(in, '}') : NULL;
    if (!close) {
      out[o++] = *in++;
      continue;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(close - in - 3), in + 3);
    const char *value = getenv(name);
    o += (size_t)snprintf(out + o, size - o, "%s", value ? value : "");
    if (o >= size) o = size - 1;
    in = close + 1;
  }
  out[o] = '\0';
}

static void open_record_file(void) {
  const char *path = getenv("CW_RECORD");
  char expanded[4096];
  if (path && *path) {
    expand_record_path(path, expanded, sizeof expanded);
    record_fd = open(expanded, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  pthread_atfork(NULL, NULL, forget_thread_id);
}

static long this_thread_id(void) {
  if (!tid) tid = (long)syscall(SYS_gettid);
  return tid;
}

void cw_record_line(const char *format, ...) {
  char line[4096];
  int head, body;
  size_t len;
  va_list ap;

  pthread_once(&record_once, open_record_file);
  if (record_fd < 0) return;

  head = snprintf(line, sizeof line, "T%ld ", this_thread_id());
  va_start(ap, format);
  body = vsnprintf(line + head, sizeof line - head - 1, format, ap);
  va_end(ap);
  if (body < 0) return;
  len = (size_t)head + (size_t)body;
  if (len > sizeof line - 2) len = sizeof line - 2; /* truncated; still one line */
  line[len++] = '\n';
  /* One write per line: O_APPEND makes it atomic with respect to the
     other writers of the file. */
  if (write(record_fd, line, len) < 0) {
    /* Nothing sensible to do; the checker will see the missing event. */
  }
}
