/* A near miss of the pragma's name (issue 43 item 3) compiles, as any
   unknown pragma does, but with a warning that names the right pragma,
   whatever -Wunknown-pragmas says: the loop after it runs unmarked.
   Another unknown pragma stays silent; the right name instruments. */
/* { cw-strict } */
void sink(int);
void f(int n) {
#pragma capture_windows(30, 3) /* { cw-warning "unknown pragma 'capture_windows' ignored; did you mean '#pragma capture_window(START, COUNT [, \"LABEL\"])'?" col=9 } */
  for (int i = 0; i < n; i++) sink(i);
#pragma CAPTURE_WINDOW(1, 1) /* { cw-warning "unknown pragma 'CAPTURE_WINDOW' ignored; did you mean '#pragma capture_window(START, COUNT [, \"LABEL\"])'?" col=9 } */
  for (int i = 0; i < n; i++) sink(i);
#pragma caputre_window(1, 1) /* { cw-warning "unknown pragma 'caputre_window' ignored; did you mean '#pragma capture_window(START, COUNT [, \"LABEL\"])'?" col=9 } */
  for (int i = 0; i < n; i++) sink(i);
#pragma capturewindow(1, 1) /* { cw-warning "unknown pragma 'capturewindow' ignored; did you mean '#pragma capture_window(START, COUNT [, \"LABEL\"])'?" col=9 } */
  for (int i = 0; i < n; i++) sink(i);
_Pragma("capture_windowz(1, 1)") /* { cw-warning "unknown pragma 'capture_windowz' ignored; did you mean '#pragma capture_window(START, COUNT [, \"LABEL\"])'?" col=1 } */
  for (int i = 0; i < n; i++) sink(i);
#pragma capture(1, 1)
  for (int i = 0; i < n; i++) sink(i);
#pragma window_capture(1, 1)
  for (int i = 0; i < n; i++) sink(i);
#pragma capture_window(2, 1)
  for (int i = 0; i < n; i++) sink(i);
}
