/* _Pragma in a macro that expands to the pragma and the whole loop on one
   source line, with a macro among the pragma's arguments. */
// cw-windows: step=2:2
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"

#define WARMUP 2
#define CW_PRAGMA(x) _Pragma(#x)
#define SUM_LOOP(n, acc) CW_PRAGMA(capture_window(WARMUP, 2)) for (int i = 0; i < (n); i++) { cw_mark("step", i); (acc) += i; }

int main(void)
{
  int acc = 0;
  SUM_LOOP(6, acc)
  printf("acc %d\n", acc);
  return 0;
}
