/* COUNT below 1. */
void f(void) {
#pragma capture_window(30, 0) /* { cw-error "COUNT must be an integer >= 1, got 0" col=28 } */
  for (;;) break;
}
