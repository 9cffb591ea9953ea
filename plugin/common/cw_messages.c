/* cw_messages.c - see cw_messages.h. */
#include "cw_messages.h"
#include "cw_pragma.h"
#include "capture_window/loop_spec.h"

#include <stdio.h>

static const char *const messages[CW_MSG_COUNT_] = {
    [CW_MSG_NOT_FOLLOWED_BY_LOOP] =
        "capture_window pragma must be followed by a for, while or do loop",
    [CW_MSG_OUTSIDE_FUNCTION] = "capture_window pragma outside a function",
    [CW_MSG_TWO_PRAGMAS] = "two capture_window pragmas on one loop",
    [CW_MSG_FIRST_PRAGMA_HERE] = "the first capture_window pragma is here",
    [CW_MSG_OPENMP_LOOP] = "capture_window cannot mark an OpenMP or OpenACC loop construct; "
                           "mark a plain loop around or inside it",
    [CW_MSG_BODY_ENTERED] = "the body of a capture_window loop must not be entered by a goto or a "
                            "case label from outside the loop",
    [CW_MSG_BODY_SUSPENDS] = "the body of a capture_window loop must not suspend a coroutine "
                             "(co_await, co_yield): resuming would enter it from outside",
    [CW_MSG_PRAGMA_HERE] = "the loop's capture_window pragma is here",
};

const char *cw_message(enum cw_message_id id) {
  if ((unsigned)id >= CW_MSG_COUNT_) return "capture_window: internal message error";
  return messages[id];
}

const char *cw_format_loop_left_alone(char *buf, size_t size, const char *label) {
  snprintf(buf, size,
           "capture_window: loop \"%s\" not instrumented: its body can be "
           "entered by a goto or a case label from outside",
           label);
  return buf;
}

const char *cw_format_pragma_near_miss(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "unknown pragma '%s' ignored; did you mean '#pragma " CW_PRAGMA_FORM "'?",
           name);
  return buf;
}

const char *cw_format_bad_all_loops(char *buf, size_t size, const char *plugin, const char *value,
                                    const char *reason) {
  snprintf(buf, size,
           "bad value '%s' for '-fplugin-arg-%s-all-loops': %s (expected "
           "START:COUNT, e.g. '-fplugin-arg-%s-all-loops=0:1')",
           value, plugin, reason, plugin);
  return buf;
}

const char *cw_format_loop_note(char *buf, size_t size, const char *loop_kind, const char *label,
                                long long start, long long count, const char *file, unsigned line,
                                const char *function) {
  snprintf(buf, size,
           "capture_window: %s loop at %s:%u in '%s' instrumented, "
           "label \"%s\", window %lld:%lld (iterations %lld to %lld)",
           loop_kind, file, line, function, label, start, count, start, start + count - 1);
  return buf;
}

const char *cw_format_bad_loop_spec(char *buf, size_t size, const char *option, const char *spec,
                                    const char *reason) {
  snprintf(buf, size,
           "bad value '%s' for '%s': %s (expected " CW_LOOP_SPEC_FORM
           ", e.g. 'train.c:42:30:3' or 'ns::Trainer::fit:30:3:train')",
           spec ? spec : "", option, reason);
  return buf;
}

const char *cw_format_loop_unmatched(char *buf, size_t size, const char *given,
                                     enum cw_unmatched why, const char *target, unsigned line) {
  int n = snprintf(buf, size,
                   "capture_window: '%s' matches no loop in this "
                   "unit",
                   given);
  if (n < 0 || (size_t)n >= size) return buf;
  if (why == CW_UNMATCHED_NO_LOOP)
    snprintf(buf + n, size - (size_t)n,
             " (no for, while or do loop starts "
             "on line %u of a file whose path ends in '%s')",
             line, target);
  else if (why == CW_UNMATCHED_NO_FUNCTION)
    snprintf(buf + n, size - (size_t)n,
             " (no function named '%s' is defined "
             "in it)",
             target);
  else
    snprintf(buf + n, size - (size_t)n,
             " (the functions named '%s' hold no "
             "loop)",
             target);
  return buf;
}

const char *cw_format_loop_ambiguous(char *buf, size_t size, const char *given,
                                     const char *function) {
  snprintf(buf, size,
           "capture_window: '%s' names '%s', which has more than "
           "one outermost loop; name the loop with FILE:LINE",
           given, function);
  return buf;
}

const char *cw_format_loop_has_pragma(char *buf, size_t size, const char *given) {
  snprintf(buf, size,
           "capture_window: '%s' marks a loop that has a "
           "capture_window pragma; keep one of the two",
           given);
  return buf;
}

const char *cw_format_loop_marked_twice(char *buf, size_t size, const char *given,
                                        const char *other) {
  snprintf(buf, size, "capture_window: '%s' and '%s' mark the same loop", other, given);
  return buf;
}
