// exception.cpp built with -fnon-call-exceptions, where any load may throw
// (the inline test's loads included): an exception thrown in the window
// still ends the iteration and the window.
// cw-flags: -fnon-call-exceptions
// cw-skip: clang the flag is GCC's
// cw-windows: step=2:3
// cw-run:
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
#include "exception.cpp"
