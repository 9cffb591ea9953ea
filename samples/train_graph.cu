/*
 * train_graph.cu - a training-like loop whose step is a CUDA graph: the
 * step's kernels are captured once (cudaStreamBeginCapture ...
 * cudaGraphInstantiate) and the graph is replayed every iteration
 * (cudaGraphLaunch), as torch.compile's reduce-overhead mode does.
 *
 *   nvcc -Xcompiler -fplugin=capture_window.so train_graph.cu -lcapture_window \
 *        -o train_graph
 *   nsys profile -c cudaProfilerApi --capture-range-end=stop --cuda-graph-trace=node ./train_graph
 *   nsys profile -c nvtx -p step --capture-range-end=stop --cuda-graph-trace=node ./train_graph
 *
 * Either capture holds exactly steps 30, 31 and 32, and, traced by node,
 * the graph's 17 kernels in each (8 forward, 8 backward, 1 update).
 *
 *   train_graph [STEPS [EVAL_EVERY [CKPT_EVERY]]]
 *
 * Steps EVAL_EVERY, 2*EVAL_EVERY, ... also evaluate: the kernel `evaluate`,
 * launched on its own after the graph. Steps CKPT_EVERY, ... write a
 * checkpoint: a copy to the host and a write to a temporary file, host
 * work that launches no kernel. 0 (the default) turns either off. The last
 * line gives the loop's mean step time.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <vector>

#include <cuda_runtime.h>

enum { LAYERS = 8, N = 1 << 20, THREADS = 256 };

/* The layers' kernels, grid-stride: any grid covers the N elements. */
__global__ void forward(float *x, int n, float scale) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] = x[i] * scale + 1.0f;
}

__global__ void backward(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] *= 0.5f;
}

__global__ void update(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    x[i] -= 0.001f * x[i];
}

/* An evaluation pass: a few reads of every element, longer than a layer. */
__global__ void evaluate(const float *x, int n, float *loss) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < 64; k++) s += x[(i + k * 4099) % n];
  if (s < -1.0f) *loss = s; /* never: keeps the loop */
}

/* One step's kernels on STREAM: what the graph holds. */
static void enqueue_step(cudaStream_t stream, float *x) {
  const int blocks = (N + THREADS - 1) / THREADS;
  for (int l = 0; l < LAYERS; l++) forward<<<blocks, THREADS, 0, stream>>>(x, N, 1.001f);
  for (int l = 0; l < LAYERS; l++) backward<<<blocks, THREADS, 0, stream>>>(x, N);
  update<<<blocks, THREADS, 0, stream>>>(x, N);
}

/* The step captured into a graph, ready to launch. */
static cudaGraphExec_t capture_step(cudaStream_t stream, float *x) {
  cudaGraph_t graph;
  cudaGraphExec_t exec = nullptr;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  enqueue_step(stream, x);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  return exec;
}

static void checkpoint(const float *x, std::vector<float> &host) {
  cudaMemcpy(host.data(), x, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
  char path[] = "/tmp/train_graph.XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return;
  for (int copy = 0; copy < 8; copy++) /* 32 MB, flushed to disk */
    if (write(fd, host.data(), host.size() * sizeof(float)) < 0) break;
  fsync(fd);
  close(fd);
  unlink(path);
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  int eval_every = argc > 2 ? atoi(argv[2]) : 0;
  int ckpt_every = argc > 3 ? atoi(argv[3]) : 0;
  float *x, *loss;
  if (cudaMalloc(&x, N * sizeof(float)) != cudaSuccess || cudaMalloc(&loss, sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "train_graph: no usable GPU\n");
    return 1;
  }
  cudaMemset(x, 0, N * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraphExec_t step_graph = capture_step(stream, x);
  if (!step_graph) {
    fprintf(stderr, "train_graph: graph capture failed\n");
    return 1;
  }
  std::vector<float> host(N);
  auto begin = std::chrono::steady_clock::now();
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    cudaGraphLaunch(step_graph, stream);
    if (eval_every > 0 && step > 0 && step % eval_every == 0)
      evaluate<<<(N + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, N, loss);
    cudaStreamSynchronize(stream);
    if (ckpt_every > 0 && step > 0 && step % ckpt_every == 0) checkpoint(x, host);
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  float first;
  cudaMemcpy(&first, x, sizeof first, cudaMemcpyDeviceToHost);
  printf("train_graph: %d steps, x[0] = %.4f, %.4f ms per step\n", steps, first, steps ? ms / steps : 0.0);
  cudaGraphExecDestroy(step_graph);
  cudaStreamDestroy(stream);
  cudaFree(loss);
  cudaFree(x);
  return 0;
}
