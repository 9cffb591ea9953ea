/*
 * log.c - every line the runtime prints, through cw_log: the prefix
 * "capture_window: ", the text, a newline.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* One write(2) of the whole line, prefix and newline included, however
   long (a heap buffer past the stack's): ranks and threads that share one
   pipe or terminal (mpirun --tag-output, torchrun, srun) then never see a
   line cut by another's. A pipe takes writes of up to PIPE_BUF (4096)
   bytes whole; a longer line is still one write, which the kernel splits
   only while the pipe is full. Retried after EINTR and partial writes;
   errno is kept (a signal's teardown logs too: teardown.c). */
void cw_log(const char *fmt, ...) {
  int saved_errno = errno;
  char small[2048];
  enum { PREFIX = sizeof CW_PREFIX - 1 };
  memcpy(small, CW_PREFIX, PREFIX);
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(small + PREFIX, sizeof small - PREFIX, fmt, ap);
  va_end(ap);
  char *line = small;
  if (n >= 0 && (size_t)n + PREFIX + 1 >= sizeof small) {
    char *big = malloc((size_t)n + PREFIX + 2);
    if (big) {
      memcpy(big, CW_PREFIX, PREFIX);
      vsnprintf(big + PREFIX, (size_t)n + 1, fmt, again);
      line = big;
    } else {
      n = (int)(sizeof small - PREFIX - 2); /* no memory: the line is cut */
    }
  }
  va_end(again);
  if (n >= 0) {
    size_t len = PREFIX + (size_t)n;
    line[len++] = '\n';
    for (size_t done = 0; done < len;) {
      ssize_t w = write(STDERR_FILENO, line + done, len - done);
      if (w > 0)
        done += (size_t)w;
      else if (w == 0 || errno != EINTR)
        break;
    }
  }
  if (line != small) free(line);
  errno = saved_errno;
}
