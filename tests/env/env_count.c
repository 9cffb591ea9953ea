/* CAPTURE_WINDOW_COUNT: every loop keeps its pragma's START and takes this
   COUNT; windows given in CAPTURE_WINDOW keep their own. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_COUNT=1 --windows=step=2:1 --windows=eval=1:1
// cw-expect: step#0..1(.) S step[ step#2(.) ] E step#3..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_COUNT=3 --windows=step=2:3 --windows=eval=1:3
// cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5(.)
// cw-expect: eval#0(.) S eval[ eval#1..3(.) ] E
//
// cw-run: CAPTURE_WINDOW_COUNT=1 CAPTURE_WINDOW=3:2
// cw-expect: step#0..2(.) S step[ step#3..4(.) ] E step#5(.)
// cw-expect: eval#0..2(.) S eval[ eval#3(.) ] E
#include "env_program.h"
