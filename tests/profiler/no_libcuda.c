/* No libcuda.so.1 anywhere on the path: the program runs normally and the
   NVTX events are unchanged; only the profiler calls are missing. */
// cw-run: --no-libcuda
// cw-expect: step#0..1(.) step[ step#2..3(.) ] step#4..5(.)
//
// cw-run: --no-libcuda CAPTURE_WINDOW_TRIGGER=cuda
// cw-expect: step#0..5(.)
//
// cw-run: --no-libcuda CAPTURE_WINDOW_VERBOSE=1
// cw-expect: step#0..1(.) step[ step#2..3(.) ] step#4..5(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*no_libcuda\.c:\d+, main\) is active
// cw-stderr: capture_window: no CUDA driver (libcuda.so.1 with cuProfilerStart): profiler calls skipped
// cw-stderr-re: capture_window: window opened: loop 'step' .* iteration 2, window 2:2, thread \d+
// cw-stderr-re: capture_window: window closed: loop 'step' .* held iterations 2-3, thread \d+
#include "cw_test.h"

int main(void)
{
  unsigned x = 12345;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    x = x * 1103515245u + 12345u;
  }
  printf("x %u\n", x);
  return 0;
}
