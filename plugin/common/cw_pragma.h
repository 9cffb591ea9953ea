/*
 * cw_pragma.h - the capture_window pragma grammar, shared by every front
 * door (GCC plugin, Clang plugin, source rewriter).
 *
 *   capture_window ( START , COUNT [, "LABEL"] )
 *
 * START >= 0 and COUNT >= 1 are integer constants no larger than
 * CW_VALUE_MAX; LABEL matches [A-Za-z0-9_.-]{1,63} and defaults to "step".
 *
 * The parser knows nothing of any compiler: the front door lexes the
 * pragma's tokens after macro expansion (the pragma name already consumed)
 * and feeds them one by one, ending with CW_TOKEN_END:
 *
 *   struct cw_pragma_parser p;
 *   struct cw_loop_window window;
 *   const char *err;
 *   cw_pragma_init(&p);
 *   while (!(err = cw_pragma_feed(&p, kind, text)) && kind != CW_TOKEN_END)
 *     ... next token ...
 *   if (!err)
 *     err = cw_pragma_finish(&p, &window);
 *
 * A non-NULL result is the complete error message (valid until the next
 * call on that parser); report it at the token just fed and stop feeding.
 */
#ifndef CW_PRAGMA_H
#define CW_PRAGMA_H

/* CW_LABEL_MAX, CW_VALUE_MAX, the label rule and struct cw_loop_window. */
#include "capture_window/loop_spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CW_PRAGMA_NAME "capture_window"

enum cw_token_kind {
  CW_TOKEN_OPEN,   /* ( */
  CW_TOKEN_CLOSE,  /* ) */
  CW_TOKEN_COMMA,  /* , */
  CW_TOKEN_MINUS,  /* - */
  CW_TOKEN_NUMBER, /* text: the literal's spelling, e.g. "30", "0x10", "2.5" */
  CW_TOKEN_STRING, /* text: the characters between the quotes */
  CW_TOKEN_OTHER,  /* text: the spelling, for messages (may be NULL) */
  CW_TOKEN_END     /* end of the pragma line; text unused */
};

/* Parser state; treat as opaque. */
struct cw_pragma_parser {
  int state;
  int negative;
  struct cw_loop_window value;
  char message[256];
};

void cw_pragma_init(struct cw_pragma_parser *parser);

/* Feed one token.  Returns NULL, or the error message for this token. */
const char *cw_pragma_feed(struct cw_pragma_parser *parser, enum cw_token_kind kind,
                           const char *text);

/* After CW_TOKEN_END was accepted: fill *out and return NULL.  Otherwise
   return the message saying what is missing. */
const char *cw_pragma_finish(struct cw_pragma_parser *parser, struct cw_loop_window *out);

/* 1 if NAME, the first LENGTH characters, names a pragma that no one
   handles and is a near miss of CW_PRAGMA_NAME: at most two edits away
   (a letter added, dropped, changed, or two swapped), letter case aside
   (capture_windows, capturewindow, CAPTURE_WINDOW, caputre_window).  The
   front doors then warn (cw_format_pragma_near_miss): without the plugin's
   pragma, the loop runs unmarked. */
int cw_pragma_name_near_miss(const char *name, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* CW_PRAGMA_H */
