/* loop-optional=SPEC marks like loop=SPEC but a unit without its loop is
   not an error (what capture_window_instrument(... LOOPS ...) passes to
   every unit); the verbose note is at the loop keyword, whose line is the
   site's. */
/* { cw-options "-fplugin-arg-capture_window-verbose -fplugin-arg-capture_window-loop-optional=elsewhere.c:3 -fplugin-arg-capture_window-loop-optional=train:4:2:fit -fplugin-arg-capture_window-loop-optional=ns::nowhere" } { cw-strict } */
int train(int n)
{
  int s = 0;
  do s += n; while (--n > 0); /* { cw-note "spec_optional.c:9 in 'train' instrumented, label \"fit\", window 4:2 (iterations 4 to 5)" col=3 } */
  return s;
}
