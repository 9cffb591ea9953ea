/* The pragma must stand directly before the loop. */
void f(int n) {
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  n++;
  for (;;) break;
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  { n++; for (;;) break; }
#pragma capture_window(1, 2) /* { cw-error "must be followed by a for, while or do loop" } */
  if (n) for (;;) break;
}
