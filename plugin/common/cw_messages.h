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
  CW_MSG_COUNT_
};

const char *cw_message(enum cw_message_id id);

/* "unknown argument '-fplugin-arg-PLUGIN-KEY' ..." */
const char *cw_format_unknown_argument(char *buf, size_t size,
                                       const char *plugin, const char *key,
                                       const char *value);

/* "bad value 'VALUE' for '-fplugin-arg-PLUGIN-all-loops' (expected ...)" */
const char *cw_format_bad_all_loops(char *buf, size_t size,
                                    const char *plugin, const char *value);

/* The verbose note for one instrumented loop.  LOOP_KIND is "for",
   "while" or "do"; FILE and LINE are the pragma's. */
const char *cw_format_loop_note(char *buf, size_t size, const char *loop_kind,
                                const char *label, long long start,
                                long long count, const char *file,
                                unsigned line, const char *function);

#ifdef __cplusplus
}
#endif

#endif /* CW_MESSAGES_H */
