/* -fplugin-arg-capture_window-all-loops=2:3 instruments every loop as
   FUNCTION.LINE with window 2:3; a pragma keeps its own arguments; a body
   that can be entered from outside (goto, Duff's device) is left alone. */
/* { cw-options "-fplugin-arg-capture_window-all-loops=2:3 -fplugin-arg-capture_window-verbose" } { cw-strict } */
/* (the rewriter takes all-loops too, among its compiler flags) */
int f(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) /* { cw-note "all_loops_verbose.c:8 in 'f' instrumented, label \"f.8\", window 2:3 (iterations 2 to 4)" col=3 } */
    while (s < i) s++; /* { cw-note "all_loops_verbose.c:9 in 'f' instrumented, label \"f.9\", window 2:3" } */
#pragma capture_window(0, 1, "mine") /* { cw-note "all_loops_verbose.c:10 in 'f' instrumented, label \"mine\", window 0:1" col=9 } */
  for (int i = 0; i < n; i++) s += i;
  do s--; while (s > 100); /* { cw-note "all_loops_verbose.c:12 in 'f' instrumented, label \"f.12\"" } */
  goto inside;
  while (n > 0) { /* { cw-note "loop \"f.14\" not instrumented: its body can be entered by a goto or a case label from outside" } */
  inside:
    n--;
  }
  switch (n & 3) {
  case 0: do { s++; /* { cw-note "loop \"f.19\" not instrumented" } */
  case 1: s++; } while (--n > 0);
  }
  return s;
}
/* A C++-style name is sanitized; long names are cut to keep .LINE whole. */
int a_function_name_that_is_much_longer_than_the_sixty_three_characters_of_a_label(int n) {
  int s = 0;
  while (n--) s += n; /* { cw-note "label \"a_function_name_that_is_much_longer_than_the_sixty_three_cha.27\"" } */
  return s;
}
