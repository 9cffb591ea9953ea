/* FUNCTION specs that mark nothing: no function of that name, and a
   function without a loop. */
/* { cw-options "-fplugin-arg-capture_window-loop=trian:30:3 -fplugin-arg-capture_window-loop=helper" } */
/* { cw-error-global "capture_window: '-fplugin-arg-capture_window-loop=trian:30:3' matches no loop in this unit (no function named 'trian' is defined in it)" } */
/* { cw-error-global "capture_window: '-fplugin-arg-capture_window-loop=helper' matches no loop in this unit (the functions named 'helper' hold no loop)" } */
int helper(int x) { return x + 1; }
int train(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s = helper(s);
  return s;
}
