/* cw_all_loops.c - see cw_all_loops.h. */
#include "cw_all_loops.h"

#include <stdio.h>
#include <string.h>

const char *cw_parse_all_loops_value(const char *value, long long *start, long long *count,
                                     char *buf, size_t size) {
  const char *colon = value ? strchr(value, ':') : NULL;
  if (!value) {
    *start = CW_ALL_LOOPS_DEFAULT_START;
    *count = CW_ALL_LOOPS_DEFAULT_COUNT;
    return NULL;
  }
  if (!colon) {
    snprintf(buf, size, "START must be followed by :COUNT");
    return buf;
  }
  /* The engine's number rule and words (capture_window/loop_spec.h). */
  if (cw_number_parse_v1(value, (size_t)(colon - value), "START", 0, CW_VALUE_MAX, start, buf,
                         size))
    return buf;
  return cw_number_parse_v1(colon + 1, strlen(colon + 1), "COUNT", 1, CW_VALUE_MAX, count, buf,
                            size);
}

/* C may stand in a label: the label rule (capture_window/loop_spec.h)
   on the one-character label C. */
static int is_label_char(char c) { return cw_label_is_valid_v1(&c, 1); }

void cw_auto_label(char *out, const char *function, unsigned line) {
  char suffix[16];
  int n = snprintf(suffix, sizeof suffix, ".%u", line);
  size_t room = CW_LABEL_MAX - (size_t)n, len = 0;

  if (!function || !*function) function = "loop";
  for (const char *c = function; *c && len < room; c++) {
    if (is_label_char(*c))
      out[len++] = *c;
    else if (len == 0 || out[len - 1] != '_' || is_label_char(c[-1]))
      out[len++] = '_';
  }
  memcpy(out + len, suffix, (size_t)n + 1);
}
