/* A statement between the pragma and a for loop whose init clause is an
   expression: the front end emits that init as a statement of its own
   before the loop, but only statements inside the loop's header belong to
   the loop. */
#define ASSIGN_THEN_LOOP x = 1; for (i = 0; i < n; i++)
#define MARKED_ASSIGN_THEN_LOOP \
  _Pragma("capture_window(0, 1)") x = 1; for (i = 0; i < n; i++) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=3 } */
void g(int);
int f(int n) {
  int i, j, x = 0;
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  x = 1;
  for (i = 0; i < n; i++) g(i);
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  g(x); for (i = 0, j = 0; i < n; i++) g(j);
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  x++;
  for (x--; i < n; i++) g(i);
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  x = 2; while (i--) g(i);
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 } */
  ASSIGN_THEN_LOOP g(i);
  MARKED_ASSIGN_THEN_LOOP g(i); /* error at the _Pragma in the macro */
  /* The loops themselves take the pragma. */
#pragma capture_window(1, 2)
  for (i = 0; i < n; i++) g(i);
#pragma capture_window(1, 2)
  for (i = 0, j = 0; i < n; i++, j++) g(j);
#pragma capture_window(1, 2)
  for (x--; i < n; i++) g(i);
  return x;
}
