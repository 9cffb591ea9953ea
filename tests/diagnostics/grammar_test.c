/* The shared pragma grammar without a compiler: each row is a pragma's
   argument text (lexed by a toy lexer below) and the expected outcome. */
#include "cw_pragma.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const struct {
  const char *args;
  const char *error; /* substring of the error, or NULL for success */
  long long start, count;
  const char *label;
} cases[] = {
  {"(30, 3)", NULL, 30, 3, "step"},
  {"(5, 2, \"eval\")", NULL, 5, 2, "eval"},
  {"(0x10, 010, \"a.b-c_9\")", NULL, 16, 8, "a.b-c_9"},
  {"(0b11, 1'000ull)", NULL, 3, 1000, "step"},
  {"(0, 4611686018427387904)", NULL, 0, 4611686018427387904LL, "step"},
  {"(-1, 3)", "START must be an integer >= 0, got -1", 0, 0, 0},
  {"(1, 0)", "COUNT must be an integer >= 1, got 0", 0, 0, 0},
  {"(1, -0)", "COUNT must be an integer >= 1, got -0", 0, 0, 0},
  {"(2.5, 1)", "START must be an integer >= 0, got 2.5", 0, 0, 0},
  {"(1e3, 1)", "START must be an integer >= 0, got 1e3", 0, 0, 0},
  {"(12abc, 1)", "START must be an integer >= 0, got 12abc", 0, 0, 0},
  {"(4611686018427387905, 1)",
   "START must be an integer from 0 to 4611686018427387904", 0, 0, 0},
  {"(1, 99999999999999999999999)",
   "COUNT must be an integer from 1 to 4611686018427387904, got "
   "99999999999999999999999", 0, 0, 0},
  {"(n, 1)", "START must be an integer >= 0, got 'n'", 0, 0, 0},
  {"(1, 2, \"a b\")",
   "LABEL \"a b\" is invalid: use 1-63 characters of [A-Za-z0-9_.-]", 0, 0, 0},
  {"(1, 2, \"\")", "LABEL \"\" is invalid", 0, 0, 0},
  {"(1, 2, \"123456789012345678901234567890123456789012345678901234567890123\")",
   NULL, 1, 2, "123456789012345678901234567890123456789012345678901234567890123"},
  {"(1, 2, \"1234567890123456789012345678901234567890123456789012345678901234\")",
   "is invalid", 0, 0, 0},
  {"(1, 2, x)", "LABEL must be a string literal such as \"eval\", got 'x'", 0, 0, 0},
  {"(1)", "COUNT is missing", 0, 0, 0},
  {"()", "START is missing", 0, 0, 0},
  {"(1, )", "COUNT is missing", 0, 0, 0},
  {"(1, 2, \"x\", 3)", "too many arguments", 0, 0, 0},
  {"(1, 2", "expected 'capture_window(START, COUNT [, \"LABEL\"])', got end of line", 0, 0, 0},
  {"", "expected 'capture_window(START, COUNT [, \"LABEL\"])', got end of line", 0, 0, 0},
  {"1, 2", "expected 'capture_window(START, COUNT [, \"LABEL\"])', got 1", 0, 0, 0},
  {"(1, 2) x", "expected end of line after", 0, 0, 0},
};

/* Toy lexer: punctuation, numbers/identifiers as runs, "strings". */
static const char *run(const char *args, struct cw_loop_window *out)
{
  static struct cw_pragma_parser p; /* the message lives in it */
  const char *s = args, *err;
  char text[256];
  cw_pragma_init(&p);
  for (;;) {
    enum cw_token_kind kind;
    size_t n = 0;
    while (*s == ' ')
      s++;
    text[0] = '\0';
    if (!*s)
      kind = CW_TOKEN_END;
    else if (strchr("(),-", *s))
      kind = *s == '(' ? CW_TOKEN_OPEN : *s == ')' ? CW_TOKEN_CLOSE
           : *s == ',' ? CW_TOKEN_COMMA : CW_TOKEN_MINUS, s++;
    else if (*s == '"') {
      for (s++; *s && *s != '"'; s++)
        text[n++] = *s;
      text[n] = '\0';
      s += *s == '"';
      kind = CW_TOKEN_STRING;
    } else {
      kind = isdigit((unsigned char)*s) ? CW_TOKEN_NUMBER : CW_TOKEN_OTHER;
      while (*s && !strchr("(),- \"", *s))
        text[n++] = *s++;
      text[n] = '\0';
    }
    if ((err = cw_pragma_feed(&p, kind, text)) || kind == CW_TOKEN_END)
      break;
  }
  return err ? err : cw_pragma_finish(&p, out);
}

int main(void)
{
  int failures = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct cw_loop_window w = {0};
    const char *err = run(cases[i].args, &w);
    int ok = cases[i].error
                 ? err && strstr(err, cases[i].error)
                 : !err && w.start == cases[i].start &&
                       w.count == cases[i].count &&
                       strcmp(w.label, cases[i].label) == 0;
    if (!ok) {
      failures++;
      printf("FAIL capture_window%s: got %s (start %lld count %lld label %s)\n",
             cases[i].args, err ? err : "success", w.start, w.count, w.label);
    }
  }
  printf("%s: %zu cases, %d failures\n", failures ? "FAIL" : "ok",
         sizeof cases / sizeof cases[0], failures);
  return failures != 0;
}
