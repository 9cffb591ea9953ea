/* Nested marked loops with different labels: the inner loop counts on
   across the epochs, and its window opens inside the epoch window, so the
   profiler starts once and stops when the epoch window closes. */
// cw-run:
// cw-expect: epoch#0(. step#0..3(.))
// cw-expect: S epoch[ epoch#1(. step#4(.) step[ step#5..6(.) ] step#7(.)) ] E
// cw-expect: epoch#2(. step#8..11(.))
#include "cw_test.h"

int main(void)
{
  long step = 0, loss = 1000;
#pragma capture_window(1, 1, "epoch")
  for (int epoch = 0; epoch < 3; epoch++) {
    cw_mark("epoch", epoch);
#pragma capture_window(5, 2)
    for (int b = 0; b < 4; b++) {
      cw_mark("step", step++);
      loss -= loss / 10;
    }
  }
  printf("steps %ld loss %ld\n", step, loss);
  return 0;
}
