/* Two or three arguments. */
void f(void) {
#pragma capture_window(1) /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])': COUNT is missing" col=25 } */
  for (;;) break;
#pragma capture_window() /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])': START is missing" col=24 } */
  for (;;) break;
}
