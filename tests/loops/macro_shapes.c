/* Marked loops built by macros, in each shape the preprocessor has:
   parameters, # and ##, variadic macros with GNU's `, ## __VA_ARGS__` and
   with __VA_OPT__ (each with and without a variadic argument), an
   object-like macro, a macro built from another.  Every front door marks them (the rewriter by
   expanding the use in its copy) and the program prints the same as
   without: a wrong #, ## or variadic expansion changes what it prints. */
// cw-run:
// cw-expect: each#0(.) S each[ each#1..2(.) ] E
// cw-expect: show#0(.) S show[ show#1(.) ] E S plain[ plain#0(.) ] E plain#1(.)
// cw-expect: opt#0(.) S opt[ opt#1(.) ] E S none[ none#0(.) ] E none#1(.)
// cw-expect: steps#0(.) S steps[ steps#1(.) ] E steps#2(.)
// cw-expect: ever#0..1(.) S ever[ ever#2(.) ] E ever#3(.)
// cw-expect: S twice[ twice#0(.) ] E twice#1(.)
#include "cw_test.h"

#define EACH(type, var, n) for (type var = 0; var < (n); var++)
#define SHOW(label, x, fmt, ...)                                                                  \
  for (int s_ = 0; s_ < 2; s_++) {                                                                \
    cw_mark(label, s_);                                                                           \
    printf(#x " = " fmt "\n", x, ## __VA_ARGS__);                                                \
  }
#define COUNTER(name, n)                                                                          \
  for (int name##_i = 0; name##_i < (n); name##_i++) {                                            \
    cw_mark(#name, name##_i);                                                                     \
    total += name##_i;                                                                            \
  }
#ifndef __STRICT_ANSI__
#define OPTIONAL(label, n, fmt, ...)                                                              \
  for (int o_ = 0; o_ < (n); o_++) {                                                              \
    cw_mark(label, o_);                                                                           \
    printf("%d" fmt "\n", o_ __VA_OPT__(, ) __VA_ARGS__);                                         \
  }
#endif
#define FOREVER for (;;)
#define TWICE(stmt) EACH(int, t_, 2) stmt

int main(void)
{
  long total = 0;
  int n = 0, k = 0;
#pragma capture_window(1, 2, "each")
  EACH(long, j, 3) { cw_mark("each", j); total += j; }
#pragma capture_window(1, 1, "show")
  SHOW("show", total * 2, "%ld (%s)", "twice");
#ifndef __STRICT_ANSI__ /* GNU's elision and __VA_OPT__: -pedantic flags them in ISO modes */
#pragma capture_window(0, 1, "plain")
  SHOW("plain", total, "%ld");
#pragma capture_window(1, 1, "opt")
  OPTIONAL("opt", 2, " %s", "given");
#pragma capture_window(0, 1, "none")
  OPTIONAL("none", 2, "");
#endif
#pragma capture_window(1, 1, "steps")
  COUNTER(steps, 3)
#pragma capture_window(2, 1, "ever")
  FOREVER { cw_mark("ever", n); if (++n == 4) break; }
#pragma capture_window(0, 1, "twice")
  TWICE({ cw_mark("twice", k++); total += k; })
  printf("total %ld n %d\n", total, n);
  return 0;
}
