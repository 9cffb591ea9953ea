/* reentered.c with the GCC plugin's portable emission. */
// cw-plugin-args: portable
// cw-windows: step=4:3
// cw-run:
// cw-expect: step#0..2(.) step#3(.) S step[ step#4..5(.) ] E step#6..8(.)
#include "reentered.c"
