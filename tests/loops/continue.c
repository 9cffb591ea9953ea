/* `continue` ends an iteration, also the first and last of a window. */
// cw-run:
// cw-expect: step#0(.) S step[ step#1..2(.) ] E step#3..5(.)
#include "cw_test.h"

int main(void)
{
  int odd = 0, even = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    if (i % 2) {
      odd += i;
      continue;
    }
    even += i;
  }
  printf("odd %d even %d\n", odd, even);
  return 0;
}
