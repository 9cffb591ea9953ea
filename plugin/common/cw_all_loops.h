/*
 * cw_all_loops.h - what every front door shares for the all-loops mode
 * (-fplugin-arg-capture_window-all-loops[=START:COUNT]): the grammar of
 * its value and the rule that names a loop nobody labelled.
 *
 * Label rule: FUNCTION.LINE, FUNCTION being the enclosing function's
 * unqualified name as the compiler prints it and LINE the line of the
 * loop's keyword.  Each run of characters outside [A-Za-z0-9_.-] becomes
 * one '_' (C++ `operator()` gives `operator_`, `~Buffer` gives `_Buffer`),
 * and FUNCTION is cut so that the whole label fits in 63 characters; the
 * `.LINE` suffix is always kept whole.  Loops of one function on one line
 * share a label; CAPTURE_WINDOW_LOOPS=FILE:LINE selects them the same way.
 */
#ifndef CW_ALL_LOOPS_H
#define CW_ALL_LOOPS_H

#include "cw_pragma.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The window when the argument has no value: the first iteration of every
   loop, so that every loop opens and closes one window. */
#define CW_ALL_LOOPS_DEFAULT_START 0
#define CW_ALL_LOOPS_DEFAULT_COUNT 1

/* Parse "START:COUNT" (START from 0 and COUNT from 1 to CW_VALUE_MAX, by
   the engine's number rule).  NULL VALUE gives the default window.
   Returns NULL and fills *START, *COUNT, or the reason the value is bad,
   written into BUF. */
const char *cw_parse_all_loops_value(const char *value, long long *start, long long *count,
                                     char *buf, size_t size);

/* Write the label of a loop at LINE in FUNCTION (NULL or empty: "loop")
   into OUT, which holds CW_LABEL_MAX + 1 characters. */
void cw_auto_label(char *out, const char *function, unsigned line);

#ifdef __cplusplus
}
#endif

#endif /* CW_ALL_LOOPS_H */
