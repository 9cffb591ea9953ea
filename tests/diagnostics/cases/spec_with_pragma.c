/* A loop marked both by a pragma and by a loop spec is an error at the
   loop, with a note at the pragma; so is a loop two specs mark. */
/* { cw-options "-fplugin-arg-capture_window-loop=spec_with_pragma.c:10 -fplugin-arg-capture_window-loop=spec_with_pragma.c:11:2:2 -fplugin-arg-capture_window-loop=cases/spec_with_pragma.c:11" } */
int train(int n)
{
  int s = 0;
  /* The pragma is on line 9 and marks the loop of line 10, which holds the
     loop of line 11. */
#pragma capture_window(1, 2) /* { cw-note "the loop's capture_window pragma is here" col=9 } */
  for (int i = 0; i < n; i++) /* { cw-error "capture_window: '-fplugin-arg-capture_window-loop=spec_with_pragma.c:10' marks a loop that has a capture_window pragma; keep one of the two" col=3 } */
    for (int j = 0; j < i; j++) s += j; /* { cw-error "capture_window: '-fplugin-arg-capture_window-loop=spec_with_pragma.c:11:2:2' and '-fplugin-arg-capture_window-loop=cases/spec_with_pragma.c:11' mark the same loop" col=5 } */
  return s;
}
