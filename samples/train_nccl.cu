/*
 * train_nccl.cu - a data-parallel training loop: one process per GPU, and
 * in every step a forward, a backward and an ncclAllReduce (ncclAvg) of the
 * gradients, then the update, as DDP does it.
 *
 *   mpirun -np 2 nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \
 *       -o report.%q{OMPI_COMM_WORLD_RANK} ./train_nccl
 *   torchrun --nproc-per-node 2 --no-python nsys profile -t cuda,nvtx -c cudaProfilerApi \
 *       --capture-range-end=stop -o report.%q{RANK} ./train_nccl
 *   capture-window check report.*.nsys-rep
 *
 * Rank, world size and local rank come from the launcher: torchrun (RANK,
 * WORLD_SIZE, LOCAL_RANK), Open MPI (OMPI_COMM_WORLD_RANK, _SIZE,
 * _LOCAL_RANK), Slurm (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID), first
 * set wins. No MPI is linked: rank 0 hands the ncclUniqueId to the others
 * over TCP, listening on TRAIN_NCCL_PORT (default MASTER_PORT + 1, since
 * torchrun's own store holds MASTER_PORT; else 29431) and reached at
 * MASTER_ADDR (default 127.0.0.1: one node; several nodes need MASTER_ADDR
 * set on every rank, e.g. mpirun -x MASTER_ADDR=node0).
 *
 * TRAIN_NCCL_SLOW=RANK[:TIMES] makes rank RANK run its backward TIMES more
 * times (default 3) in every step: a straggler, whom the other ranks wait
 * for inside the all-reduce (capture-window check names it).
 *
 * One process per GPU (device LOCAL_RANK % count): NCCL refuses two ranks
 * of one communicator on one GPU. With one rank NCCL launches no
 * collective kernel: the all-reduce is a one-rank reduction
 * (oneRankReduce, for ncclAvg's multiply by 1/1).
 */
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cuda_runtime.h>
#include <nccl.h>

static void die(int rank, const char *what, const char *why) {
  fprintf(stderr, "train_nccl: rank %d: %s: %s\n", rank, what, why);
  exit(1);
}

#define CUDA_OK(rank, call)                                              \
  do {                                                                   \
    cudaError_t e_ = (call);                                             \
    if (e_ != cudaSuccess) die(rank, #call, cudaGetErrorString(e_));     \
  } while (0)
#define NCCL_OK(rank, call)                                              \
  do {                                                                   \
    ncclResult_t r_ = (call);                                            \
    if (r_ != ncclSuccess) die(rank, #call, ncclGetErrorString(r_));     \
  } while (0)

/* The first of NAMES a launcher set, as an integer; FALLBACK if none. */
static int launcher_int(const char *const names[3], int fallback) {
  for (int i = 0; i < 3; i++) {
    const char *value = getenv(names[i]);
    if (value && *value) return atoi(value);
  }
  return fallback;
}

struct Job {
  int rank, size, local_rank;
};

static Job launcher_job() {
  static const char *const rank[3] = {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"};
  static const char *const size[3] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "SLURM_NTASKS"};
  static const char *const local[3] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"};
  Job job;
  job.rank = launcher_int(rank, 0);
  job.size = launcher_int(size, 1);
  job.local_rank = launcher_int(local, job.rank);
  return job;
}

static const char *exchange_port(char buf[16]) {
  const char *port = getenv("TRAIN_NCCL_PORT");
  if (port && *port) return port;
  const char *master = getenv("MASTER_PORT");
  snprintf(buf, 16, "%d", master && *master ? atoi(master) + 1 : 29431);
  return buf;
}

/* Rank 0: serve ID to the SIZE-1 other ranks, one connection each. */
static void serve_id(const Job &job, const char *port, const ncclUniqueId &id) {
  int s = socket(AF_INET, SOCK_STREAM, 0), on = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(atoi(port));
  if (bind(s, (sockaddr *)&addr, sizeof addr) != 0 || listen(s, job.size) != 0)
    die(job.rank, "listen for the other ranks (TRAIN_NCCL_PORT)", strerror(errno));
  for (int served = 1; served < job.size; served++) {
    int c = accept(s, nullptr, nullptr);
    if (c < 0 || write(c, &id, sizeof id) != (ssize_t)sizeof id)
      die(job.rank, "send the NCCL id", strerror(errno));
    close(c);
  }
  close(s);
}

/* Other ranks: rank 0's id, trying for a minute while rank 0 starts. */
static ncclUniqueId fetch_id(const Job &job, const char *port) {
  const char *host = getenv("MASTER_ADDR");
  addrinfo hints = {}, *found = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host && *host ? host : "127.0.0.1", port, &hints, &found) != 0)
    die(job.rank, "resolve MASTER_ADDR", host);
  ncclUniqueId id;
  for (int attempt = 0; attempt < 600; attempt++, usleep(100000)) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(s, found->ai_addr, found->ai_addrlen) == 0) {
      size_t got = 0;
      ssize_t n = 1;
      while (got < sizeof id && (n = read(s, (char *)&id + got, sizeof id - got)) > 0) got += n;
      close(s);
      if (got == sizeof id) {
        freeaddrinfo(found);
        return id;
      }
    } else {
      close(s);
    }
  }
  die(job.rank, "fetch the NCCL id from rank 0", "no answer within 60 s");
  return id;
}

/* TRAIN_NCCL_SLOW=RANK[:TIMES]: the extra backward passes of this rank. */
static int extra_backward(const Job &job) {
  const char *slow = getenv("TRAIN_NCCL_SLOW");
  int who = -1, times = 3;
  if (!slow || !*slow) return 0;
  if (sscanf(slow, "%d:%d", &who, &times) < 1 || times < 0)
    die(job.rank, "TRAIN_NCCL_SLOW", "expected RANK[:TIMES]");
  return who == job.rank ? times : 0;
}

/* A layer's worth of arithmetic per element: enough for a step of ms. */
__global__ void forward(const float *w, float *act, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = w[i];
  for (int k = 0; k < depth; k++) a = a * 0.999f + 0.001f;
  act[i] = a;
}

__global__ void backward(const float *act, float *grad, int n, int depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float g = act[i] - 1.0f;
  for (int k = 0; k < depth; k++) g = g * 0.999f + 0.0001f;
  grad[i] = g;
}

__global__ void update(float *w, const float *grad, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] -= lr * grad[i];
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 50;
  Job job = launcher_job();
  int devices = 0, extra = extra_backward(job);
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    die(job.rank, "cudaGetDeviceCount", "no usable GPU");
  int device = job.local_rank % devices;
  CUDA_OK(job.rank, cudaSetDevice(device));

  ncclUniqueId id;
  char port_buf[16];
  const char *port = exchange_port(port_buf);
  if (job.rank == 0) NCCL_OK(job.rank, ncclGetUniqueId(&id));
  if (job.size > 1) {
    if (job.rank == 0)
      serve_id(job, port, id);
    else
      id = fetch_id(job, port);
  }
  ncclComm_t comm;
  NCCL_OK(job.rank, ncclCommInitRank(&comm, job.size, id, job.rank));

  const int n = 1 << 22, depth = 2048, blocks = (n + 255) / 256;
  float *w, *act, *grad;
  CUDA_OK(job.rank, cudaMalloc(&w, n * sizeof(float)));
  CUDA_OK(job.rank, cudaMalloc(&act, n * sizeof(float)));
  CUDA_OK(job.rank, cudaMalloc(&grad, n * sizeof(float)));
  CUDA_OK(job.rank, cudaMemset(w, 0, n * sizeof(float)));
  cudaStream_t stream;
  CUDA_OK(job.rank, cudaStreamCreate(&stream));
#pragma capture_window(30, 3)
  for (int step = 0; step < steps; step++) {
    forward<<<blocks, 256, 0, stream>>>(w, act, n, depth);
    for (int k = 0; k <= extra; k++) backward<<<blocks, 256, 0, stream>>>(act, grad, n, depth);
    NCCL_OK(job.rank, ncclAllReduce(grad, grad, n, ncclFloat, ncclAvg, comm, stream));
    update<<<blocks, 256, 0, stream>>>(w, grad, n, 0.01f);
    CUDA_OK(job.rank, cudaStreamSynchronize(stream));
  }
  NCCL_OK(job.rank, ncclCommDestroy(comm));
  cudaFree(w);
  cudaFree(act);
  cudaFree(grad);
  printf("train_nccl: rank %d of %d on GPU %d: done\n", job.rank, job.size, device);
  return 0;
}
