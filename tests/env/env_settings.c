/* CAPTURE_WINDOW_VERBOSE=1's settings line (runtime/options.c): every
   variable once, grouped by where its value came from: the environment,
   its default (its row's preset), or unset (then what decides instead:
   each loop's own window and COUNT, the pragma's here). A bad value shows
   the default it fell back to. The line comes after the reading's own
   complaints, before every other verbose line. The other tests leave it
   out (tests/tools/settings_line.py). */
// cw-windows: step=2:2 eval=1:1
//
// _VERBOSE set, and _STEPS (else the harness repeats the run with
// _STEPS=window); _SELFCHECK, which the harness sets to 0, is empty: unset.
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_STEPS=all CAPTURE_WINDOW_SELFCHECK=
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: settings from the environment: CAPTURE_WINDOW_VERBOSE=1, CAPTURE_WINDOW_STEPS=all; by default: CAPTURE_WINDOW_RANKS=all, CAPTURE_WINDOW_TRIGGER=both, CAPTURE_WINDOW_ALIGN=1; unset: CAPTURE_WINDOW (each loop's own window), CAPTURE_WINDOW_LOOPS, CAPTURE_WINDOW_SIGNAL, CAPTURE_WINDOW_COUNT (each loop's own COUNT), CAPTURE_WINDOW_SELFCHECK (on when verbose or under an NVTX tool), CAPTURE_WINDOW_TIMES, CAPTURE_WINDOW_WATCH
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
// cw-stderr-re: capture_window: loop 'step' \(\S*env_program\.h:10\) ran 6 iterations; window 2-3: .*
// cw-stderr-re: capture_window: loop 'eval' \(\S*env_program\.h:15\) ran 4 iterations; window 1-1: .*
//
// Every variable set: each as given, in the table's order.
// cw-run: CAPTURE_WINDOW=off CAPTURE_WINDOW_LOOPS=step,eval@tmpl<int> CAPTURE_WINDOW_RANKS=0,2-3 CAPTURE_WINDOW_TRIGGER=nvtx CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_SIGNAL=SIGUSR2 CAPTURE_WINDOW_ALIGN=8 CAPTURE_WINDOW_COUNT=3 CAPTURE_WINDOW_STEPS=window CAPTURE_WINDOW_SELFCHECK=0 CAPTURE_WINDOW_TIMES=steps.%p CAPTURE_WINDOW_WATCH=requests --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: settings from the environment: CAPTURE_WINDOW=off, CAPTURE_WINDOW_LOOPS=step,eval@tmpl<int>, CAPTURE_WINDOW_RANKS=0,2-3, CAPTURE_WINDOW_TRIGGER=nvtx, CAPTURE_WINDOW_VERBOSE=1, CAPTURE_WINDOW_SIGNAL=SIGUSR2, CAPTURE_WINDOW_ALIGN=8, CAPTURE_WINDOW_COUNT=3, CAPTURE_WINDOW_STEPS=window, CAPTURE_WINDOW_SELFCHECK=0, CAPTURE_WINDOW_TIMES=steps.%p, CAPTURE_WINDOW_WATCH=requests
// cw-stderr: capture_window: CAPTURE_WINDOW=off: capture is off for this run
//
// Bad values: each falls back to its default and says so; one that
// decides what is captured has turned capture off, one that only changes
// what is printed is ignored.
// cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_ALIGN=0 CAPTURE_WINDOW_SELFCHECK=yes --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_ALIGN='0' is invalid: it must be a decimal number from 1 to 2^62 (expected a positive integer); capture is off for this run
// cw-stderr: capture_window: CAPTURE_WINDOW_SELFCHECK='yes' is invalid: no such choice (expected 0 or 1); ignored: it only changes what is printed
// cw-stderr: capture_window: settings from the environment: CAPTURE_WINDOW_VERBOSE=1; by default: CAPTURE_WINDOW_RANKS=all, CAPTURE_WINDOW_TRIGGER=both, CAPTURE_WINDOW_ALIGN=1 (not '0': invalid, capture is off), CAPTURE_WINDOW_STEPS=all; unset: CAPTURE_WINDOW (each loop's own window), CAPTURE_WINDOW_LOOPS, CAPTURE_WINDOW_SIGNAL, CAPTURE_WINDOW_COUNT (each loop's own COUNT), CAPTURE_WINDOW_SELFCHECK (on when verbose or under an NVTX tool) (not 'yes': invalid), CAPTURE_WINDOW_TIMES, CAPTURE_WINDOW_WATCH
#include "env_program.h"
