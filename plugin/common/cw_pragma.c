/*
 * cw_pragma.c - the capture_window pragma grammar as a token-fed state
 * machine (see cw_pragma.h).  Plain C11, no compiler headers: the GCC
 * plugin, the Clang plugin and the rewriter all link this one copy.
 */
#include "cw_pragma.h"
#include "cw_messages.h"

#include <stdio.h>
#include <string.h>

enum state {
  S_OPEN,        /* before '(' */
  S_START,       /* before START (or after its '-') */
  S_AFTER_START, /* before ',' */
  S_COUNT,       /* before COUNT (or after its '-') */
  S_AFTER_COUNT, /* before ',' or ')' */
  S_LABEL,       /* before "LABEL" */
  S_AFTER_LABEL, /* before ')' */
  S_END,         /* after ')' */
  S_DONE,        /* end of line seen */
  S_FAILED       /* an error was returned */
};

void cw_pragma_init(struct cw_pragma_parser *p) {
  memset(p, 0, sizeof *p);
  p->state = S_OPEN;
  strcpy(p->value.label, CW_DEFAULT_LABEL);
}

/* How a token is named in "got ..." parts of messages. */
static void describe(char *buf, size_t size, enum cw_token_kind kind, const char *text) {
  static const char *const punct[] = {"'('", "')'", "','", "'-'"};
  switch (kind) {
  case CW_TOKEN_OPEN:
  case CW_TOKEN_CLOSE:
  case CW_TOKEN_COMMA:
  case CW_TOKEN_MINUS:
    snprintf(buf, size, "%s", punct[kind]);
    break;
  case CW_TOKEN_NUMBER:
    snprintf(buf, size, "%.60s", text ? text : "a number");
    break;
  case CW_TOKEN_STRING:
    snprintf(buf, size, "\"%.60s\"", text ? text : "");
    break;
  case CW_TOKEN_OTHER:
    if (text)
      snprintf(buf, size, "'%.60s'", text);
    else
      snprintf(buf, size, "something else");
    break;
  case CW_TOKEN_END:
  default:
    snprintf(buf, size, "end of line");
    break;
  }
}

static const char *fail(struct cw_pragma_parser *p, const char *fmt, const char *a, const char *b) {
  snprintf(p->message, sizeof p->message, fmt, a, b);
  p->state = S_FAILED;
  return p->message;
}

static const char *fail_expected(struct cw_pragma_parser *p, enum cw_token_kind kind,
                                 const char *text) {
  char got[80];
  describe(got, sizeof got, kind, text);
  return fail(p, "expected '%s', got %s", CW_PRAGMA_FORM, got);
}

static int digit_value(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

/* Parse a C/C++ integer literal (decimal, 0x, 0b, octal, ' separators,
   u/l/ll/z suffixes).  Returns 0 on success, -1 if TEXT is not an integer
   literal, 1 if its value exceeds CW_VALUE_MAX. */
static int parse_integer(const char *text, long long *out) {
  const char *s = text;
  unsigned base = 10;
  unsigned long long v = 0;
  int digits = 0, too_big = 0;

  if (!s || !*s) return -1;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s += 2;
  else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    base = 2, s += 2;
  else if (s[0] == '0')
    base = 8;
  for (; *s; s++) {
    unsigned d;
    if (*s == '\'' && digits) continue;
    d = (unsigned)digit_value((unsigned char)*s);
    if (d >= base) break;
    digits++;
    if (v > ((unsigned long long)CW_VALUE_MAX - d) / base)
      too_big = 1;
    else
      v = v * base + d;
  }
  if (!digits) return -1;
  /* Suffix: any order of one u and one l/ll/z, nothing else. */
  {
    int u = 0, l = 0;
    for (; *s; s++) {
      if ((*s == 'u' || *s == 'U') && !u)
        u = 1;
      else if ((*s == 'l' || *s == 'L') && !l)
        l = (s[1] == s[0]) ? (s++, 2) : 1;
      else if ((*s == 'z' || *s == 'Z') && !l)
        l = 3;
      else
        return -1;
    }
  }
  if (too_big) return 1;
  *out = (long long)v;
  return 0;
}

/* START or COUNT: a NUMBER token (after an optional '-'). */
static const char *take_value(struct cw_pragma_parser *p, int is_count, enum cw_token_kind kind,
                              const char *text) {
  const char *name = is_count ? "COUNT" : "START";
  const char *bound = is_count ? "1" : "0";
  char got[80], shown[84];
  long long v = 0;
  int rc = -1;

  describe(got, sizeof got, kind, text);
  snprintf(shown, sizeof shown, "%s%s", p->negative ? "-" : "", got);
  if (kind == CW_TOKEN_NUMBER) rc = parse_integer(text, &v);
  if (rc == 1 && !p->negative) {
    snprintf(p->message, sizeof p->message,
             "capture_window %s must be an integer from %s to %lld, got %s", name, bound,
             CW_VALUE_MAX, shown);
    p->state = S_FAILED;
    return p->message;
  }
  if (rc != 0 || p->negative || v < (is_count ? 1 : 0)) {
    snprintf(p->message, sizeof p->message, "capture_window %s must be an integer >= %s, got %s",
             name, bound, shown);
    p->state = S_FAILED;
    return p->message;
  }
  if (is_count)
    p->value.count = v;
  else
    p->value.start = v;
  p->negative = 0;
  return NULL;
}

static const char *take_label(struct cw_pragma_parser *p, enum cw_token_kind kind,
                              const char *text) {
  char got[80];
  if (kind != CW_TOKEN_STRING) {
    describe(got, sizeof got, kind, text);
    return fail(p, "capture_window LABEL must be a string literal such as \"eval\", got %s", got,
                "");
  }
  if (!cw_label_is_valid_v1(text, strlen(text))) {
    char shown[72];
    snprintf(shown, sizeof shown, "%.64s%s", text, strlen(text) > 64 ? "..." : "");
    return fail(p,
                "capture_window LABEL \"%s\" is invalid: use 1-63 characters of "
                "[A-Za-z0-9_.-]%s",
                shown, "");
  }
  strcpy(p->value.label, text);
  return NULL;
}

/* S_START, S_COUNT: [-]NUMBER. */
static const char *feed_value(struct cw_pragma_parser *p, enum cw_token_kind kind,
                              const char *text) {
  if (kind == CW_TOKEN_MINUS && !p->negative) {
    p->negative = 1;
    return NULL;
  }
  if (kind == CW_TOKEN_CLOSE || kind == CW_TOKEN_END || kind == CW_TOKEN_COMMA)
    return fail(p, "expected '%s': %s is missing", CW_PRAGMA_FORM,
                p->state == S_START ? "START" : "COUNT");
  if (take_value(p, p->state == S_COUNT, kind, text)) return p->message;
  p->state = p->state == S_START ? S_AFTER_START : S_AFTER_COUNT;
  return NULL;
}

/* S_AFTER_START: the comma before COUNT. */
static const char *feed_after_start(struct cw_pragma_parser *p, enum cw_token_kind kind,
                                    const char *text) {
  if (kind == CW_TOKEN_COMMA) {
    p->state = S_COUNT;
    return NULL;
  }
  if (kind == CW_TOKEN_CLOSE) return fail(p, "expected '%s': COUNT is missing", CW_PRAGMA_FORM, "");
  return fail_expected(p, kind, text);
}

/* S_AFTER_COUNT, S_AFTER_LABEL: the closing parenthesis, or the comma
   before LABEL. */
static const char *feed_after_arguments(struct cw_pragma_parser *p, enum cw_token_kind kind,
                                        const char *text) {
  if (kind == CW_TOKEN_CLOSE) {
    p->state = S_END;
    return NULL;
  }
  if (kind == CW_TOKEN_COMMA && p->state == S_AFTER_COUNT) {
    p->state = S_LABEL;
    return NULL;
  }
  if (kind == CW_TOKEN_COMMA)
    return fail(p, "expected '%s': too many arguments", CW_PRAGMA_FORM, "");
  return fail_expected(p, kind, text);
}

/* S_END: the end of the line. */
static const char *feed_end(struct cw_pragma_parser *p, enum cw_token_kind kind, const char *text) {
  char got[80];
  if (kind == CW_TOKEN_END) {
    p->state = S_DONE;
    return NULL;
  }
  describe(got, sizeof got, kind, text);
  return fail(p, "expected end of line after '%s', got %s", CW_PRAGMA_FORM, got);
}

const char *cw_pragma_feed(struct cw_pragma_parser *p, enum cw_token_kind kind, const char *text) {
  switch (p->state) {
  case S_OPEN:
    if (kind != CW_TOKEN_OPEN) return fail_expected(p, kind, text);
    p->state = S_START;
    return NULL;

  case S_START:
  case S_COUNT:
    return feed_value(p, kind, text);

  case S_AFTER_START:
    return feed_after_start(p, kind, text);

  case S_AFTER_COUNT:
  case S_AFTER_LABEL:
    return feed_after_arguments(p, kind, text);

  case S_LABEL:
    if (take_label(p, kind, text)) return p->message;
    p->state = S_AFTER_LABEL;
    return NULL;

  case S_END:
    return feed_end(p, kind, text);

  case S_DONE:
    return fail(p, "expected end of line after '%s'%s", CW_PRAGMA_FORM, "");

  case S_FAILED:
  default:
    return p->message[0] ? p->message : "capture_window: parser misuse";
  }
}

const char *cw_pragma_finish(struct cw_pragma_parser *p, struct cw_loop_window *out) {
  if (p->state == S_FAILED) return p->message;
  if (p->state != S_DONE) {
    snprintf(p->message, sizeof p->message, "expected '%s'", CW_PRAGMA_FORM);
    return p->message;
  }
  *out = p->value;
  return NULL;
}

/* Lower-case C. */
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

int cw_pragma_name_near_miss(const char *name, size_t length) {
  /* Damerau-Levenshtein (optimal string alignment) distance, three rows. */
  enum { MAX_EDITS = 2, LONGEST = sizeof CW_PRAGMA_NAME + MAX_EDITS };
  const char *want = CW_PRAGMA_NAME;
  size_t m = sizeof CW_PRAGMA_NAME - 1, i, j;
  unsigned rows[3][sizeof CW_PRAGMA_NAME], *two = rows[0], *one = rows[1], *cur = rows[2];
  if (length + MAX_EDITS < m || length > LONGEST || (length == m && strncmp(name, want, m) == 0))
    return 0;
  for (j = 0; j <= m; j++) one[j] = (unsigned)j;
  for (i = 1; i <= length; i++) {
    cur[0] = (unsigned)i;
    for (j = 1; j <= m; j++) {
      unsigned cost = lower(name[i - 1]) != want[j - 1];
      unsigned best = one[j - 1] + cost;
      if (one[j] + 1 < best) best = one[j] + 1;
      if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
      if (i > 1 && j > 1 && lower(name[i - 1]) == want[j - 2] &&
          lower(name[i - 2]) == want[j - 1] && two[j - 2] + 1 < best)
        best = two[j - 2] + 1;
      cur[j] = best;
    }
    unsigned *t = two;
    two = one, one = cur, cur = t;
  }
  return one[m] <= MAX_EDITS;
}
