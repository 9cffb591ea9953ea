/* An iteration end with no iteration in progress (issue 7, hostile h):
   what a goto from outside into a marked body does when the loop's state
   is valid (the body's end runs, its begin was skipped). This program
   calls the ABI by hand, as instrumented code would, so no compiler
   decides what the skipped code leaves behind.

   Outcome: the runtime ignores such an end - no pop, no read before its
   table of iterations in progress (cw_iter_end_v2 runs only for the
   iterations that went through the runtime, so the check costs the
   inline path nothing). The iterations
   around it count and open their window as usual. (Through the GCC
   plugin, a goto into a marked body from outside the loop also skips the
   loop's entry, so the end runs with an undefined state: see
   docs/limitations.md.) */
// cw-windows: step=1:2
// cw-run:
// cw-expect: step#0(.) S step[ step#1..2(.) ] E step#3(.)
//
// cw-run: CAPTURE_WINDOW=off
// cw-expect: .step@0..3
#include <capture_window/abi.h>

#include "cw_test.h"

static struct cw_site_v2 site = {CW_ABI_VERSION, __LINE__, __FILE__, "main", "step", 1, 2,
                                 {0}};

int main(void)
{
  struct cw_loop_v2 *cw = cw_loop_enter_v2(&site);
  if (cw)
    cw_iter_end_v2(cw); /* before any iteration */
  for (int i = 0; i < 4; i++) {
    /* Every iteration through the runtime: legal, and what a tool-attached
       run does anyway. */
    int on = 0;
    if (cw) {
      cw->next++; /* what the emitted inline test does first */
      on = cw_iter_begin_v2(cw);
    }
    cw_mark("step", i);
    if (on) {
      cw_iter_end_v2(cw);
      if (i == 1)
        cw_iter_end_v2(cw); /* inside the window, between two iterations */
    }
  }
  if (cw) {
    cw_iter_end_v2(cw); /* after the last one */
    cw_loop_exit_v2(cw, 0);
  }
  printf("done\n");
  return 0;
}
