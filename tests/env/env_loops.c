/* CAPTURE_WINDOW_LOOPS by label and by FILE:LINE (a path suffix); loops
   not listed behave as unmarked. The pragmas are on lines 31 and 36. */
// cw-run: CAPTURE_WINDOW_LOOPS=eval
// cw-expect: .step@0..5 eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=step
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.) .eval@0..3
//
// cw-run: CAPTURE_WINDOW_LOOPS=env_loops.c:31
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.) .eval@0..3
//
// cw-run: CAPTURE_WINDOW_LOOPS=env/env_loops.c:36
// cw-expect: .step@0..5 eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=step,env_loops.c:36
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_LOOPS=nosuch
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr-re: capture_window: CAPTURE_WINDOW_LOOPS='nosuch' selected none of the loops that ran: 'step' \(\S*env_loops\.c:31\), 'eval' \(\S*env_loops\.c:36\); no window opened
// cw-run: CAPTURE_WINDOW_LOOPS=env_loops.c:32
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr-re: capture_window: CAPTURE_WINDOW_LOOPS='env_loops\.c:32' selected none of the loops that ran: 'step' \(\S*env_loops\.c:31\), 'eval' \(\S*env_loops\.c:36\); no window opened
#include "cw_test.h"
int main(void)
{
  long a = 0, b = 0;
  int k = 0;
  /* The next line is line 31. */
#pragma capture_window(2, 2)
  for (int i = 0; i < 6; i++) {
    cw_mark("step", i);
    a += i * 7 % 5;
  }
#pragma capture_window(1, 1, "eval")
  while (k < 4) {
    cw_mark("eval", k);
    b += k++ * 3;
  }
  printf("a %ld b %ld\n", a, b);
  return 0;
}
