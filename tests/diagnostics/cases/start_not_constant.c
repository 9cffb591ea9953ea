/* A variable is not a constant: the pragma only sees tokens. */
void f(int n) {
#pragma capture_window(n, 2) /* { cw-error "START must be an integer >= 0, got 'n'" col=24 } */
  for (;;) break;
}
