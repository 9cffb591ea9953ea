// C++14: marked loops in a constexpr function, in a constexpr member
// function defined in its class (lexed before it is parsed) and in a
// constexpr function template.  Each is used in a static_assert and as a
// template argument, and profiled when called at run time; not one warning
// that the unmarked source lacks (-Wmisleading-indentation after a
// one-line `if` included).  C++17 is constexpr.cpp; C++20 and C++23
// are consteval_cxx20.cpp and consteval.cpp.
// cw-flags: -std=c++14 -Wextra -pedantic -Wzero-as-null-pointer-constant -Werror
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: fn#0(.) S fn[ fn#1..2(.) ] E fn#3(.)
// cw-expect: S mem[ mem#0(.) ] E mem#1(.)
// cw-expect: tc#0..1(.) S tc[ tc#2(.) ] E tc#3(.)
#include "cw_test.h"

static long fn_counter, mem_counter, tc_counter;

/* The program's own mark, at run time only (constant evaluation cannot
   call NVTX). */
constexpr void run_time_mark(const char *label, long &counter)
{
  if (!__builtin_is_constant_evaluated())
    cw_mark(label, counter++);
}

constexpr int powers(int n)
{
  int p = 1;
  if (n < 0) return 0; /* -Wmisleading-indentation reads the loop's place */
#pragma capture_window(1, 2, "fn")
  for (int i = 0; i < n; i++) {
    run_time_mark("fn", fn_counter);
    p *= 2;
  }
  return p;
}

struct Grid {
  int w;
  constexpr int cells(int h) const
  {
    int c = 0;
#pragma capture_window(0, 1, "mem")
    while (h-- > 0) {
      run_time_mark("mem", mem_counter);
      c += w;
    }
    return c;
  }
};

template <class T>
constexpr T sum_to(T n)
{
  T s = 0;
#pragma capture_window(2, 1, "tc")
  do {
    run_time_mark("tc", tc_counter);
    s += n;
  } while (--n > 0);
  return s;
}

template <int N> struct Fixed {
  static constexpr int value = N;
};

static_assert(powers(3) == 8, "evaluated at compile time");
static_assert(Grid{2}.cells(3) == 6, "evaluated at compile time");
static_assert(sum_to(4) == 10, "evaluated at compile time");

int main(int argc, char **)
{
  int p = powers(argc + 3);
  int c = Grid{argc}.cells(2);
  long t = sum_to(long(argc + 3));
  int f = Fixed<powers(2) + Grid{1}.cells(2) + sum_to(2)>::value;
  printf("p %d c %d t %ld f %d\n", p, c, t, f);
  return 0;
}
