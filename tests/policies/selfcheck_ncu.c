/* Under Nsight Compute (NV_COMPUTE_PROFILER_PERFWORKS_DIR set, as ncu sets
   it) every profiled step is slow, because ncu replays its kernels: the
   exit self-check says so instead of judging the window. Steps take 2 ms;
   step 21, as a replayed step, 40 ms. Under nsys, which injects from inside
   the Nsight Compute install, the same run is "not steady state". */
// cw-windows: step=20:3
//
// cw-run: CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1 NV_COMPUTE_PROFILER_PERFWORKS_DIR=/opt/nvidia/nsight-compute/2025.3.1/target/linux-desktop-glibc_2_11_3-x64/.
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_ncu\.c:\d+\) ran 24 iterations; window 20-22: median [0-9.]+ ms, spread [0-9.]+%: Nsight Compute replayed its kernels, so its step times say nothing about the program$
//
// cw-run: CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1 NV_COMPUTE_PROFILER_PERFWORKS_DIR=/usr/local/cuda-12.8/nsight-compute-2025.1.0/target/linux-desktop-glibc_2_11_3-x64/.
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_ncu\.c:\d+\) ran 24 iterations; window 20-22: median [0-9.]+ ms, spread [0-9.]+%: Nsight Compute replayed its kernels, so its step times say nothing about the program
//
// cw-run: CAPTURE_WINDOW=20:3 CAPTURE_WINDOW_SELFCHECK=1 CUDA_INJECTION64_PATH=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/libToolsInjection64.so
// cw-expect: step#0..19(.) S step[ step#20..22(.) ] E step#23(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*selfcheck_ncu\.c:\d+\) ran 24 iterations; window 20-22: median [0-9.]+ ms, spread [0-9.]+%: step 21 is [0-9.]+x slower than the 15 steps before \(median [0-9.]+ ms, spread [0-9.]+%\)(, \d+ steps slow)?: not steady state \(eval\? checkpoint\?\)
#include "cw_test.h"

int main(void)
{
  long sum = 0;
#pragma capture_window(20, 3)
  for (int step = 0; step < 24; step++) {
    cw_mark("step", step);
    cw_sleep_us(step == 21 ? 40000 : 2000);
    sum += step;
  }
  printf("sum %ld\n", sum);
  return 0;
}
