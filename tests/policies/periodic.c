/* Periodic windows: CAPTURE_WINDOW=START:COUNT/EVERY[xTIMES], mixable with
   plain windows; a window that would start inside an open one is skipped.
   A periodic window's range begins with the mark L:aimed-every-EVERY (what
   it is for: docs/nsys.md), a plain window's holds only its steps.
   The program: a "step" loop of 6 iterations, then an "eval" loop of 4. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW=1:1/3
// cw-expect: step#0(.) S step[ .step:aimed-every-3 step#1(.) ] E step#2..3(.)
// cw-expect: S step[ .step:aimed-every-3 step#4(.) ] E step#5(.)
// cw-expect: eval#0(.) S eval[ .eval:aimed-every-3 eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW=0:1/2x2
// cw-expect: S step[ .step:aimed-every-2 step#0(.) ] E step#1(.)
// cw-expect: S step[ .step:aimed-every-2 step#2(.) ] E step#3..5(.)
// cw-expect: S eval[ .eval:aimed-every-2 eval#0(.) ] E eval#1(.)
// cw-expect: S eval[ .eval:aimed-every-2 eval#2(.) ] E eval#3(.)
//
// Without the window range (trigger cuda) there is no mark either.
// cw-run: CAPTURE_WINDOW=0:1/2x2 CAPTURE_WINDOW_TRIGGER=cuda --mode=cuda
// cw-expect: S step#0(.) E step#1(.) S step#2(.) E step#3..5(.)
// cw-expect: S eval#0(.) E eval#1(.) S eval#2(.) E eval#3(.)
//
// cw-run: CAPTURE_WINDOW=4:2,0:1/3x1
// cw-expect: S step[ .step:aimed-every-3 step#0(.) ] E step#1..3(.) S step[ step#4..5(.) ] E
// cw-expect: S eval[ .eval:aimed-every-3 eval#0(.) ] E eval#1..3(.)
//
// cw-run: CAPTURE_WINDOW=0:3/5,1:1/5
// cw-expect: S step[ .step:aimed-every-5 step#0..2(.) ] E step#3..4(.)
// cw-expect: S step[ .step:aimed-every-5 step#5(.) ] E
// cw-expect: S eval[ .eval:aimed-every-5 eval#0..2(.) ] E eval#3(.)
#include "../env/env_program.h"
