// Marked loops inside a lambda and inside a function template (one
// instantiation, called twice: its iterations count on).
// cw-run:
// cw-expect: lam#0(.) S lam[ lam#1..2(.) ] E lam#3(.)
// cw-expect: tmpl#0..2(.) S tmpl[ tmpl#3(.) ] E tmpl#4..5(.)
#include "cw_test.h"

static long tmpl_counter;

template <typename T>
T scaled_sum(T scale, int n)
{
  T s = 0;
#pragma capture_window(3, 1, "tmpl")
  for (int i = 0; i < n; i++) {
    cw_mark("tmpl", tmpl_counter++);
    s += scale * i;
  }
  return s;
}

int main()
{
  auto lam = [](int n) {
    int p = 1;
#pragma capture_window(1, 2, "lam")
    for (int i = 0; i < n; i++) {
      cw_mark("lam", i);
      p *= 2;
    }
    return p;
  };
  int p = lam(4);
  double s = scaled_sum(0.5, 3) + scaled_sum(1.5, 3);
  printf("p %d s %.2f\n", p, s);
  return 0;
}
