/* Values above 2^62 are refused (GCC's own lexer also warns; clang only reads the spelling). */
void f(void) {
#pragma capture_window(99999999999999999999, 2) /* { cw-error "START must be an integer from 0 to 4611686018427387904, got 99999999999999999999" col=24 } { cw-warning "too large" only=gcc } */
  for (;;) break;
#pragma capture_window(0, 4611686018427387905) /* { cw-error "COUNT must be an integer from 1 to 4611686018427387904" col=27 } */
  for (;;) break;
}
