/*
 * cw_args.h - the arguments of the front doors: the one table of
 * -fplugin-arg-capture_window-KEY[=VALUE], and the one path that finds,
 * rejects and parses them into one struct cw_options (cw_args_take).
 * Every door takes every argument.  A door keeps only how it gets its
 * arguments (GCC's plugin_argument, Clang's ParseArgs strings, the
 * rewriter's command line) and how it reports a message: the callback it
 * passes, through its compiler's diagnostics.  Plain C.
 */
#ifndef CW_ARGS_H
#define CW_ARGS_H

#include <stddef.h>

#include "capture_window/loop_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

enum cw_argument_id {
  CW_ARG_VERBOSE,
  CW_ARG_PORTABLE,
  CW_ARG_ALL_LOOPS,
  CW_ARG_LOOP,
  CW_ARG_LOOP_OPTIONAL,
  CW_ARG_COUNT_
};

/* One -fplugin-arg-capture_window-KEY[=VALUE]. */
struct cw_argument {
  enum cw_argument_id id;
  const char *key;
  const char *value_form; /* "": no value; "=SPEC": one; "[=...]": maybe */
  const char *help;       /* one line, for help texts */
};

/* Every argument, in the order messages list them; index = id. */
extern const struct cw_argument cw_arguments[CW_ARG_COUNT_];

/* "Instrument loops marked with ...\nArguments:\n  ARG  HELP\n...", a
   door's help text. */
const char *cw_format_argument_help(char *buf, size_t size, const char *plugin);

/* One loop=SPEC or loop-optional=SPEC (or the rewriter's --loop SPEC):
   zero-edit marking. */
struct cw_loop_arg {
  struct cw_loop_spec spec;
  char given[CW_LOOP_SPEC_TARGET_MAX + 512]; /* as written, for messages */
  int optional;                              /* loop-optional: no error when it matches nothing */
  int matched;                               /* it marked a loop (or was reported trying) */
  int function_seen;                         /* FUNCTION: a function so named was seen */
  int reported;                              /* an error about it was issued: say it once */
};

/* At the end of a unit: the "'GIVEN' matches no loop in this unit
   (because ...)" error for A, into BUF; NULL when there is none to give
   (it matched, is optional, or was reported). */
const char *cw_format_loop_arg_unmatched(char *buf, size_t size, const struct cw_loop_arg *a);

/* What the arguments ask for: filled by cw_args_take, read by the door. */
struct cw_options {
  int verbose;                            /* verbose */
  int all_loops;                          /* all-loops was given ... */
  struct cw_loop_window all_loops_window; /* ... with this window (no label) */
  struct cw_loop_arg *loop_args;          /* loop[-optional]=SPEC, in order */
  size_t nloop_args, loop_args_cap;
};

/* How a door reports a message about its arguments (an error). */
typedef void (*cw_args_report)(void *context, const char *message);

/* Take the argument -fplugin-arg-PLUGIN-KEY[=VALUE] (VALUE NULL when no
   '=' was given) into *O.  Returns 1, or 0 after reporting through REPORT
   why it is refused: an unknown KEY, a bad value. */
int cw_args_take(struct cw_options *o, const char *plugin, const char *key, const char *value,
                 cw_args_report report, void *context);

/* The same for ARG written "KEY[=VALUE]" (the text after
   -fplugin-arg-PLUGIN-). */
int cw_args_take_text(struct cw_options *o, const char *plugin, const char *arg,
                      cw_args_report report, void *context);

/* Add one loop SPEC given as OPTION then SEP then SPEC (the plugins'
   "-fplugin-arg-...-loop" "=", the rewriter's "--loop" " ").  Returns 1,
   or 0 after reporting the bad value through REPORT. */
int cw_args_add_loop(struct cw_options *o, const char *option, const char *sep, const char *spec,
                     int optional, cw_args_report report, void *context);

/* Free what cw_args_take allocated; *O is empty again. */
void cw_options_dispose(struct cw_options *o);

#ifdef __cplusplus
}
#endif

#endif /* CW_ARGS_H */
