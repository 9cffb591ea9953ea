/* A marked loop of 6 iterations whose window is 2:3. */
#include <stdio.h>

int main(void) {
  double x = 1.0;
#pragma capture_window(2, 3)
  for (int step = 0; step < 6; step++) x = x * 1.5 + step;
  printf("train_c: %.2f\n", x);
  return 0;
}
