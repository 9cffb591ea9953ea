// Marked loops in functions constant evaluation may run bring no warning
// the unmarked source does not have (GCC 16 warned -Winvalid-constexpr and
// crashed); each is instrumented for its run-time calls.
// { cw-options "-std=c++20 -Wall -Wextra -pedantic -fplugin-arg-capture_window-verbose" } { cw-strict }
int work(int);
constexpr int powers(int n) {
  int p = 1;
#pragma capture_window(1, 2, "cx") // { cw-note "label \"cx\"" col=9 }
  for (int i = 0; i < n; i++) {
    if (i == 1)
      continue;
    p *= 2;
  }
  return p;
}
consteval int squares(int n) {
  int s = 0;
#pragma capture_window(0, 1, "ce") // { cw-note "label \"ce\"" col=9 }
  while (n-- > 0) s += n * n;
  return s;
}
template <class T> constexpr T twice(T n) {
  T s = 0;
#pragma capture_window(0, 1, "tc") // { cw-note "label \"tc\"" col=9 }
  do { s += 2; } while (--n > 0);
  return s;
}
int main(int argc, char **) {
  auto lam = [](int n) {
    int s = 0;
#pragma capture_window(0, 1, "lam") // { cw-note "label \"lam\"" col=9 }
    for (int i = 0; i < n; i++) s += i;
    return s;
  };
  static_assert(powers(4) == 8 && squares(3) == 5 && twice(2) == 4, "");
  constexpr int l = lam(3);
  return powers(argc) + lam(argc) + twice(argc) + l + work(squares(2));
}
