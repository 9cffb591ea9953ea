/* errno across the runtime: the hooks run between the program's own
   statements and call the NVTX tool, which may change errno (the
   recorder does, on every event, as any C function may), and the first
   window looks for a CUDA driver that is not there. The program sees
   errno exactly as it left it at the end of each iteration: its output is
   the plain build's (one line, no "errno N before iteration i"). */
// cw-run: --no-libcuda
// cw-expect: step#0..1(.) step[ step#2..3(.) ] step#4..5(.)
#include <errno.h>

#include "cw_test.h"

int main(void)
{
  int changed = 0;
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    if (errno != 0)
      printf("errno %d before iteration %d\n", errno, i), changed++;
    cw_mark("step", i);
    errno = 0;
  }
  printf("errno changed %d times\n", changed);
  return 0;
}
