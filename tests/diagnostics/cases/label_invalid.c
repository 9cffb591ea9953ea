/* Labels are [A-Za-z0-9_.-]{1,63}. */
void f(void) {
#pragma capture_window(1, 2, "a b") /* { cw-error "LABEL \"a b\" is invalid: use 1-63 characters of [A-Za-z0-9_.-]" col=30 } */
  for (;;) break;
#pragma capture_window(1, 2, "") /* { cw-error "LABEL \"\" is invalid" col=30 } */
  for (;;) break;
#pragma capture_window(1, 2, "a234567890123456789012345678901234567890123456789012345678901234") /* { cw-error "is invalid: use 1-63 characters" } */
  for (;;) break;
}
