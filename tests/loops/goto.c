/* `goto` out of the loop inside the window 2:3. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "cw_test.h"

int main(void)
{
  int acc = 0, at = -1;
#pragma capture_window(2, 3)
  for (int i = 0; i < 8; i++) {
    cw_mark("step", i);
    at = i;
    acc += i * 3;
    if (acc > 15)
      goto done;
  }
  printf("not reached\n");
done:
  printf("acc %d at %d\n", acc, at);
  return 0;
}
