/* The rewriter and loops built by macros: a loop whose body is a macro
   (an if/else) is rewritten; a pragma on a loop whose keyword comes from
   a macro is an error at the pragma, never a broken copy. */
#define CHECK(x) if (x) ; else bad++
#define REPEAT(n) for (int r_ = 0; r_ < (n); r_++)
int bad;
int f(int n)
{
  int t = 0;
#pragma capture_window(1, 2) // { cw-note "for loop at" col=9 }
  for (int i = 0; i < n; i++)
    CHECK(i >= 0);
#pragma capture_window(1, 2) // { cw-error "cannot instrument a loop that comes from a macro expansion; write the loop itself in the file" col=9 }
  REPEAT(2) t += n;
  return t;
}
// { cw-options "-fplugin-arg-capture_window-verbose" } { cw-strict }
