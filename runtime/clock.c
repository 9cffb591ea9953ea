/*
 * clock.c - what the runtime reads of the host for its step times and its
 * log lines: the monotonic clock, the time the calling thread has waited
 * for a CPU, and its id. A leaf: it calls no other file of the runtime.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

long long cw_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

long cw_thread_id(void) {
  return (long)syscall(SYS_gettid);
}

/* The nanoseconds this thread has spent runnable but waiting for a CPU
   (the second field of /proc/thread-self/schedstat), or -1 where Linux
   does not tell. A busy machine's delays are exactly this time, so the
   self-check leaves it out of a step. errno is the program's: kept. */
long long cw_run_delay_ns(void) {
  int saved = errno;
  char text[96];
  long long waited = -1;
  int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n > 0) {
      text[n] = '\0';
      if (sscanf(text, "%*s %lld", &waited) != 1) waited = -1;
    }
  }
  errno = saved;
  return waited;
}
