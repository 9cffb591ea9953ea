/* Zero-edit marking of loops inside lambdas, by FILE:LINE (a lambda has no
   name to give as FUNCTION): a loop in a lambda called twice counts on
   across the calls (the window 1:2 closes when the first call leaves the
   loop after iteration 1), and a loop in a lambda inside a function template
   (one instantiation).  The loop keywords are on lines 20 and 31. */
// cw-plugin-args: loop=spec_lambda.cpp:20:1:2:lam loop=spec_lambda.cpp:31:2:1:tl
// cw-windows: lam=1:2 tl=2:1
// cw-run:
// cw-expect: lam#0(.) S lam[ lam#1(.) ] E lam#2..4(.)
// cw-expect: tl#0..1(.) S tl[ tl#2(.) ] E
#include "cw_test.h"

static long lam_counter;

int main()
{
  auto lam = [](int n) {
    int p = 1;
    /* The next line is line 20. */
    for (int i = 0; i < n; i++) {
      cw_mark("lam", lam_counter++);
      p *= 2;
    }
    return p;
  };
  int p = lam(2) + lam(3);
  auto in_template = [](auto scale) {
    decltype(scale) s = 0;
    int i = 0;
    /* The next line is line 31. */
    while (i < 3) {
      cw_mark("tl", i);
      s += scale * i++;
    }
    return s;
  };
  double s = in_template(0.5);
  printf("p %d s %.2f\n", p, s);
  return 0;
}
