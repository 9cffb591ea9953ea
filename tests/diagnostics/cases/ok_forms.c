/* Every accepted form compiles without a diagnostic. */
/* { cw-options "-Wall -Wextra -Wunknown-pragmas" } { cw-strict } */
#include <capture_window.h>
#define WARMUP 30
#define MARKED_LOOP(n, body) \
  _Pragma("capture_window(0, 1, \"mac\")") for (int k = 0; k < (n); k++) body
int next(int *);
void step(int);
void f(int n) {
  int b = 0, i = 0;
#pragma capture_window(WARMUP, 3)
  for (int s = 0; s < n; s++) step(s);
#pragma capture_window(5, 2, "eval")
  /* a comment */

#pragma GCC unroll 2
  while (next(&b)) { step(b); }
#pragma capture_window(0x10, 010, "a.b-c_9")
  // another comment
  do i++; while (i < n);
  CAPTURE_WINDOW(1, 2)
  for (;;) { if (i++ > n) break; }
  CAPTURE_WINDOW_LABEL(1, 2, "lbl")
  while (i--) continue;
  MARKED_LOOP(n, step(k);)
  int j;
#pragma capture_window(1, 2, "expr")
  for (i = 0; i < n; i++) step(i);
#pragma capture_window(1, 2, "comma")
  for (i = 0, j = n; i < j; i++, j--) step(j);
  {
#pragma capture_window(0, 4611686018427387904, "max")
    for (;;) break;
  }
}
