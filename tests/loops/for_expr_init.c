/* A for loop whose init clause is an expression, not a declaration:
   `for (i = 0; ...)` and `for (i = 0, j = 1; ...)`, with the counter used
   after the loop. */
// cw-run:
// cw-expect: step#0(.) S step[ step#1..2(.) ] E step#3(.)
// cw-expect: pair#0..1(.) S pair[ pair#2(.) ] E
#include "cw_test.h"

int main(void)
{
  int i, j, s = 0;
#pragma capture_window(1, 2)
  for (i = 0; i < 4; i++) {
    cw_mark("step", i);
    s += i;
  }
#pragma capture_window(2, 1, "pair")
  for (i = 0, j = 1; i < 3; i++, j *= 2) {
    cw_mark("pair", i);
    s += j;
  }
  printf("s %d i %d j %d\n", s, i, j);
  return 0;
}
