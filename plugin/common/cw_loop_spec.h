/*
 * cw_loop_spec.h - zero-edit marking: the grammar of a loop named on the
 * command line instead of by a pragma, shared by every front door
 * (-fplugin-arg-capture_window-loop=SPEC for both plugins, --loop SPEC for
 * the rewriter).
 *
 *   FILE:LINE[:START:COUNT[:LABEL]]   the loop whose keyword (for, while,
 *                                     do) is on LINE of a file whose path
 *                                     ends in FILE at a '/' (train.c
 *                                     matches src/train.c, not
 *                                     mytrain.c): CAPTURE_WINDOW_LOOPS's
 *                                     rule
 *   FUNCTION[:START:COUNT[:LABEL]]    the outermost loop of each function
 *                                     so named: a C name or a C++
 *                                     qualified one (ns::Trainer::fit),
 *                                     which matches the trailing scopes
 *                                     of the function's qualified name
 *                                     (fit and Trainer::fit match
 *                                     ns::Trainer::fit)
 *
 * A target holding '.' or '/' is a FILE, any other a FUNCTION.  START,
 * COUNT and LABEL are the pragma's (START >= 0, COUNT >= 1, LABEL
 * [A-Za-z0-9_.-]{1,63}); without them the window is 0:1 and the label
 * "step", as with all-loops: move the window at run time with
 * CAPTURE_WINDOW=START:COUNT or auto:COUNT.
 */
#ifndef CW_LOOP_SPEC_H
#define CW_LOOP_SPEC_H

#include <stddef.h>

#include "cw_pragma.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The form of every message: "train.c:42", "fit:30:3:train". */
#define CW_LOOP_SPEC_FORM \
  "FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]]"

#define CW_LOOP_SPEC_TARGET_MAX 512

struct cw_loop_spec {
  int by_function;                        /* FUNCTION form, else FILE */
  char target[CW_LOOP_SPEC_TARGET_MAX];   /* FILE suffix or FUNCTION name */
  unsigned line;                          /* FILE form */
  struct cw_pragma window;                /* defaults filled in */
};

/* Parse SPEC into *OUT.  Returns NULL, or a message saying what is wrong
   with it (written into BUF). */
const char *cw_loop_spec_parse(const char *spec, struct cw_loop_spec *out,
                               char *buf, size_t size);

/* 1 if PATH ends in SPEC's FILE at a path-component boundary. */
int cw_loop_spec_file_matches(const struct cw_loop_spec *spec,
                              const char *path);

/* 1 if QUALIFIED (a function's scopes and name joined by "::", no template
   arguments) is SPEC's FUNCTION or ends in "::" followed by it. */
int cw_loop_spec_function_matches(const struct cw_loop_spec *spec,
                                  const char *qualified);

#ifdef __cplusplus
}
#endif

#endif /* CW_LOOP_SPEC_H */
