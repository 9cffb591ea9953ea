/*
 * cw_test.h - what the test programs share.
 *
 * cw_mark(label, i) is the program's own account of its iterations: each
 * marked loop's body starts with it, with a counter the program keeps
 * itself, and the checker requires the mark `label@i` directly inside the
 * runtime's iteration range `label#i`. cw_sleep_us(us) makes a step of a
 * known length.
 */
#ifndef CW_TEST_H
#define CW_TEST_H

#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <time.h>

static inline void cw_mark(const char *label, long i) {
  char text[96];
  snprintf(text, sizeof text, "%s@%ld", label, i);
  nvtxMarkA(text);
}

/* Steps of a known length sleep rather than spin: under CPU contention a
   sleeping thread is woken within microseconds, while a spinning one loses
   whole time slices. */
static inline void cw_sleep_us(long us) {
  struct timespec t = {us / 1000000, (us % 1000000) * 1000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

#endif /* CW_TEST_H */
