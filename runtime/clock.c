/*
 * clock.c - what the runtime reads of the host for its step times and its
 * log lines: the monotonic clock and the calling thread's id. A leaf: it
 * calls no other file of the runtime.
 */
#define _GNU_SOURCE
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
