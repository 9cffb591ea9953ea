/* -flto: the instrumented loop travels as LTO bytecode and is optimized
   again in lto1, where the plugin is not active; it behaves as without
   -flto (continue and break inside the window included). */
// cw-flags: -flto
// cw-skip: clang clang's -flto needs the LLVM gold plugin or lld
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..4(.) ] E
#include "cw_test.h"

static int work(int i)
{
  return i * 3 % 7;
}

int main(void)
{
  int sum = 0;
#pragma capture_window(2, 3)
  for (int i = 0; i < 8; i++) {
    cw_mark("step", i);
    if (i == 3)
      continue;
    sum += work(i);
    if (sum > 12)
      break;
  }
  printf("sum %d\n", sum);
  return 0;
}
