/* The epoch loop (line 9) is marked by capture_window_instrument's
   LOOPS main.c:9:1:1:epoch; util.c has a loop on line 9 too. */
#include <stdio.h>
int train_steps(int n);
int util_sum(int n);

int main(void) {
  int s = 0;
  for (int epoch = 0; epoch < 3; epoch++)
    s += train_steps(2);
  printf("zero_edit: %d %d\n", s, util_sum(4));
  return 0;
}
