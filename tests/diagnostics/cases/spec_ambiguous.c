/* FUNCTION names one loop: a function with two outermost loops is an
   error at the second, with a note at the first (name it by FILE:LINE). */
/* { cw-options "-fplugin-arg-capture_window-loop=train" } */
int train(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++) s += i; /* { cw-note "the first outermost loop is here" col=3 } */
  while (s > 10) s /= 2; /* { cw-error "capture_window: '-fplugin-arg-capture_window-loop=train' names 'train', which has more than one outermost loop; name the loop with FILE:LINE" col=3 } */
  return s;
}
