/* A loop spec that marks no loop of the unit is an error that names it:
   line 8 holds no loop keyword (the loop starts on line 9). */
/* { cw-options "-fplugin-arg-capture_window-loop=spec_no_match.c:8:30:3" } */
/* { cw-error-global "capture_window: '-fplugin-arg-capture_window-loop=spec_no_match.c:8:30:3' matches no loop in this unit (no for, while or do loop starts on line 8 of a file whose path ends in 'spec_no_match.c')" } */
int f(int n)
{
  int s = 0;
  /* line 8 */
  for (int i = 0; i < n; i++) s += i;
  return s;
}
