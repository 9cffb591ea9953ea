/* train_steps' loop is marked by LOOPS train_steps:2:2. */
int train_steps(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
