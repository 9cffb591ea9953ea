/* The rewriter and loops built by macros: a loop whose body is a macro
   (an if/else) is rewritten as it stands; a loop whose keyword comes from
   a macro is rewritten after that macro's use is expanded in the copy, in
   each shape the preprocessor has (parameters, #, ##, variadic, GNU's
   `, ## __VA_ARGS__`, object-like, a macro built from another); a macro
   that cannot be expanded as text is an error at the pragma that says
   why, never a broken copy. */
#include <stdio.h>
#define CHECK(x) if (x) ; else bad++
#define REPEAT(n) for (int r_ = 0; r_ < (n); r_++)
#define EACH(type, var, n) for (type var = 0; var < (n); var++)
#define SHOW(x, ...) for (int s_ = 0; s_ < 1; s_++) printf(#x ": %d\n", x, ## __VA_ARGS__)
#define COUNTER(name) for (int name##_i = 0; name##_i < 3; name##_i++)
#define FOREVER for (;;)
#define TWICE(stmt) REPEAT(2) stmt
#define LISTED(...) for (int l_ = 0; l_ < 2; l_++) __VA_ARGS__;
void wait_all(int);
#define wait_all(n) for (int w_ = 0; w_ < (n); w_++) wait_all(w_)
int g(int, ...);
#define OPTIONAL(n, ...) for (int o_ = 0; o_ < (n); o_++) g(o_ __VA_OPT__(,) __VA_ARGS__)
#define NAMED(n, ...) for (int o_ = 0; o_ < (n); o_++) g(o_, #__VA_OPT__(x))
int bad;
int f(int n)
{
  int t = 0;
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  for (int i = 0; i < n; i++)
    CHECK(i >= 0);
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  REPEAT(2) t += n;
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  EACH(long, j, n - 1) t += (int)j;
#pragma capture_window(0, 1) // { cw-note "for loop at" col=9 }
  SHOW(t);
#pragma capture_window(0, 1) // { cw-note "for loop at" col=9 }
  COUNTER(c) t--;
#pragma capture_window(1, 1) // { cw-note "for loop at" col=9 }
  FOREVER { if (++t > 100) break; }
#pragma capture_window(1, 1) // { cw-note "for loop at" col=9 }
  TWICE(t *= 2);
#pragma capture_window(1, 1) // { cw-note "for loop at" col=9 }
  LISTED(t++, t++)
#pragma capture_window(1, 2) // { cw-error "capture-window-rewrite cannot instrument this loop: its keyword comes from a macro, and macro 'wait_all' cannot be expanded in the copy: its expansion names the macro itself" col=9 }
  wait_all(n);
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  OPTIONAL(n);
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  OPTIONAL(n, t, 2);
#pragma capture_window(1, 2) // { cw-error "capture-window-rewrite cannot instrument this loop: its keyword comes from a macro, and macro 'NAMED' cannot be expanded in the copy: its __VA_OPT__ is next to # or ##, or nested" col=9 }
  NAMED(n);
  return t;
}
// { cw-options "-fplugin-arg-capture_window-verbose" } { cw-strict }
