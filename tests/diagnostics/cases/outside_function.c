/* File scope. */
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma outside a function" col=9 } */
int g;
struct s {
  int a;
#pragma capture_window(1, 2) /* { cw-error "capture_window pragma outside a function" col=9 } */
  int b;
};
