/* One program of two objects: part 1 built by gcc with the GCC plugin,
   part 2 by clang with the Clang plugin (see CMakeLists.txt).  Both
   marked loops share the runtime; each keeps its own count and window, and
   their events follow each other in one trace. */
// cw-run:
// cw-expect: gcc#0(.) S gcc[ gcc#1..2(.) ] E gcc#3(.)
// cw-expect: clang#0..1(.) S clang[ clang#2(.) ] E clang#3(.)
// cw-run: CAPTURE_WINDOW_LOOPS=clang
// cw-expect: .gcc@0..3 clang#0..1(.) S clang[ clang#2(.) ] E clang#3(.)
#include "cw_test.h"

int clang_part(int n);

#if CW_PART == 1
int main(void)
{
  int acc = 0;
#pragma capture_window(1, 2, "gcc")
  for (int i = 0; i < 4; i++) {
    cw_mark("gcc", i);
    acc += i;
  }
  acc += clang_part(4);
  printf("acc %d\n", acc);
  return 0;
}
#else
int clang_part(int n)
{
  int acc = 0, i = 0;
#pragma capture_window(2, 1, "clang")
  while (i < n) {
    cw_mark("clang", i);
    acc += i++ * 10;
  }
  return acc;
}
#endif
