/* CAPTURE_WINDOW_STEPS: per-iteration ranges everywhere (all, the default),
   only inside windows (window) or never (off); the window itself is the
   same in every mode. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_STEPS=all
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.) eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_STEPS=window
// cw-expect: .step@0 .step@1 S step[ step#2..3(.) ] E .step@4 .step@5 .eval@0 S eval[ eval#1(.) ] E .eval@2 .eval@3
//
// cw-run: CAPTURE_WINDOW_STEPS=off
// cw-expect: .step@0 .step@1 S step[ .step@2 .step@3 ] E .step@4 .step@5 .eval@0 S eval[ .eval@1 ] E .eval@2 .eval@3
#include "../env/env_program.h"
