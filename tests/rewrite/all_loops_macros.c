/* all-loops through the rewriter over a file of several functions: each
   loop gets the label FUNCTION.LINE and the window 1:1; a loop whose body
   is a macro that expands to if/else (googletest's EXPECT_EQ shape) is
   rewritten; a loop whose keyword comes from a macro (REPEAT's, line 42)
   is marked once the rewriter has expanded that use in the copy.  The
   loop keywords are on lines 22, 32, 42 and 48. */
// cw-plugin-args: all-loops=1:1
// cw-windows: sum.22=1:1 count.32=1:1 twice.42=1:1 main.48=1:1
// cw-run:
// cw-expect: main.48#0(.) S main.48[ main.48#1(.) ] E main.48#2..3(.)
// cw-expect: sum.22#0(.) S sum.22[ sum.22#1(.) ] E sum.22#2(.)
// cw-expect: count.32#0(.) S count.32[ count.32#1(.) ] E twice.42#0() S twice.42[ twice.42#1() ] E
#include "cw_test.h"

static int failures;
#define CHECK_EQ(a, b) if ((a) == (b)) ; else failures++
#define REPEAT(n, stmt) for (int r_ = 0; r_ < (n); r_++) stmt

static long sum(int n)
{
  long s = 0;
  for (int i = 0; i < n; i++) {
    cw_mark("sum.22", i);
    s += i;
  }
  return s;
}

static int count(int n)
{
  int c = 0;
  while (c < n) {
    cw_mark("count.32", c);
    c++;
  }
  return c;
}

static int twice(int n)
{
  int t = 0;
  REPEAT(2, t += n);
  return t;
}

int main(void)
{
  for (int i = 0; i < 4; i++)
    CHECK_EQ((cw_mark("main.48", i), i * 2), i + i);
  long s = sum(3);
  int c = count(2);
  printf("sum %ld count %d twice %d failures %d\n", s, c, twice(5), failures);
  return 0;
}
