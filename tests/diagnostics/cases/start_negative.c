/* START below 0. */
void f(void) {
#pragma capture_window(-1, 3) /* { cw-error "START must be an integer >= 0, got -1" col=25 } */
  for (;;) break;
}
