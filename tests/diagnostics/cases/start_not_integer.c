/* A floating constant is not an integer. */
void f(void) {
#pragma capture_window(1.5, 2) /* { cw-error "START must be an integer >= 0, got 1.5" col=24 } */
  for (;;) break;
}
