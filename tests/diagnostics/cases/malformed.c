/* Parentheses, commas and the end of the line. */
void f(void) {
#pragma capture_window 1, 2 /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])', got 1" col=24 } */
  for (;;) break;
#pragma capture_window(1 2) /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])', got 2" col=26 } */
  for (;;) break;
#pragma capture_window(1, 2 /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])', got end of line" col=27 } */
  for (;;) break;
#pragma capture_window(1, 2) x /* { cw-error "expected end of line after 'capture_window(START, COUNT [, \"LABEL\"])', got 'x'" col=30 } */
  for (;;) break;
#pragma capture_window /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])', got end of line" } */
  for (;;) break;
}
