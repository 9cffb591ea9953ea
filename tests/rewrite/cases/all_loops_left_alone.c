/* all-loops through the rewriter: every loop is marked (label
   FUNCTION.LINE), except those a rewrite cannot keep right, each with a
   note under verbose: a body a goto from outside or a case label of a
   switch around it enters, a keyword from a macro that cannot be expanded
   in the copy, an OpenMP construct's loop (no note: the construct owns
   it).  A keyword from a macro that can (REPEAT) is marked. */
// { cw-options "-fplugin-arg-capture_window-all-loops=2:3 -fplugin-arg-capture_window-verbose" } { cw-strict }
#define REPEAT(n) for (int r_ = 0; r_ < (n); r_++)
/* A macro that wraps the function of its own name: its expansion, written
   as text, would expand again. */
void wait_all(int);
#define wait_all(n) for (int w_ = 0; w_ < (n); w_++) wait_all(w_)
int g(int n)
{
  int t = 0;
  for (int i = 0; i < n; i++) // { cw-note "for loop at" col=3 }
    t += i;
  while (t > 100) // { cw-note "label \"g.18\", window 2:3" col=3 }
    t /= 2;
  if (n == 7)
    goto inside;
  for (int i = 0; i < n; i++) { // { cw-note "loop \"g.22\" not instrumented: its body can be entered" col=3 }
  inside:
    t++;
  }
  switch (n) {
  case 1:
    do { // { cw-note "loop \"g.28\" not instrumented: its body can be entered" col=5 }
  case 2:
      t--;
    } while (t > 5);
  }
  REPEAT(2) t += n; // { cw-note "label \"g.33\", window 2:3" col=3 }
  wait_all(n); // { cw-note "loop \"g.34\" not instrumented: macro 'wait_all' cannot be expanded in the copy: its expansion names the macro itself" col=3 }
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    t += i;
  return t;
}
