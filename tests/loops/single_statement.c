/* A body that is one statement without braces. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"

static int work(int i)
{
  cw_mark("step", i);
  return i * i + 1;
}

int main(void)
{
  int total = 0;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) total += work(i);
  printf("total %d\n", total);
  return 0;
}
