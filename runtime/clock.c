/*
 * clock.c - what the runtime reads of the host for its step times and its
 * log lines: the monotonic clock, the step clock (internal.h), the time
 * the calling thread has waited for a CPU, and its id. A leaf: it calls
 * no other file of the runtime.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

long long cw_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

bool cw_step_clock_tsc;
double cw_tick_ns = 1;
/* A moment read on both clocks: ticks are converted to nanoseconds by the
   rate between it and the moment of the conversion. */
static long long anchor_ticks, anchor_ns;
/* The shortest span a rate is taken over: its error is about two clock
   reads (40 ns) over the span, 2e-4. */
#define CALIBRATION_NS 200000LL

#if defined(__x86_64__)
/* Whether Linux keeps its time with the TSC: then it found the counter
   invariant and synchronized across CPUs, and so may we. */
static bool clocksource_is_tsc(void) {
  char name[16] = {0};
  int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, name, sizeof name - 1);
  close(fd);
  return n == 4 && memcmp(name, "tsc\n", 4) == 0;
}
#endif

void cw_step_clock_start(void) {
#if defined(__x86_64__)
  int saved = errno;
  cw_step_clock_tsc = clocksource_is_tsc();
  errno = saved;
  if (!cw_step_clock_tsc) return;
  anchor_ns = cw_now_ns();
  anchor_ticks = cw_ticks();
  /* cw_tick_ns, a rate before any step is converted (times.c's flush age,
     spike's thresholds). */
  while (cw_now_ns() - anchor_ns < CALIBRATION_NS) {
  }
  cw_tick_ns = cw_ns_per_tick();
#endif
}

double cw_ns_per_tick(void) {
  if (!cw_step_clock_tsc) return 1;
  long long ticks = cw_ticks(), ns = cw_now_ns();
  return (double)(ns - anchor_ns) / (double)(ticks - anchor_ticks);
}

long cw_thread_id(void) { return (long)syscall(SYS_gettid); }

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
