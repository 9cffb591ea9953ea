/*
 * steps_cuda.cu - GPU test program whose kernels say which step launched
 * them: step s of thread t launches `tag` with gridDim.x = 1000 * (t + 1) + s,
 * so a report's CUPTI_ACTIVITY_KIND_KERNEL.gridX names the iteration.
 *
 *   steps_cuda STEPS            one thread, marked loop capture_window(30, 3)
 *   steps_cuda STEPS threads    two threads in the same marked loop, ordered
 *                               so that thread 0 closes its window while
 *                               thread 1's is still open
 *   steps_cuda STEPS eval       one thread; step 31 launches 10 kernels more
 *                               (an eval inside the window: not steady state)
 *   steps_cuda STEPS every N    one thread; every step also runs `spin`
 *                               (gridX 2) for about 0.2 ms; steps N, 2N, ...
 *                               evaluate: `spin` for about 2 ms and 10 kernels
 *                               more (gridX 1), so the step is ~10x slower:
 *                               the loop `capture-window plan` and
 *                               CAPTURE_WINDOW=spike:3 are checked on
 *                               (gpu_checks.py --parts cut)
 *   steps_cuda STEPS judge N M  one thread, the trainer of issue 21, with
 *                               NVTX ranges of its own: 'train' around the
 *                               loop, 'train_step' inside every step (its
 *                               tag and a 0.2 ms spin); steps N, 2N, ...
 *                               evaluate inside 'validation' (10 tags of
 *                               gridX 1 and a 2 ms spin), steps M, 2M, ...
 *                               and the last checkpoint inside 'checkpoint'
 *                               (a 20 ms spin of gridX 3, a copy to the
 *                               host): plan, spike, check and ncu on events
 *                               that coincide (gpu_checks.py --parts judge)
 *
 * Prints "steps_cuda: done" last, so a check can tell whether nsys let the
 * program run to its end.
 */
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void tag(int *sink) {
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(sink, 1);
}

/* Busy for about `ns` nanoseconds of GPU time (one thread). */
__global__ void spin(long long ns) {
  long long start = 0, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < ns);
}

static std::atomic<int> progress[2]; /* highest step begun, per thread */
static bool ordered;
static int eval_step = -1; /* this step launches EVAL_KERNELS more */
static int eval_every = 0; /* every mode: steps N, 2N, ... evaluate */
enum { EVAL_KERNELS = 10, STEP_SPIN_NS = 200000, EVAL_SPIN_NS = 2000000,
       CHECKPOINT_SPIN_NS = 20000000 };

static void wait_until(int thread, int step) {
  while (progress[thread].load() < step) std::this_thread::yield();
}

/* Thread 1 opens its window while thread 0's is open (0 waits at step 31),
   then thread 0 closes its window and thread 1 keeps launching inside its
   own (1 waits at step 31 for 0 to begin step 33). */
static void keep_order(int thread, int step) {
  progress[thread].store(step);
  if (!ordered) return;
  if (thread == 0 && step == 31) wait_until(1, 30);
  if (thread == 1 && step == 31) wait_until(0, 33);
}

static void run_steps(int thread, int steps, int *sink) {
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    keep_order(thread, step);
    tag<<<1000 * (thread + 1) + step, 32>>>(sink);
    bool evaluates = step == eval_step || (eval_every && step > 0 && step % eval_every == 0);
    for (int k = 0; evaluates && k < EVAL_KERNELS; k++) tag<<<1, 32>>>(sink);
    if (eval_every) spin<<<2, 1>>>(evaluates ? EVAL_SPIN_NS : STEP_SPIN_NS);
    cudaDeviceSynchronize();
  }
  progress[thread].store(1 << 30);
}

/* The trainer of issue 21 (judge mode): ranges of its own around the loop
   and inside each step. */
static void judge_steps(int steps, int every, int checkpoint_every, int *sink) {
  int copy = 0;
  nvtxRangePushA("train");
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    nvtxRangePushA("train_step");
    tag<<<1000 + step, 32>>>(sink);
    spin<<<2, 1>>>(STEP_SPIN_NS);
    nvtxRangePop();
    if (step > 0 && step % every == 0) {
      nvtxRangePushA("validation");
      for (int k = 0; k < EVAL_KERNELS; k++) tag<<<1, 32>>>(sink);
      spin<<<2, 1>>>(EVAL_SPIN_NS);
      nvtxRangePop();
    }
    if (step > 0 && (step % checkpoint_every == 0 || step == steps - 1)) {
      nvtxRangePushA("checkpoint");
      spin<<<3, 1>>>(CHECKPOINT_SPIN_NS);
      cudaMemcpy(&copy, sink, sizeof copy, cudaMemcpyDeviceToHost);
      nvtxRangePop();
    }
    cudaDeviceSynchronize();
  }
  nvtxRangePop();
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  ordered = argc > 2 && strcmp(argv[2], "threads") == 0;
  if (argc > 2 && strcmp(argv[2], "eval") == 0) eval_step = 31;
  if (argc > 3 && strcmp(argv[2], "every") == 0) eval_every = atoi(argv[3]);
  int *sink;
  if (cudaMalloc(&sink, sizeof *sink) != cudaSuccess) {
    fprintf(stderr, "steps_cuda: no usable GPU\n");
    return 1;
  }
  cudaMemset(sink, 0, sizeof *sink);
  if (argc > 4 && strcmp(argv[2], "judge") == 0) {
    judge_steps(steps, atoi(argv[3]), atoi(argv[4]), sink);
  } else if (ordered) {
    std::thread other(run_steps, 1, steps, sink);
    run_steps(0, steps, sink);
    other.join();
  } else {
    run_steps(0, steps, sink);
  }
  int launched = 0;
  cudaMemcpy(&launched, sink, sizeof launched, cudaMemcpyDeviceToHost);
  printf("steps_cuda: %d kernels ran\nsteps_cuda: done\n", launched);
  return 0;
}
