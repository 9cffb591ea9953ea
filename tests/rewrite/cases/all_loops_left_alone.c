/* all-loops through the rewriter: every loop is marked (label
   FUNCTION.LINE), except those a rewrite cannot keep right, each with a
   note under verbose: a body a goto from outside or a case label of a
   switch around it enters, a keyword from a macro, an OpenMP construct's
   loop (no note: the construct owns it). */
// { cw-options "-fplugin-arg-capture_window-all-loops=2:3 -fplugin-arg-capture_window-verbose" } { cw-strict }
#define REPEAT(n) for (int r_ = 0; r_ < (n); r_++)
int g(int n)
{
  int t = 0;
  for (int i = 0; i < n; i++) // { cw-note "for loop at" col=3 }
    t += i;
  while (t > 100) // { cw-note "label \"g.13\", window 2:3" col=3 }
    t /= 2;
  if (n == 7)
    goto inside;
  for (int i = 0; i < n; i++) { // { cw-note "loop \"g.17\" not instrumented: its body can be entered" col=3 }
  inside:
    t++;
  }
  switch (n) {
  case 1:
    do { // { cw-note "loop \"g.23\" not instrumented: its body can be entered" col=5 }
  case 2:
      t--;
    } while (t > 5);
  }
  REPEAT(2) t += n; // { cw-note "loop \"g.28\" not instrumented: its keyword comes from a macro expansion" col=3 }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    t += i;
  return t;
}
