/* Pragmas at the end of a block or function. */
void f(int n) {
  if (n) {
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  }
  {
    n++;
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  }
  for (;;) break;
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
}
