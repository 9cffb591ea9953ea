// Through nvcc: a spec that matches no loop is reported once, by the host
// compilation; nvcc's preprocessing passes and its device-link stub load
// the plugin too and stay silent.  A matching spec marks the host loop.
// { cw-options "-fplugin-arg-capture_window-loop=spec_cuda.cu:9:1:2 -fplugin-arg-capture_window-loop=spec_cuda.cu:8" }
// { cw-error-global "capture_window: '-fplugin-arg-capture_window-loop=spec_cuda.cu:8' matches no loop in this unit" }
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
  int x = 0;
  for (int i = 0; i < 3; i++) x += i;
  return x;
}
