// C++23: a marked loop in a consteval function runs only at compile time
// and emits nothing; in `if consteval` the compile-time branch emits
// nothing and the run-time branch is profiled.  Also the C++20 mode in
// which GCC 14 and newer check every call for consteval propagation (the
// plugin's hooks are ordinary extern "C" functions to it).
// cw-flags: -std=c++2b -Wextra -pedantic -Werror
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: rt#0(.) S rt[ rt#1..2(.) ] E rt#3(.)
#include "cw_test.h"

static long rt_counter;

consteval int squares_below(int n)
{
  int s = 0;
#pragma capture_window(0, 1, "ce")
  for (int i = 0; i < n; i++)
    s += i * i;
  return s;
}

constexpr int doubled_sum(int n)
{
  int s = 0;
#if defined(__cpp_if_consteval)
  if consteval {
#else /* GCC 11 has consteval but not `if consteval`: the builtin it is made of */
  if (__builtin_is_constant_evaluated()) {
#endif
#pragma capture_window(0, 1, "cev")
    for (int i = 0; i < n; i++)
      s += 2 * i;
  } else {
#pragma capture_window(1, 2, "rt")
    for (int i = 0; i < n; i++) {
      cw_mark("rt", rt_counter++);
      s += 2 * i;
    }
  }
  return s;
}

static_assert(squares_below(4) == 14);
static_assert(doubled_sum(4) == 12);

int main(int argc, char **)
{
  constexpr int c = squares_below(3) + doubled_sum(3);
  int r = doubled_sum(argc + 3);
  printf("c %d r %d\n", c, r);
  return 0;
}
