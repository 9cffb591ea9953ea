/*
 * train_ranks.cu - one process per rank, the shape of a torchrun, mpirun or
 * srun job: each process reads its rank from the launcher's variable and
 * trains on GPU RANK % (number of GPUs).
 *
 *   RANK=0 nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \
 *       -o report.%q{RANK} ./train_ranks &
 *   RANK=1 nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \
 *       -o report.%q{RANK} ./train_ranks
 *
 * writes report.0.nsys-rep and report.1.nsys-rep, each with steps 30-32 of
 * its rank; with CAPTURE_WINDOW_RANKS=1 only rank 1 opens a window, so only
 * report.1.nsys-rep is written. The runtime reads the rank the same way.
 */
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

/* The first rank variable a launcher set (torchrun, Open MPI, MPICH,
   PMIx, Slurm), as capture-window's runtime reads it. */
static int launcher_rank() {
  const char *names[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                         "SLURM_PROCID"};
  for (const char *name : names) {
    const char *value = getenv(name);
    if (value && *value) return atoi(value);
  }
  return 0;
}

__global__ void step_kernel(float *x, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= lr * (x[i] - 1.0f);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  int rank = launcher_rank(), devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    fprintf(stderr, "train_ranks: rank %d: no usable GPU\n", rank);
    return 1;
  }
  int device = rank % devices;
  cudaSetDevice(device);
  const int n = 1 << 20;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    step_kernel<<<(n + 255) / 256, 256>>>(x, n, 0.1f);
    step_kernel<<<(n + 255) / 256, 256>>>(x, n, 0.01f);
    cudaDeviceSynchronize();
  }
  cudaFree(x);
  printf("train_ranks: rank %d on GPU %d: done\n", rank, device);
  return 0;
}
