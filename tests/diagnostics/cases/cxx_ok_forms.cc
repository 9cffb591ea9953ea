// C++ loops the plugin instruments, with the verbose notes as proof.
// { cw-options "-Wall -Wextra -fplugin-arg-capture_window-verbose" } { cw-strict }
#include <vector>
#include <string>
int work(int);
template <class T> T sum(const std::vector<T> &v) {
  T s = 0;
#pragma capture_window(0, 1, "tmpl") // { cw-note "label \"tmpl\"" col=9 } { cw-note "label \"tmpl\"" col=9 }
  for (const T &x : v) s += x;
  return s;
}
struct Node { Node *next; };
int main() {
  std::vector<int> v{1, 2, 3};
  int r = sum(v) + (int) sum(std::vector<double>{1.5});
#pragma capture_window(2, 3) // { cw-note "cxx_ok_forms.cc:16 in 'int main()'" col=9 }
  for (int x : v) r += work(x);
  auto lam = [&](int n) {
#pragma capture_window(1, 1, "lambda") // { cw-note "do loop" col=9 }
    do { r += work(n); } while (--n > 0);
  };
  lam(2);
  Node c{nullptr}, a{&c};
  Node *p = &a;
#pragma capture_window(0, 9, "decl") // { cw-note "while loop" col=9 }
  while (Node *q = p) p = q->next;
#pragma capture_window(0, 1, "str") // { cw-note "label \"str\"" col=9 }
  for (std::string t = "ab"; t.size() < 4; t += "x") r += work(1);
  std::string u;
  int i, j;
#pragma capture_window(0, 1, "expr") // { cw-note "label \"expr\"" col=9 }
  for (u = std::string("a") + "b"; u.size() < 4; u += "x") r += work(2);
#pragma capture_window(0, 1, "comma") // { cw-note "label \"comma\"" col=9 }
  for (i = 0, j = 1; i < 3; i++, j++) r += work(j);
  return r;
}
