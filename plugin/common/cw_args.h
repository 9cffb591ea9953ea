/*
 * cw_args.h - the arguments of the front doors and what they share about
 * them: the one table of -fplugin-arg-capture_window-KEY[=VALUE] (which
 * door takes which), the record of one loop=SPEC, and the messages about
 * arguments.  Each door keeps its own mechanics: how it reads its
 * arguments (GCC's plugin_argument, Clang's ParseArgs strings, the
 * rewriter's command line) and how it reports a diagnostic.  Plain C.
 */
#ifndef CW_ARGS_H
#define CW_ARGS_H

#include <stddef.h>

#include "capture_window/loop_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The front doors, as bits of cw_argument.doors. */
enum cw_door {
  CW_DOOR_GCC = 1,    /* plugin/gcc */
  CW_DOOR_CLANG = 2,  /* plugin/clang */
  CW_DOOR_REWRITE = 4 /* plugin/rewrite, among the compiler flags after -- */
};

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
  unsigned doors;         /* the enum cw_door bits of the doors taking it */
  const char *help;       /* one line, for help texts */
};

/* Every argument, in the order messages list them; index = id. */
extern const struct cw_argument cw_arguments[CW_ARG_COUNT_];

/* The argument KEY is for DOOR, or NULL.  HAS_VALUE: '=VALUE' was given
   (an argument of no value form takes none; the others judge their
   values themselves: a missing SPEC is a bad SPEC). */
const struct cw_argument *cw_find_argument(enum cw_door door, const char *key, int has_value);

/* "'-fplugin-arg-PLUGIN-verbose', ... and
   '-fplugin-arg-PLUGIN-loop-optional=SPEC'": the arguments DOOR takes. */
const char *cw_format_argument_list(char *buf, size_t size, enum cw_door door, const char *plugin);

/* "unknown argument '-fplugin-arg-PLUGIN-KEY[=VALUE]' for plugin PLUGIN
   (the arguments are LIST)", LIST the arguments DOOR takes; VALUE NULL
   when no '=' was given. */
const char *cw_format_unknown_argument(char *buf, size_t size, enum cw_door door,
                                       const char *plugin, const char *key, const char *value);

/* "Instrument loops marked with ...\nArguments:\n  ARG  HELP\n..." for
   DOOR's help text. */
const char *cw_format_argument_help(char *buf, size_t size, enum cw_door door, const char *plugin);

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

/* Parse SPEC, given as OPTION (e.g. "-fplugin-arg-capture_window-loop")
   then SEP ("=" or " ") then SPEC, into *A (cleared first).  NULL when it
   parses; else the bad-value message, formatted into MSG. */
const char *cw_loop_arg_parse(struct cw_loop_arg *a, const char *option, const char *sep,
                              const char *spec, int optional, char *msg, size_t size);

/* At the end of a unit: the "'GIVEN' matches no loop in this unit
   (because ...)" error for A, into BUF; NULL when there is none to give
   (it matched, is optional, or was reported). */
const char *cw_format_loop_arg_unmatched(char *buf, size_t size, const struct cw_loop_arg *a);

#ifdef __cplusplus
}
#endif

#endif /* CW_ARGS_H */
