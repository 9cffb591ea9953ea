/*
 * capture_window/loop_spec.h - the loop spec, version 1: how a marked
 * loop is named without a pragma, and the rules every front door shares
 * for it.  One engine (runtime/loop_spec.c) serves them all: the GCC and
 * Clang plugins and the rewriter link a copy, libcapture_window exports
 * it (CAPTURE_WINDOW_LOOPS matches sites with it, and the Python door
 * parses `--loop` and matches modules and functions with it through
 * ctypes).  abi.h stays the ABI that instrumented code calls.
 *
 *   FILE:LINE[:START:COUNT[:LABEL]]   the loop whose keyword is on LINE of
 *                                     a file whose path ends in FILE at a
 *                                     '/' (train.c matches src/train.c,
 *                                     not mytrain.c; a leading "./" is
 *                                     dropped)
 *   FUNCTION[:START:COUNT[:LABEL]]    the outermost loop of each function
 *                                     so named
 *
 * The two languages differ only in how a FUNCTION is written:
 *
 *   CW_LOOP_SPEC_C       a C name or a C++ qualified one, ns::Trainer::fit,
 *                        matching the trailing scopes of the function's
 *                        qualified name (fit, Trainer::fit); a target
 *                        holding '.' or '/' is a FILE
 *   CW_LOOP_SPEC_PYTHON  a dotted Python name, Trainer.fit or
 *                        pkg.mod.Trainer.fit, matching the trailing names
 *                        of MODULE.QUALNAME; a target holding '/' or
 *                        ending in ".py" is a FILE
 *
 * START, COUNT and LABEL are the pragma's (0 <= START, 1 <= COUNT, both
 * at most CW_VALUE_MAX; LABEL [A-Za-z0-9_.-]{1,63}); without them the
 * window is 0:1 and the label "step".
 */
#ifndef CAPTURE_WINDOW_LOOP_SPEC_H
#define CAPTURE_WINDOW_LOOP_SPEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CW_LOOP_SPEC_VERSION 1

#define CW_DEFAULT_LABEL "step"
#define CW_LABEL_MAX 63
/* Bound on START and COUNT: 2^62, so START + COUNT never overflows. */
#define CW_VALUE_MAX (1LL << 62)
#define CW_LOOP_SPEC_TARGET_MAX 512

/* The form every message shows. */
#define CW_LOOP_SPEC_FORM "FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]]"

#ifndef CW_LOOP_SPEC_EXPORT
#define CW_LOOP_SPEC_EXPORT __attribute__((visibility("default")))
#endif

enum cw_loop_spec_language { CW_LOOP_SPEC_C = 0, CW_LOOP_SPEC_PYTHON = 1 };

/* A marked loop's window and label: a pragma's values. */
struct cw_loop_window {
  long long start;
  long long count;
  char label[CW_LABEL_MAX + 1];
};

struct cw_loop_spec {
  int language;                         /* enum cw_loop_spec_language */
  int by_function;                      /* FUNCTION form, else FILE */
  unsigned line;                        /* FILE form */
  struct cw_loop_window window;         /* defaults filled in */
  char target[CW_LOOP_SPEC_TARGET_MAX]; /* FILE suffix or FUNCTION name */
};

/* Parse SPEC, written in LANGUAGE, into *OUT.  Returns NULL, or a message
   saying what is wrong with it (written into BUF). */
CW_LOOP_SPEC_EXPORT const char *cw_loop_spec_parse_v1(const char *spec, int language,
                                                      struct cw_loop_spec *out, char *buf,
                                                      size_t size);

/* 1 if PATH ends in SPEC's FILE at a path-component boundary. */
CW_LOOP_SPEC_EXPORT int cw_loop_spec_file_matches_v1(const struct cw_loop_spec *spec,
                                                     const char *path);

/* 1 if QUALIFIED (C: scopes joined by "::", no template arguments;
   Python: MODULE.QUALNAME) is SPEC's FUNCTION or ends in a separator
   followed by it. */
CW_LOOP_SPEC_EXPORT int cw_loop_spec_function_matches_v1(const struct cw_loop_spec *spec,
                                                         const char *qualified);

/* The FILE rule alone: 1 if PATH ends in SUFFIX at a '/' (or is it). */
CW_LOOP_SPEC_EXPORT int cw_path_ends_in_v1(const char *path, const char *suffix);

/* 1 if the first LENGTH characters of LABEL match [A-Za-z0-9_.-]{1,63}. */
CW_LOOP_SPEC_EXPORT int cw_label_is_valid_v1(const char *label, size_t length);

/* CW_LOOP_SPEC_FORM, for the doors that cannot include this header (Python). */
CW_LOOP_SPEC_EXPORT const char *cw_loop_spec_form_v1(void);

/* The one number rule of every door (START, COUNT, LINE, RANK, ... in
   specs, plugin arguments, environment variables and Python): the LENGTH
   characters at TEXT are decimal digits, no sign, no space, making a
   value in [MIN, MAX] (MAX at most CW_VALUE_MAX).  Returns NULL and sets
   *OUT, or the one message for a number out of the rule, written into
   BUF: "NAME must be a decimal number from MIN to MAX", MAX written 2^62
   when it is CW_VALUE_MAX and NAME "it" when NULL. */
CW_LOOP_SPEC_EXPORT const char *cw_number_parse_v1(const char *text, size_t length,
                                                   const char *name, long long min, long long max,
                                                   long long *out, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* CAPTURE_WINDOW_LOOP_SPEC_H */
