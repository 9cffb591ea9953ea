/* The label is a string literal. */
void f(void) {
#pragma capture_window(1, 2, eval) /* { cw-error "LABEL must be a string literal such as \"eval\", got 'eval'" col=30 } */
  for (;;) break;
}
