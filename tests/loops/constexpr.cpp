// Marked loops in functions that constant evaluation may run: a constexpr
// function (with a `continue`), a lambda that C++17 makes constexpr, a
// constexpr function template.  Evaluated at compile time (static_assert)
// they keep their values and emit nothing; called at run time they are
// profiled like any loop (docs/limitations.md, "constexpr").  The program
// marks only run-time iterations: constant evaluation cannot call NVTX.
// C++17, and not one warning the unmarked source lacks (also built as C++14
// by constexpr_cxx14.cpp, C++20 and C++23 by consteval*.cpp).
// cw-flags: -std=c++17 -Wextra -pedantic -Werror
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: cx#0(.) S cx[ cx#1..2(.) ] E cx#3..4(.)
// cw-expect: lam#0..1(.) S lam[ lam#2(.) ] E
// cw-expect: tc#0(.) S tc[ tc#1(.) ] E tc#2(.)
#include "cw_test.h"

static long cx_counter, lam_counter, tc_counter;

#define RUN_TIME_MARK(label, counter)                                    \
  do {                                                                   \
    if (!__builtin_is_constant_evaluated())                              \
      cw_mark(label, counter++);                                         \
  } while (0)

constexpr int powers(int n)
{
  int p = 1;
#pragma capture_window(1, 2, "cx")
  for (int i = 0; i < n; i++) {
    RUN_TIME_MARK("cx", cx_counter);
    if (i % 2)
      continue;
    p *= 2;
  }
  return p;
}

template <typename T>
constexpr T triangle(T n)
{
  T s = 0;
#pragma capture_window(1, 1, "tc")
  while (n > 0) {
    RUN_TIME_MARK("tc", tc_counter);
    s += n;
    n--;
  }
  return s;
}

constexpr auto sum_below = [](int n) {
  int s = 0;
#pragma capture_window(2, 1, "lam")
  for (int i = 0; i < n; i++) {
    RUN_TIME_MARK("lam", lam_counter);
    s += i;
  }
  return s;
};

static_assert(powers(5) == 8, "evaluated at compile time");
static_assert(sum_below(4) == 6, "evaluated at compile time");
static_assert(triangle(3) == 6, "evaluated at compile time");

int main(int argc, char **)
{
  int p = powers(argc + 4);
  int s = sum_below(argc + 2);
  long t = triangle(long(argc + 2));
  printf("p %d s %d t %ld\n", p, s, t);
  return 0;
}
