/*
 * loop_bench.c - the per-iteration cost of a marked loop (contract section 5).
 *
 * Built with the GCC plugin at -O2 (bench/CMakeLists.txt) and linked with the
 * shared runtime, as a user builds. Two bodies, each written three ways in
 * this one file, so all six run in the same process and configuration:
 *
 *   plain    the loop as it is without capture-window
 *   marked   the same loop under `#pragma capture_window(30, 3)`
 *   hand     what users write today for the same capture:
 *              if (step == 30) profiler start;
 *              snprintf(name, "step#%ld", step); nvtxRangePushA(name);
 *              BODY
 *              nvtxRangePop();
 *              if (step == 32) profiler stop;
 *
 * Bodies: "small", about 50-100 ns of dependent integer arithmetic, and
 * "empty", an asm statement the compiler must keep (so the plain loop is a
 * real loop, not deleted). A seventh variant, "empty clock", is the plain
 * loop reading the step clock once per iteration (bench/times_ab.sh).
 *
 * The profiler calls of "hand" go to cuProfilerStart/Stop looked up in
 * libcuda.so.1 the way the runtime does it; on a machine without a driver
 * both sides skip them. They happen once per window and do not show in
 * per-iteration costs anyway.
 *
 * Modes:
 *   loop_bench [--rounds R]
 *       R rounds; each round runs the six variants once, in an order that
 *       rotates every round, after one warm-up round. Prints one line per
 *       variant and round: "BODY VARIANT ROUND NS_PER_ITERATION".
 *   loop_bench --only BODY-VARIANT --iters N
 *       one warm-up call, then N iterations inside cw_bench_measured(), for
 *       `valgrind --tool=callgrind --toggle-collect=cw_bench_measured`.
 *
 * The environment chooses the configuration (CAPTURE_WINDOW,
 * NVTX_INJECTION64_PATH); bench/run.sh runs them all and prints the table.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvtx3/nvToolsExt.h>

enum { WINDOW_START = 30, WINDOW_COUNT = 3, WORK_STEPS = 24 };

typedef int (*cu_profiler_fn)(void);
static cu_profiler_fn cu_start, cu_stop;

static void resolve_profiler(void) {
  void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver) {
    cu_start = (cu_profiler_fn)dlsym(driver, "cuProfilerStart");
    cu_stop = (cu_profiler_fn)dlsym(driver, "cuProfilerStop");
  }
}

static void profiler_start(void) {
  if (cu_start) cu_start();
}

static void profiler_stop(void) {
  if (cu_stop) cu_stop();
}

/* The small body: a dependent chain of multiply, shift and xor that the
   compiler can neither vectorize nor fold across iterations. */
#define SMALL_BODY                                                                                 \
  for (int k = 0; k < WORK_STEPS; k++) {                                                           \
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;                                       \
    x ^= x >> 29;                                                                                  \
  }

#define EMPTY_BODY __asm__ volatile("")

typedef unsigned long long (*loop_fn)(long n, unsigned long long x);

#define NOINLINE __attribute__((noinline))

static NOINLINE unsigned long long small_plain(long n, unsigned long long x) {
  for (long step = 0; step < n; step++) {
    SMALL_BODY
  }
  return x;
}

static NOINLINE unsigned long long small_marked(long n, unsigned long long x) {
#pragma capture_window(30, 3)
  for (long step = 0; step < n; step++) {
    SMALL_BODY
  }
  return x;
}

static NOINLINE unsigned long long small_hand(long n, unsigned long long x) {
  for (long step = 0; step < n; step++) {
    if (step == WINDOW_START) profiler_start();
    char name[32];
    snprintf(name, sizeof name, "step#%ld", step);
    nvtxRangePushA(name);
    SMALL_BODY
    nvtxRangePop();
    if (step == WINDOW_START + WINDOW_COUNT - 1) profiler_stop();
  }
  return x;
}

static NOINLINE unsigned long long empty_plain(long n, unsigned long long x) {
  for (long step = 0; step < n; step++) {
    EMPTY_BODY;
  }
  return x + (unsigned long long)n;
}

static NOINLINE unsigned long long empty_marked(long n, unsigned long long x) {
#pragma capture_window(30, 3)
  for (long step = 0; step < n; step++) {
    EMPTY_BODY;
  }
  return x + (unsigned long long)n;
}

static NOINLINE unsigned long long empty_hand(long n, unsigned long long x) {
  for (long step = 0; step < n; step++) {
    if (step == WINDOW_START) profiler_start();
    char name[32];
    snprintf(name, sizeof name, "step#%ld", step);
    nvtxRangePushA(name);
    EMPTY_BODY;
    nvtxRangePop();
    if (step == WINDOW_START + WINDOW_COUNT - 1) profiler_stop();
  }
  return x + (unsigned long long)n;
}

/* The plain loop reading a clock once per iteration, the one the runtime
   times steps with where docs/performance.md measured (the TSC: x86-64,
   clocksource tsc), else CLOCK_MONOTONIC: the floor under what recording
   step times can cost (bench/times_ab.sh). */
static unsigned long long read_clock(void) {
#if defined(__x86_64__)
  return __builtin_ia32_rdtsc();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_nsec;
#endif
}

static NOINLINE unsigned long long empty_clock(long n, unsigned long long x) {
  for (long step = 0; step < n; step++) {
    EMPTY_BODY;
    x += read_clock();
  }
  return x + (unsigned long long)n;
}

struct variant {
  const char *body, *name;
  loop_fn fn;
  long iterations; /* per timed call: a few milliseconds */
};

static const struct variant variants[] = {
    {"small", "plain", small_plain, 40000},    {"small", "marked", small_marked, 40000},
    {"small", "hand", small_hand, 40000},      {"empty", "plain", empty_plain, 400000},
    {"empty", "marked", empty_marked, 400000}, {"empty", "hand", empty_hand, 400000},
    {"empty", "clock", empty_clock, 400000},
};
enum { N_VARIANTS = sizeof variants / sizeof variants[0] };

static unsigned long long sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double time_variant(const struct variant *v) {
  double t0 = now_ns();
  sink += v->fn(v->iterations, sink | 1);
  return (now_ns() - t0) / (double)v->iterations;
}

static int run_rounds(int rounds) {
  for (int k = 0; k < N_VARIANTS; k++) time_variant(&variants[k]); /* warm-up */
  for (int r = 0; r < rounds; r++)
    for (int j = 0; j < N_VARIANTS; j++) {
      const struct variant *v = &variants[(j + r) % N_VARIANTS];
      printf("%s %s %d %.3f\n", v->body, v->name, r, time_variant(v));
    }
  return 0;
}

/* The only code callgrind counts in --only mode. */
NOINLINE void cw_bench_measured(const struct variant *v, long n) { sink += v->fn(n, sink | 1); }

static int run_one(const char *which, long n) {
  for (int k = 0; k < N_VARIANTS; k++) {
    const struct variant *v = &variants[k];
    char name[64];
    snprintf(name, sizeof name, "%s-%s", v->body, v->name);
    if (strcmp(name, which) != 0) continue;
    sink += v->fn(WINDOW_START + WINDOW_COUNT + 1, 1); /* one-time set-up, window */
    cw_bench_measured(v, n);
    return 0;
  }
  fprintf(stderr, "loop_bench: no variant '%s'\n", which);
  return 2;
}

int main(int argc, char **argv) {
  int rounds = 21;
  const char *only = NULL;
  long iters = 100000;
  for (int k = 1; k < argc; k++) {
    if (strcmp(argv[k], "--rounds") == 0 && k + 1 < argc)
      rounds = atoi(argv[++k]);
    else if (strcmp(argv[k], "--only") == 0 && k + 1 < argc)
      only = argv[++k];
    else if (strcmp(argv[k], "--iters") == 0 && k + 1 < argc)
      iters = atol(argv[++k]);
    else {
      fprintf(stderr, "usage: loop_bench [--rounds R] | --only BODY-VARIANT --iters N\n");
      return 2;
    }
  }
  resolve_profiler();
  int status = only ? run_one(only, iters) : run_rounds(rounds);
  if (sink == 42) puts(""); /* keep the results alive */
  return status;
}
