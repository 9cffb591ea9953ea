/* Not marked: neither spec names this file's loop (line 9), and the
   FUNCTION spec is optional in a unit without train_steps. */


int util_sum(int n) {
  int s = 0;


  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
