// A pragma at the end of a lambda body.
int g(int n) {
  auto l = [&] {
    n++;
#pragma capture_window(1, 2) // { cw-error "must be followed by a for, while or do loop" col=9 }
  };
  l();
  return n;
}
