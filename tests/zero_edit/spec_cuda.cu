// Zero-edit marking through nvcc: cuda_loop.cu without its pragma, the loop
// named by FILE:LINE (-Xcompiler hands the argument to the host compiler;
// the loop keyword is on line 21).  The events are cuda_loop.cu's.
// cw-plugin-args: loop=spec_cuda.cu:21:2:2
// cw-windows: step=2:2
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
#include "cw_test.h"
#include <cuda_runtime.h>

__global__ void scale(float *x, float f) { x[threadIdx.x] *= f; }

int main()
{
  int devices = 0;
  bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  float *d = nullptr;
  if (gpu)
    gpu = cudaMalloc(&d, 32 * sizeof(float)) == cudaSuccess;
  double host = 1.0;
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    if (gpu)
      scale<<<1, 32>>>(d, 1.5f);
    host *= 1.5;
  }
  if (gpu) {
    cudaDeviceSynchronize();
    cudaFree(d);
  }
  printf("host %.4f\n", host);
  return 0;
}
