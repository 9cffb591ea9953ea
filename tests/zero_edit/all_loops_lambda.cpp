/* all-loops marks the loops of lambdas as those of functions: label
   FUNCTION.LINE with FUNCTION the lambda's operator() (operator_), window
   from the argument; a loop with a pragma keeps its own arguments.  The
   loop keywords are on lines 17, 21 and 27. */
// cw-plugin-args: all-loops=1:1
// cw-windows: operator_.17=1:1 operator_.21=1:1 mine=0:1
// (every front door: the GCC and Clang plugins and the rewriter)
// cw-run:
// cw-expect: operator_.17#0(.) S operator_.17[ operator_.17#1(.) ] E
// cw-expect: operator_.17#2(. operator_.21#0(.) S operator_.21[ operator_.21#1(.) ] E)
// cw-expect: S mine[ mine#0(.) ] E mine#1(.)
#include "cw_test.h"

int main()
{
  auto outer = [](int n) {
    for (int i = 0; i < n; i++) {
      cw_mark("operator_.17", i);
      if (i == 2) {
        auto inner = [](int m) {
          for (int k = 0; k < m; k++)
            cw_mark("operator_.21", k);
        };
        inner(2);
      }
    }
#pragma capture_window(0, 1, "mine")
    for (int i = 0; i < 2; i++)
      cw_mark("mine", i);
  };
  outer(3);
  printf("done\n");
  return 0;
}
