/* An invalid value never stops the program: one stderr line naming the
   variable, quoting the value and showing the accepted form; the run then
   behaves as CAPTURE_WINDOW=off (no event, no profiler call). */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: "CAPTURE_WINDOW=500;3" --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='500;3' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=abc --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='abc' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=2:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='2:0' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=-1:2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='-1:2' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=2:2, --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='2:2,' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: "CAPTURE_WINDOW_LOOPS=step;eval" --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS='step;eval' is invalid (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_RANKS='x' is invalid (expected all or RANK or FIRST-LAST[,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=3-1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_RANKS='3-1' is invalid (expected all or RANK or FIRST-LAST[,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cpu --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='cpu' is invalid (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_VERBOSE=2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBOSE='2' is invalid (expected 0 or 1); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_VERBOSE=yes --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_VERBOSE='yes' is invalid (expected 0 or 1); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=0 RANK=abc --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: RANK='abc' is invalid (expected a non-negative integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=0 OMPI_COMM_WORLD_RANK=-3 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: OMPI_COMM_WORLD_RANK='-3' is invalid (expected a non-negative integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=1:1 CAPTURE_WINDOW_TRIGGER=cpu --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='cpu' is invalid (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=x CAPTURE_WINDOW_TRIGGER=y --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='x' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='y' is invalid (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=30:3/2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='30:3/2' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=30:3/100x0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='30:3/100x0' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=auto:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='auto:0' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=auto:3,1:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='auto:3,1:1' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=1:1/ --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='1:1/' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:0' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:3x0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:3x0' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:3x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:3x' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike: --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=none,1:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='none,1:1' is invalid (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TIMES=steps.%q --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TIMES='steps.%q' is invalid (expected a path; %p is the pid, %r the rank, %% a %); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TIMES=steps% --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TIMES='steps%' is invalid (expected a path; %p is the pid, %r the rank, %% a %); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_SIGNAL=HUP --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL='HUP' is invalid (expected USR1 or USR2); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_ALIGN=0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_ALIGN='0' is invalid (expected a positive integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_COUNT=0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_COUNT='0' is invalid (expected a positive integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_STEPS=some --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_STEPS='some' is invalid (expected all, window or off); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_SELFCHECK=yes --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_SELFCHECK='yes' is invalid (expected 0 or 1); capture is off for this run
#include "env_program.h"
