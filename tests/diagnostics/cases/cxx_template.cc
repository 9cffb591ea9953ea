// Errors in a template are reported once, not once per instantiation.
template <class T> T f(T n) {
#pragma capture_window(1, 2) // { cw-note "the first capture_window pragma is here" col=9 }
#pragma capture_window(1, 3) // { cw-error "two capture_window pragmas on one loop" col=9 }
  for (T i = 0; i < n; i++) ;
#pragma capture_window(1, 2) // { cw-error "must be followed by a for, while or do loop" col=9 }
  return n;
}
int g() { return f(1) + (int) f(2L); }
