// exception.cpp with the GCC plugin's portable emission
// (-fplugin-arg-capture_window-portable: the test and calls as C
// statements, what targets other than x86-64 get); tests/doors holds the
// x86-64 emission to it.
// cw-plugin-args: portable
// cw-windows: step=2:3
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "exception.cpp"
