/*
 * cw_messages.h - the words every front door prints, so that the GCC
 * plugin, the Clang plugin and the rewriter say the same thing about the
 * same mistake.  Fixed texts come from cw_message(); texts with values are
 * formatted here into the caller's buffer.  Front doors print them through
 * their compiler's diagnostics (e.g. GCC: error_at (loc, "%s", text)).
 */
#ifndef CW_MESSAGES_H
#define CW_MESSAGES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The form the grammar accepts, as quoted in messages. */
#define CW_PRAGMA_FORM "capture_window(START, COUNT [, \"LABEL\"])"

enum cw_message_id {
  CW_MSG_NOT_FOLLOWED_BY_LOOP, /* error at the pragma */
  CW_MSG_OUTSIDE_FUNCTION,     /* error at the pragma */
  CW_MSG_TWO_PRAGMAS,          /* error at the second pragma */
  CW_MSG_FIRST_PRAGMA_HERE,    /* note at the first pragma */
  CW_MSG_OPENMP_LOOP,          /* error at the pragma */
  CW_MSG_BODY_ENTERED,         /* error at the pragma: goto/case into the body */
  CW_MSG_BODY_SUSPENDS,        /* error at the pragma: co_await/co_yield (GCC) */
  CW_MSG_PRAGMA_HERE,          /* note at a pragma a loop spec also marks */
  CW_MSG_COUNT_
};

const char *cw_message(enum cw_message_id id);

/* all-loops, verbose: "capture_window: loop "LABEL" not instrumented: its
   body can be entered ... from outside" */
const char *cw_format_loop_left_alone(char *buf, size_t size, const char *label);

/* "bad value 'VALUE' for '-fplugin-arg-PLUGIN-all-loops': REASON
   (expected ...)" */
const char *cw_format_bad_all_loops(char *buf, size_t size, const char *plugin, const char *value,
                                    const char *reason);

/* Warning at a pragma whose NAME is a near miss (cw_pragma_name_near_miss):
   "unknown pragma 'NAME' ignored; did you mean '#pragma capture_window(...)'?" */
const char *cw_format_pragma_near_miss(char *buf, size_t size, const char *name);

/* Zero-edit marking (capture_window/loop_spec.h).  GIVEN is the argument as the user
   wrote it: "-fplugin-arg-capture_window-loop=train.c:42", "--loop ...". */

/* "bad value 'SPEC' for 'OPTION': REASON (expected ...)" */
const char *cw_format_bad_loop_spec(char *buf, size_t size, const char *option, const char *spec,
                                    const char *reason);

enum cw_unmatched {
  CW_UNMATCHED_NO_LOOP,            /* FILE:LINE: no loop keyword there */
  CW_UNMATCHED_NO_FUNCTION,        /* FUNCTION: no such function defined */
  CW_UNMATCHED_NO_LOOP_IN_FUNCTION /* FUNCTION: defined, without a loop */
};

/* "capture_window: 'GIVEN' matches no loop in this unit (...)"; a front
   door asks cw_format_loop_arg_unmatched (cw_args.h), which picks WHY. */
const char *cw_format_loop_unmatched(char *buf, size_t size, const char *given,
                                     enum cw_unmatched why, const char *target, unsigned line);

/* Error at a second outermost loop of FUNCTION (a note at the first). */
const char *cw_format_loop_ambiguous(char *buf, size_t size, const char *given,
                                     const char *function);

/* Error at a loop that also has a pragma (CW_MSG_PRAGMA_HERE at it). */
const char *cw_format_loop_has_pragma(char *buf, size_t size, const char *given);

/* Error at a loop two arguments mark. */
const char *cw_format_loop_marked_twice(char *buf, size_t size, const char *given,
                                        const char *other);

/* The verbose note for one instrumented loop.  LOOP_KIND is "for",
   "while" or "do"; FILE and LINE are the pragma's. */
const char *cw_format_loop_note(char *buf, size_t size, const char *loop_kind, const char *label,
                                long long start, long long count, const char *file, unsigned line,
                                const char *function);

#ifdef __cplusplus
}
#endif

#endif /* CW_MESSAGES_H */
