/* goto.c with the GCC plugin's portable emission. */
// cw-plugin-args: portable
// cw-windows: step=2:3
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "goto.c"
