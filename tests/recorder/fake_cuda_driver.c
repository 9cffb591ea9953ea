/*
 * fake_cuda_driver.c - a stand-in for the CUDA driver, built as libcuda.so.1.
 *
 * The capture-window runtime finds the profiler through
 * dlopen("libcuda.so.1") and cuProfilerStart / cuProfilerStop. Tests put
 * the folder of this library first on LD_LIBRARY_PATH, so the runtime's
 * profiler calls land here and are recorded in $CW_RECORD, in the same
 * file and the same global order as the NVTX events:
 *
 *   T<tid> profiler start
 *   T<tid> profiler stop
 *
 * Nothing else of the driver API is provided: a CUDA runtime that loads
 * this library finds no driver and reports that, as on a machine without
 * a GPU.
 */
#include "record_line.h"

#define CW_EXPORT __attribute__((visibility("default")))

typedef int CUresult; /* CUDA_SUCCESS == 0 */

CW_EXPORT CUresult cuProfilerStart(void) {
  cw_record_line("profiler start");
  return 0;
}

CW_EXPORT CUresult cuProfilerStop(void) {
  cw_record_line("profiler stop");
  return 0;
}
