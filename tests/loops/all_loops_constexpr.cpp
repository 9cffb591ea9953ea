/* all-loops marks the loops of constexpr and consteval functions and of
   constexpr lambdas, as GCC does: they stay constant expressions (the
   static_asserts), their run-time calls are profiled, a consteval
   function's loop never runs at run time.  Also a loop whose body is a
   macro that expands to `switch (0) case 0: default: if (...) ; else ...`,
   googletest's EXPECT_EQ shape.  The loop keywords are on lines 31, 41,
   48 and 69. */
// cw-plugin-args: all-loops=1:1
// cw-flags: -std=c++20 -Wextra -pedantic -Wzero-as-null-pointer-constant -Werror
// cw-windows: powers.31=1:1 operator_.48=1:1 main.69=1:1
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: main.69#0(.) S main.69[ main.69#1(.) ] E main.69#2(.)
// cw-expect: powers.31#0(.) S powers.31[ powers.31#1(.) ] E powers.31#2(.)
// cw-expect: operator_.48#0(.) S operator_.48[ operator_.48#1(.) ] E
#include "cw_test.h"

static int failures;

/* The program's own mark, at run time only (constant evaluation cannot
   call NVTX). */
constexpr void run_time_mark(const char *label, long i)
{
  if (!__builtin_is_constant_evaluated())
    cw_mark(label, i);
}

constexpr int powers(int n)
{
  int p = 1;
  for (int i = 0; i < n; i++) {
    run_time_mark("powers.31", i);
    p *= 2;
  }
  return p;
}

consteval int squares(int n)
{
  int s = 0;
  while (n-- > 0)
    s += n * n;
  return s;
}

constexpr auto sum_below = [](int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    run_time_mark("operator_.48", i);
    s += i;
  }
  return s;
};

#define EXPECT_SAME(mark, a, b)                                          \
  switch (0)                                                             \
  case 0:                                                                \
  default:                                                               \
    if ((mark, (a) == (b)))                                              \
      ;                                                                  \
    else                                                                 \
      failures++

static_assert(powers(3) == 8 && squares(3) == 5 && sum_below(4) == 6);

int main(int argc, char **)
{
  if (argc > 9) return 1; /* -Wmisleading-indentation reads the loop's place */
  for (int i = 0; i < 3; i++)
    EXPECT_SAME(cw_mark("main.69", i), i % 2, i & 1);
  int p = powers(argc + 2);
  int s = sum_below(argc + 1);
  printf("p %d s %d squares %d failures %d\n", p, s, squares(4), failures);
  return 0;
}
