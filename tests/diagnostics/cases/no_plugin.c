/* Without the plugin the pragma is an unknown pragma; the code builds. */
/* { cw-no-plugin } { cw-options "-Wall" } { cw-strict } */
int f(int n) {
  int s = 0;
#pragma capture_window(30, 3) /* { cw-warning "capture_window" only=gcc } { cw-warning "unknown pragma ignored" only=clang } { cw-warning "capture_window" only=rewrite } */
  for (int i = 0; i < n; i++) s += i;
  return s;
}
