/* Zero-edit marking of loops built by macros: by FILE:LINE (the macro's
   use in main, line 24) and by FUNCTION (twice, whose one loop a macro
   builds).  Every front door marks them; the rewriter expands the use in
   its copy first. */
// cw-plugin-args: loop=spec_macro.c:24:1:2:line loop=twice:0:1:fn
// cw-windows: line=1:2 fn=0:1
// cw-run:
// cw-expect: line#0(.) S line[ line#1..2(.) ] E line#3(.)
// cw-expect: S fn[ fn#0(.) ] E fn#1(.)
#include "cw_test.h"

#define REPEAT(n, i) for (int i = 0; i < (n); i++)

static int twice(int n)
{
  int t = 0;
  REPEAT(2, k) { cw_mark("fn", k); t += n; }
  return t;
}

int main(void)
{
  long s = 0;
  REPEAT(4, j) { cw_mark("line", j); s += j; }
  printf("%ld %d\n", s, twice(3));
  return 0;
}
