// C++: a statement between the pragma and a for loop whose init clause is
// an expression is not part of the loop.
#include <string>
void g(int);
template <class T> T sum(T n) {
  T i, s = 0;
#pragma capture_window(1, 2) // { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 }
  s = 1;
  for (i = 0; i < n; i++) s += i;
  return s;
}
int f(int n) {
  int i = 0, x = 0;
  std::string t;
#pragma capture_window(1, 2) // { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 }
  t = "x";
  for (t = std::string("a"); t.size() < 4; t += "b") g(i);
#pragma capture_window(1, 2) // { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 }
  g(x); for (i = 0; i < n; i++) g(i);
  return x + sum(3) + (int) sum(4L);
}
