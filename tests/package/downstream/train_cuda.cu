// A marked loop in a CUDA source, window 1:2 labelled "cuda". Kernels run
// only where a GPU answers; the test looks at the host side.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *x) { x[threadIdx.x] *= 1.5f; }

int main() {
  int devices = 0;
  float *d = nullptr;
  bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0 &&
             cudaMalloc(&d, 32 * sizeof(float)) == cudaSuccess;
#pragma capture_window(1, 2, "cuda")
  for (int step = 0; step < 4; step++)
    if (gpu) scale<<<1, 32>>>(d);
  if (gpu) cudaFree(d);
  printf("train_cuda: gpu=%d\n", gpu);
  return 0;
}
