/* `break` leaves the loop inside the window 2:3: it closes there. */
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "cw_test.h"

int main(void)
{
  int found = -1, at = -1;
  static const int v[] = {5, 8, 13, 21, 34, 55, 89, 144};
#pragma capture_window(2, 3)
  for (int i = 0; i < 8; i++) {
    cw_mark("step", i);
    at = i;
    if (v[i] % 7 == 0) {
      found = i;
      break;
    }
  }
  printf("found %d at %d\n", found >= 0 ? v[found] : -1, at);
  return 0;
}
