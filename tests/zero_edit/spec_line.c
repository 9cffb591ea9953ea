/* Zero-edit marking by FILE:LINE: nested.c without its pragmas, the loops
   named on the command line instead (the loop keywords are on lines 24 and
   26).  The events are nested.c's, exactly.  The site's line is the loop
   keyword's, so CAPTURE_WINDOW_LOOPS=FILE:LINE names the same line. */
// cw-plugin-args: loop=spec_line.c:24:1:1:epoch loop=zero_edit/spec_line.c:26:5:2
// cw-windows: epoch=1:1 step=5:2
// cw-run:
// cw-expect: epoch#0(. step#0..3(.))
// cw-expect: S epoch[ epoch#1(. step#4(.) step[ step#5..6(.) ] step#7(.)) ] E
// cw-expect: epoch#2(. step#8..11(.))
//
// cw-run: CAPTURE_WINDOW_LOOPS=spec_line.c:26
// cw-expect: .epoch@0 step#0..3(.) .epoch@1 step#4(.) S step[ step#5..6(.) ] E
// cw-expect: step#7(.) .epoch@2 step#8..11(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=spec_line.c:25
// cw-expect: .epoch@0 .step@0..3 .epoch@1 .step@4..7 .epoch@2 .step@8..11
// cw-stderr-re: capture_window: CAPTURE_WINDOW_LOOPS='spec_line\.c:25' selected none of the loops that ran: 'epoch' \(\S*spec_line\.c:24\), 'step' \(\S*spec_line\.c:26\); no window opened
#include "cw_test.h"
int main(void)
{
  long step = 0, loss = 1000;
  /* The next line is line 24. */
  for (int epoch = 0; epoch < 3; epoch++) {
    cw_mark("epoch", epoch);
    for (int b = 0; b < 4; b++) {
      cw_mark("step", step++);
      loss -= loss / 10;
    }
  }
  printf("steps %ld loss %ld\n", step, loss);
  return 0;
}
