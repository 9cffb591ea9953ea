/* CAPTURE_WINDOW: off, a custom window, several windows, a window past
   the end of the loop. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW=off
// cw-expect: .step@0..5 .eval@0..3
//
// cw-run: CAPTURE_WINDOW=3:1
// cw-expect: step#0..2(.) S step[ step#3(.) ] E step#4..5(.)
// cw-expect: eval#0..2(.) S eval[ eval#3(.) ] E
//
// cw-run: CAPTURE_WINDOW=0:1,3:2
// cw-expect: S step[ step#0(.) ] E step#1..2(.) S step[ step#3..4(.) ] E step#5(.)
// cw-expect: S eval[ eval#0(.) ] E eval#1..2(.) S eval[ eval#3(.) ] E
//
// cw-run: CAPTURE_WINDOW=10:2
// cw-expect: step#0..5(.) eval#0..3(.)
#include "env_program.h"
