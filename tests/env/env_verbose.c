/* CAPTURE_WINDOW_VERBOSE=1: one stderr line per decision (loop activated,
   profiler started/stopped, window opened/closed with loop, file:line,
   iteration and thread). The texts follow runtime/window.c and
   runtime/profiler.c. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*env_program\.h:10, main\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'step' \(\S*env_program\.h:10\) iteration 2, window 2:2, thread [0-9]+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'step' \(\S*env_program\.h:10\) held iterations 2-3, thread [0-9]+
// cw-stderr-re: capture_window: loop 'eval' \(\S*env_program\.h:15, main\) is active
// cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
// cw-stderr-re: capture_window: window opened: loop 'eval' \(\S*env_program\.h:15\) iteration 1, window 1:1, thread [0-9]+
// cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
// cw-stderr-re: capture_window: window closed: loop 'eval' \(\S*env_program\.h:15\) held iterations 1-1, thread [0-9]+
//
// cw-run: CAPTURE_WINDOW_VERBOSE=0
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
//
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW=off: capture is off for this run
#include "env_program.h"
