/* -fplugin-arg-capture_window-verbose: one note per instrumented loop. */
/* { cw-options "-fplugin-arg-capture_window-verbose" } { cw-strict } */
void step(int);
void train(int n) {
#pragma capture_window(30, 3) /* { cw-note "capture_window: for loop at " col=9 } */
  for (int s = 0; s < n; s++) step(s);
#pragma capture_window(5, 2, "eval") /* { cw-note "verbose_note.c:7 in 'train' instrumented, label \"eval\", window 5:2 (iterations 5 to 6)" col=9 } */
  while (n--) step(n);
}
