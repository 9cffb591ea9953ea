/*
 * cw_test.h - what the test programs share.
 *
 * cw_mark(label, i) is the program's own account of its iterations: each
 * marked loop's body starts with it, with a counter the program keeps
 * itself, and the checker requires the mark `label@i` directly inside the
 * runtime's iteration range `label#i`.
 */
#ifndef CW_TEST_H
#define CW_TEST_H

#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

static inline void cw_mark(const char *label, long i)
{
  char text[96];
  snprintf(text, sizeof text, "%s@%ld", label, i);
  nvtxMarkA(text);
}

#endif /* CW_TEST_H */
