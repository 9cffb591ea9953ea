/* CAPTURE_WINDOW_TRIGGER: cuda = profiler calls only (the iteration
   ranges stay), nvtx = window ranges only, both = the default. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cuda
// cw-expect: step#0..1(.) S step#2..3(.) E step#4..5(.)
// cw-expect: eval#0(.) S eval#1(.) E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_TRIGGER=nvtx
// cw-expect: step#0..1(.) step[ step#2..3(.) ] step#4..5(.)
// cw-expect: eval#0(.) eval[ eval#1(.) ] eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_TRIGGER=both
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cuda CAPTURE_WINDOW=0:1
// cw-expect: S step#0(.) E step#1..5(.) S eval#0(.) E eval#1..3(.)
#include "env_program.h"
