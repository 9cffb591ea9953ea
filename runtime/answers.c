/*
 * answers.c - each rank's answers to CAPTURE_WINDOW_WATCH's requests,
 * beside PATH in PATH.answers/RANK (PATH.answers/pid-PID when no rank
 * variable is set), a file only this process writes: several writers
 * appending to one file is not atomic across NFS clients. One line per
 * event, never per step, each one write(2) through a descriptor opened
 * for it and closed again, so that over NFS the line reaches the server at
 * the close and a reader on another node sees it at its next open
 * (close-to-open consistency). The lines (docs/environment.md), L a loop's
 * label and T the thread that runs it:
 *
 *   watching rank=R host=H pid=P       the first line (the file starts anew)
 *   read id=ID                         the watcher read request ID
 *   seen id=ID loop=L thread=T step=K at=A count=C
 *                                      loop L acts on it in iteration K: its
 *                                      window of C iterations opens at A
 *   opened id=ID loop=L thread=T step=A
 *   held id=ID loop=L thread=T first=A last=B
 *   missed id=ID loop=L thread=T step=K at=A why=past|window
 *                                      no window: iteration A was past when
 *                                      the loop saw the request in K, or
 *                                      another window held it
 *   replaced id=ID loop=L thread=T step=K by=NEW
 *                                      a newer request came before A
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loop.h"

static char answers_path[4200]; /* "": no answers (none could be written) */

static void answer(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void answer(const char *fmt, ...) {
  if (!answers_path[0]) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n > sizeof line - 2) n = sizeof line - 2;
  line[n++] = '\n';
  int saved_errno = errno;
  int fd = open(answers_path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd >= 0) {
    if (write(fd, line, (size_t)n) != n) { /* nothing to do: the answer is lost */
    }
    close(fd);
  }
  errno = saved_errno;
}

void cw_answers_start(void) {
  char folder[4100], host[256] = "?";
  snprintf(folder, sizeof folder, "%s.answers", cw_config.watch_path);
  if (cw_config.rank_set)
    snprintf(answers_path, sizeof answers_path, "%s/%lld", folder, cw_config.rank);
  else
    snprintf(answers_path, sizeof answers_path, "%s/pid-%ld", folder, (long)getpid());
  int fd = -1;
  if (mkdir(folder, 0777) == 0 || errno == EEXIST)
    fd = open(answers_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    cw_log("CAPTURE_WINDOW_WATCH: cannot write %s (%s); requests are still acted on, unanswered",
           answers_path, strerror(errno));
    answers_path[0] = '\0';
    return;
  }
  close(fd);
  gethostname(host, sizeof host - 1);
  host[strcspn(host, " \t\n")] = '\0';
  answer("watching rank=%lld host=%s pid=%ld", cw_config.rank, host, (long)getpid());
}

void cw_answer_read(const struct cw_watch_request *request) { answer("read id=%s", request->id); }

/* "id=ID loop=L thread=T", the part every loop's answer starts with. */
#define WHO "id=%s loop=%s thread=%ld"
#define WHO_OF(loop) (loop)->watch_id, (loop)->site->label, cw_thread_id()

void cw_answer_seen(const struct cw_loop *loop, long long i, long long at, long long count) {
  answer("seen " WHO " step=%lld at=%lld count=%lld", WHO_OF(loop), i, at, count);
}

void cw_answer_missed(const struct cw_loop *loop, long long i, long long at, const char *why) {
  answer("missed " WHO " step=%lld at=%lld why=%s", WHO_OF(loop), i, at, why);
}

void cw_answer_replaced(const struct cw_loop *loop, long long i, const char *by) {
  answer("replaced " WHO " step=%lld by=%s", WHO_OF(loop), i, by);
}

void cw_answer_opened(const struct cw_loop *loop, long long i) {
  answer("opened " WHO " step=%lld", WHO_OF(loop), i);
}

void cw_answer_held(const struct cw_loop *loop, long long first, long long last) {
  answer("held " WHO " first=%lld last=%lld", WHO_OF(loop), first, last);
}
