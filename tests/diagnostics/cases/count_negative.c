/* A negative COUNT through a macro. */
#define N -2
void f(void) {
#pragma capture_window(0, N) /* { cw-error "COUNT must be an integer >= 1, got -2" } */
  for (;;) break;
}
