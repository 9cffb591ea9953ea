// Through nvcc: macros in the arguments expand, the note names the .cu file.
// { cw-options "-fplugin-arg-capture_window-verbose" }
#define WARMUP 1
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
  int *d = 0;
#pragma capture_window(WARMUP, 2, "cu") // { cw-note "cuda_ok.cu:7 in 'int main()' instrumented, label \"cu\", window 1:2" }
  for (int i = 0; i < 3; i++) k<<<1, 1>>>(d);
  return 0;
}
