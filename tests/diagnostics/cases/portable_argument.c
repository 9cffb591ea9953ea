/* -fplugin-arg-capture_window-portable is accepted by every front door:
   the GCC plugin then emits the portable C form instead of its x86-64 asm;
   the Clang plugin and the rewriter always emit that form. No error, and
   the loop is still instrumented (the verbose note). */
/* { cw-options "-fplugin-arg-capture_window-portable -fplugin-arg-capture_window-verbose" } { cw-strict } */
void step(int);
void train(int n) {
#pragma capture_window(30, 3) /* { cw-note "portable_argument.c:8 in 'train' instrumented, label \"step\", window 30:3 (iterations 30 to 32)" col=9 } */
  for (int s = 0; s < n; s++) step(s);
}
