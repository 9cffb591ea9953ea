/* The self-check at exit: one line per marked loop with its windows and
   step times, or a warning for a window that never opened. It prints with
   CAPTURE_WINDOW_VERBOSE=1 or a profiler attached; CAPTURE_WINDOW_SELFCHECK
   forces it on or off (the test driver sets 0 unless a run says 1). */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.) eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*env_program\.h:10\) ran 6 iterations; window 2-3: median [0-9.]+ (ms|us|ns), spread [0-9.]+% \(2 steps before it: too few to judge\)
// cw-stderr-re: capture_window: loop 'eval' \(\S*env_program\.h:15\) ran 4 iterations; window 1-1: median [0-9.]+ (ms|us|ns), spread 0\.0% \(1 step before it: too few to judge\)
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=1 CAPTURE_WINDOW=30:3
// cw-expect: step#0..5(.) eval#0..3(.)
// cw-stderr-re: capture_window: loop 'step' \(\S*env_program\.h:10\) ran 6 iterations; window 30:3 never opened
// cw-stderr-re: capture_window: loop 'eval' \(\S*env_program\.h:15\) ran 4 iterations; window 30:3 never opened
#include "../env/env_program.h"
