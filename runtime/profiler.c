/*
 * profiler.c - CUDA profiler start/stop, process-wide and reference-counted.
 *
 * The driver's cuProfilerStart/Stop are looked up in libcuda.so.1 at run time
 * rather than linked: nsys treats them like cudaProfilerStart/Stop, and this
 * way the same runtime serves programs linking cudart statically (nvcc's
 * default) or shared, and programs on machines with no driver at all, where
 * the calls are skipped.
 *
 * Windows of several threads overlap: the profiler starts when the first
 * window opens and stops when the last one closes.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>

#include "internal.h"

typedef int (*cu_profiler_fn)(void);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int open_windows;
static bool resolved;
static cu_profiler_fn cu_start, cu_stop;

static void resolve_driver(void) {
  void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  resolved = true;
  if (driver) {
    cu_start = (cu_profiler_fn)dlsym(driver, "cuProfilerStart");
    cu_stop = (cu_profiler_fn)dlsym(driver, "cuProfilerStop");
  }
  if (cw_config.verbose && !(cu_start && cu_stop))
    cw_log("no CUDA driver (libcuda.so.1 with cuProfilerStart): profiler calls skipped");
}

void cw_profiler_acquire(void) {
  if (!cw_lock(&lock)) return;
  if (open_windows++ == 0) {
    if (!resolved) resolve_driver();
    if (cu_start) {
      int status = cu_start();
      if (cw_config.verbose) cw_log("profiler started (cuProfilerStart: %d)", status);
    }
  }
  cw_unlock(&lock);
}

void cw_profiler_release(void) {
  if (!cw_lock(&lock)) return;
  if (open_windows > 0 && --open_windows == 0 && cu_stop) {
    int status = cu_stop();
    if (cw_config.verbose) cw_log("profiler stopped (cuProfilerStop: %d)", status);
  }
  cw_unlock(&lock);
}

/* exit() or a fatal signal inside a window (teardown.c): no pop can run on
   other threads any more, but the profiler must not be left running. */
void cw_profiler_stop_at_exit(void) {
  if (!cw_lock(&lock)) return;
  if (open_windows > 0 && cu_stop) {
    open_windows = 0;
    cu_stop();
    if (cw_config.verbose) cw_log("profiler stopped at exit with a window still open");
  }
  cw_unlock(&lock);
}
