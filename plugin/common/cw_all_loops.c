/* cw_all_loops.c - see cw_all_loops.h. */
#include "cw_all_loops.h"

#include <stdio.h>
#include <string.h>

/* A decimal integer in [MIN, CW_VALUE_MAX] filling [s, end). */
static int parse_bounded(const char *s, const char *end, long long min, long long *out) {
  long long v = 0;
  if (s == end) return 0;
  for (; s < end; s++) {
    if (*s < '0' || *s > '9') return 0;
    v = v * 10 + (*s - '0');
    if (v > CW_VALUE_MAX) return 0;
  }
  if (v < min) return 0;
  *out = v;
  return 1;
}

int cw_parse_all_loops_value(const char *value, long long *start, long long *count) {
  if (!value) {
    *start = CW_ALL_LOOPS_DEFAULT_START;
    *count = CW_ALL_LOOPS_DEFAULT_COUNT;
    return 1;
  }
  const char *colon = strchr(value, ':');
  return colon && parse_bounded(value, colon, 0, start) &&
         parse_bounded(colon + 1, colon + strlen(colon), 1, count);
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
