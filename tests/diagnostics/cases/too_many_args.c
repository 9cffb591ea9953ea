/* Two or three arguments. */
void f(void) {
#pragma capture_window(1, 2, "x", 4) /* { cw-error "expected 'capture_window(START, COUNT [, \"LABEL\"])': too many arguments" col=33 } */
  for (;;) break;
}
