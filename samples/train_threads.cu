/*
 * train_threads.cu - one host thread per GPU, each running its own marked
 * training loop on its device (the shape of a single-process multi-GPU job).
 *
 *   nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \
 *       -o threads ./train_threads
 *
 * Iterations count per thread, so every thread's window holds its steps 30,
 * 31 and 32. The profiler is process-wide: it starts when the first thread
 * opens its window and stops when the last one closes, so the one report
 * holds every device's window (and whatever the other threads ran while it
 * was on). Optional argument: the number of threads (default: one per GPU).
 */
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

__global__ void step_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.999f + 1.0f;
}

static void train_on(int device, int steps) {
  cudaSetDevice(device);
  const int n = 1 << 20;
  float *x;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "train_threads: device %d: no memory\n", device);
    return;
  }
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    step_kernel<<<(n + 255) / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
  }
  cudaFree(x);
}

int main(int argc, char **argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "train_threads: no usable GPU\n");
    return 1;
  }
  int threads = argc > 1 ? atoi(argv[1]) : devices;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; t++) workers.emplace_back(train_on, t % devices, 50);
  for (auto &w : workers) w.join();
  printf("train_threads: %d threads on %d GPUs: done\n", threads, devices);
  return 0;
}
