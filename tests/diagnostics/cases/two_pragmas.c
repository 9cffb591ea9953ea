/* One pragma per loop. */
void f(void) {
#pragma capture_window(1, 2) /* { cw-note "the first capture_window pragma is here" col=9 } */
#pragma capture_window(5, 2) /* { cw-error "two capture_window pragmas on one loop" col=9 } */
  for (;;) break;
}
