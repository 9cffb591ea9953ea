/* env_program.h - the program every environment test runs: a "step" loop
   (6 iterations, window 2:2) and then an "eval" loop (4 iterations,
   window 1:1). Each test file holds only its runs. */
#include "cw_test.h"

int main(void)
{
  long a = 0, b = 0;
  int k = 0;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    a += i * 7 % 5;
  }
#pragma capture_window(1, 1, "eval")
  while (k < 4) {
    cw_mark("eval", k);
    b += k++ * 3;
  }
  printf("a %ld b %ld\n", a, b);
  return 0;
}
