// -fplugin-arg-capture_window-all-loops with no value: window 0:1, also for
// the loops of lambdas (label operator_.LINE) and of function templates.
// { cw-options "-fplugin-arg-capture_window-all-loops -fplugin-arg-capture_window-verbose" } { cw-strict }
// (the rewriter takes all-loops too, among its compiler flags)
template <class T> T twice(T x) {
  for (int i = 0; i < 2; i++) x += x; // { cw-note "label \"twice_int_.6\", window 0:1 (iterations 0 to 0)" only=gcc } { cw-note "label \"twice.6\", window 0:1 (iterations 0 to 0)" only=clang,rewrite }
  return x;
}
int run(int n) {
  auto step = [](int m) {
    while (m > 0) m--; // { cw-note "label \"operator_.11\", window 0:1 (iterations 0 to 0)" }
    return m;
  };
  return step(n) + twice(n);
}
