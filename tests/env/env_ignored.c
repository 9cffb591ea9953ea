/* What the runtime reports and ignores, capture staying on: a bad value of
   a variable that only changes what is printed (_VERBOSE, _SELFCHECK), and
   a CAPTURE_WINDOW_* variable it does not know (a typo), named with the
   closest known one. Each gets one stderr line. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: CAPTURE_WINDOW_VERBOSE=yes
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBOSE='yes' is invalid: no such choice (expected 0 or 1); ignored: it only changes what is printed
//
// cw-run: CAPTURE_WINDOW_VERBOSE=2
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBOSE='2' is invalid: no such choice (expected 0 or 1); ignored: it only changes what is printed
//
// As if unset: the self-check reports, an NVTX tool being attached.
// cw-run: CAPTURE_WINDOW_SELFCHECK=yes
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_SELFCHECK='yes' is invalid: no such choice (expected 0 or 1); ignored: it only changes what is printed
// cw-stderr-re: capture_window: loop 'step' \(\S*env_program\.h:10\) ran 6 iterations; window 2-3: .*
// cw-stderr-re: capture_window: loop 'eval' \(\S*env_program\.h:15\) ran 4 iterations; window 1-1: .*
//
// A bad value that decides what is captured still turns capture off.
// cw-run: CAPTURE_WINDOW_VERBOSE=yes CAPTURE_WINDOW_TRIGGER=cpu --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='cpu' is invalid: no such choice (expected both, cuda or nvtx); capture is off for this run
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBOSE='yes' is invalid: no such choice (expected 0 or 1); ignored: it only changes what is printed
//
// cw-run: CAPTURE_WINDOW_VERBSE=1
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBSE is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_VERBOSE?
//
// 4 edits from _STEPS and from _TIMES: the one it shares more letters with.
// cw-run: CAPTURE_WINDOW_STEPTIMES=steps
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_STEPTIMES is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_TIMES?
//
// Near misses outside the family's prefix (issue 43 item 2): the windows
// of CAPTURE_WINDOWS are not taken, the pragma's are.
// cw-run: CAPTURE_WINDOWS=5:2 CAPTUREWINDOW_TIMES=steps
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTUREWINDOW_TIMES is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_TIMES?
// cw-stderr: capture_window: CAPTURE_WINDOWS is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW?
//
// A swap of two letters is one edit.
// cw-run: CAPTURE_WINDOW_TRIGEGR=nvtx
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGEGR is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_TRIGGER?
//
// One line each, in the order of the names; reported with capture off too.
// cw-run: CAPTURE_WINDOW=off CAPTURE_WINDOW_RANK=0 CAPTURE_WINDOW_LOOP=step --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOP is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_LOOPS?
// cw-stderr: capture_window: CAPTURE_WINDOW_RANK is not a capture_window variable (ignored); did you mean CAPTURE_WINDOW_RANKS?
//
// The Python door's variable is known; an empty value counts as unset.
// cw-run: CAPTURE_WINDOW_LIBRARY=/nowhere/libcapture_window.so.1 CAPTURE_WINDOW_VERBSE=
// cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
// cw-expect: eval#0(.) S eval[ eval#1(.) ] E eval#2..3(.)
#include "env_program.h"
