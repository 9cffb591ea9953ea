/* `return` out of the body in the window's first iteration. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2(.) ] E
#include "cw_test.h"

static int first_multiple(int k)
{
#pragma capture_window(2, 2)
  for (int i = 1; i < 20; i++) {
    cw_mark("step", i - 1);
    if (i % k == 0)
      return i;
  }
  return -1;
}

int main(void)
{
  printf("first multiple of 3: %d\n", first_multiple(3));
  return 0;
}
