/* -fplugin-arg-capture_window-portable is accepted and ignored by every
   front door (it named the one emission there is now, when the GCC plugin
   had a second): no error, and the loop is still instrumented (the
   verbose note). */
/* { cw-options "-fplugin-arg-capture_window-portable -fplugin-arg-capture_window-verbose" } { cw-strict } */
void step(int);
void train(int n) {
#pragma capture_window(30, 3) /* { cw-note "portable_argument.c:8 in 'train' instrumented, label \"step\", window 30:3 (iterations 30 to 32)" col=9 } */
  for (int s = 0; s < n; s++) step(s);
}
