/*
 * train_cuda.cu - a training-like loop that launches kernels every step.
 *
 *   nvcc -Xcompiler -fplugin=capture_window.so train_cuda.cu -lcapture_window \
 *        -o train_cuda
 *   nsys profile -c cudaProfilerApi --capture-range-end=stop ./train_cuda
 *   nsys profile -c nvtx -p step --capture-range-end=stop ./train_cuda
 *
 * Either capture holds exactly steps 30, 31 and 32.
 *
 * TRAIN_SLOW_KERNEL=N gives the backward kernel N more rounds of
 * arithmetic per element (its result does not change): one kernel slower
 * among the same kernels, for `capture-window diff` to find and flag
 * (docs/where-to-cut.md, "Did my change help?").
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

__global__ void forward(float *x, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * scale + 1.0f;
}

__global__ void backward(float *x, int n, int extra) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i] * 0.5f, y = v;
  for (int k = 0; k < extra; k++) y = y * 0.999f + 0.001f; /* the knob's work */
  x[i] = y == -1234.5f ? y : v; /* never -1234.5: the work is kept, v is stored */
}

static void train_step(float *x, int n, int extra) {
  forward<<<(n + 255) / 256, 256>>>(x, n, 1.001f);
  backward<<<(n + 255) / 256, 256>>>(x, n, extra);
  cudaDeviceSynchronize();
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  const int n = 1 << 20;
  float *x;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "train_cuda: no usable GPU\n");
    return 1;
  }
  cudaMemset(x, 0, n * sizeof(float));
  const char *slow = getenv("TRAIN_SLOW_KERNEL");
  int extra = slow ? atoi(slow) : 0;
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) train_step(x, n, extra);
  float first;
  cudaMemcpy(&first, x, sizeof first, cudaMemcpyDeviceToHost);
  printf("train_cuda: %d steps, x[0] = %.4f\n", steps, first);
  cudaFree(x);
  return 0;
}
