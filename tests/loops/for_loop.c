/* A plain counted for loop: window 2:2 of 6 iterations. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"

int main(void)
{
  long sum = 0;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    sum += (long)i * i;
  }
  printf("sum of squares %ld\n", sum);
  return 0;
}
