// Through nvcc: cudafe++ keeps the pragma in host code (file and line).
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
#pragma capture_window(1, 0) // { cw-error "COUNT must be an integer >= 1, got 0" }
  for (int i = 0; i < 3; i++) ;
  int x = 0;
#pragma capture_window(1, 2) // { cw-error "capture_window pragma must be followed by a for, while or do loop" }
  x++;
  return x;
}
