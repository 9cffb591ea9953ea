/* A jump into a marked body from outside would skip the loop-enter call,
   so it is an error (clang's own: the jump bypasses the plugin's cleanup
   variable). A goto that stays inside the body is fine. */
int enter_by_goto(int n) {
  int s = 0;
  if (n > 5) goto inside; /* { cw-error "cannot jump from this goto statement to its label" col=14 only=clang } */
#pragma capture_window(1, 2) /* { cw-error "the body of a capture_window loop must not be entered by a goto or a case label from outside the loop" col=9 only=gcc } */
  for (int i = 0; i < n; i++) {
  inside:
    s += i;
  }
  return s;
}

int enter_by_case(int n) {
  int s = 0;
  switch (n) {
  case 0:
#pragma capture_window(1, 2) /* { cw-error "the body of a capture_window loop must not be entered by a goto or a case label from outside the loop" col=9 only=gcc } */
    while (n < 3) { case 1: s++; n++; } /* { cw-error "cannot jump from switch statement to this case label" col=21 only=clang } */
  }
  return s;
}

int goto_inside(int n) {
  int s = 0;
#pragma capture_window(1, 2)
  for (int i = 0; i < n; i++) {
    if (i == 2) goto again;
    s += i;
  again:
    s++;
  }
  return s;
}
