/* Zero-edit marking by FUNCTION: the outermost loop of a member function
   defined in its class (C++ qualified name), with the default window 0:1
   and label "step"; a while loop by its unqualified name with a window and
   label; a function template's instantiation.  Inner loops and lambdas'
   loops are not the function's outermost loop. */
// cw-plugin-args: loop=ns::Trainer::fit loop=evaluate:1:2:eval loop=ns::repeat:2:1:rep
// cw-windows: step=0:1 eval=1:2 rep=2:1
// cw-run:
// cw-expect: S step[ step#0(.) ] E step#1..2(.)
// cw-expect: eval#0(.) S eval[ eval#1..2(.) ] E eval#3(.)
// cw-expect: rep#0..1(.) S rep[ rep#2(.) ] E rep#3(.)
#include "cw_test.h"

namespace ns {
struct Trainer {
  long loss = 100;
  long fit(int steps) {
    for (int s = 0; s < steps; s++) {
      cw_mark("step", s);
      auto shrink = [this] { for (int k = 0; k < 2; k++) loss -= loss / 10; };
      shrink();
      for (int k = 0; k < 2; k++)
        loss += k;
    }
    return loss;
  }
};

template <class T> T repeat(T x, int n)
{
  for (int i = 0; i < n; i++) {
    cw_mark("rep", i);
    x = x + x;
  }
  return x;
}
} // namespace ns

static int evaluate(int batches)
{
  int seen = 0;
  while (seen < batches) {
    cw_mark("eval", seen);
    seen++;
  }
  return seen;
}

int main()
{
  ns::Trainer t;
  long loss = t.fit(3);
  int seen = evaluate(4);
  double doubled = ns::repeat(0.5, 4);
  printf("loss %ld seen %d doubled %.1f\n", loss, seen, doubled);
  return 0;
}
