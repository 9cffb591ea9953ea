// consteval.cpp as C++20: a consteval function's marked loop runs only at
// compile time; the constexpr function's two loops stand behind
// `if (__builtin_is_constant_evaluated())` (C++20 has no `if consteval`),
// and only the run-time one emits events.  No warning the unmarked source
// lacks.
// cw-flags: -std=c++20 -Wextra -pedantic -Werror
// cw-windows: rt=1:2 cev=0:1 ce=0:1
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: rt#0(.) S rt[ rt#1..2(.) ] E rt#3(.)
#include "consteval.cpp"
