/* FILE matches at a '/' only: 'match_suffix.c' is not a suffix of this
   file's path at a component boundary, although its name ends so. */
/* { cw-options "-fplugin-arg-capture_window-loop=match_suffix.c:8" } */
/* { cw-error-global "capture_window: '-fplugin-arg-capture_window-loop=match_suffix.c:8' matches no loop in this unit (no for, while or do loop starts on line 8 of a file whose path ends in 'match_suffix.c')" } */
int f(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  return s;
}
