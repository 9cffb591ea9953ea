// Namespace scope and class bodies are outside a function.
namespace ns {
#pragma capture_window(1, 2) // { cw-error "capture_window pragma outside a function" col=9 }
}
struct S {
#pragma capture_window(1, 2) // { cw-error "capture_window pragma outside a function" col=9 }
  int x;
  void m() {
#pragma capture_window(1, 2) // { cw-error "capture_window pragma must be followed by a for, while or do loop" col=9 }
    x++;
  }
};
