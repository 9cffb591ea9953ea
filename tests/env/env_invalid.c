/* An invalid value never stops the program: one stderr line naming the
   variable, quoting the value, saying what is wrong with it and showing the
   accepted form; the run then behaves as CAPTURE_WINDOW=off (no event, no
   profiler call). The variables that only change what is printed are
   env_ignored.c's. */
// cw-windows: step=2:2 eval=1:1
//
// cw-run: "CAPTURE_WINDOW=500;3" --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='500;3' is invalid: '500;3' has no ':' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=abc --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='abc' is invalid: 'abc' has no ':' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// The word without its COUNT (issue 43 item 2).
// cw-run: CAPTURE_WINDOW=auto --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='auto' is invalid: auto needs :COUNT (auto:3) (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike' is invalid: spike needs :COUNT (spike:3) (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=2:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='2:0' is invalid: COUNT must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=-1:2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='-1:2' is invalid: START must be a decimal number from 0 to 2^62, got '-1' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=2:2, --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='2:2,' is invalid: an empty item after the last ',' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: "CAPTURE_WINDOW_LOOPS=step;eval" --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS='step;eval' is invalid: LABEL must match [A-Za-z0-9_.-]{1,63}, got 'step;eval' (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_RANKS='x' is invalid: RANK must be a decimal number from 0 to 2^62, got 'x' (expected all or RANK or FIRST-LAST[,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=3-1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_RANKS='3-1' is invalid: LAST must be >= FIRST (3), got 1 (expected all or RANK or FIRST-LAST[,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TRIGGER=cpu --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='cpu' is invalid: no such choice (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=0 RANK=abc --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: RANK='abc' is invalid: it must be a decimal number from 0 to 2^62 (expected a non-negative integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=0 OMPI_COMM_WORLD_RANK=-3 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: OMPI_COMM_WORLD_RANK='-3' is invalid: it must be a decimal number from 0 to 2^62 (expected a non-negative integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=1:1 CAPTURE_WINDOW_TRIGGER=cpu --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='cpu' is invalid: no such choice (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=x CAPTURE_WINDOW_TRIGGER=y --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='x' is invalid: 'x' has no ':' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
// cw-stderr: capture_window: CAPTURE_WINDOW_TRIGGER='y' is invalid: no such choice (expected both, cuda or nvtx); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=30:3/2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='30:3/2' is invalid: EVERY must be >= COUNT (3), got 2 in '30:3/2' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=30:3/100x0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='30:3/100x0' is invalid: TIMES must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=auto:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='auto:0' is invalid: COUNT must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=auto:3,1:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='auto:3,1:1' is invalid: COUNT must be a decimal number from 1 to 2^62, got '3,1:1' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=1:1/ --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='1:1/' is invalid: EVERY is missing (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:0' is invalid: COUNT must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:3x0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:3x0' is invalid: TIMES must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike:3x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:3x' is invalid: TIMES is missing (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=spike: --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='spike:' is invalid: COUNT is missing (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=none,1:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='none,1:1' is invalid: 'none' stands alone, not in a list (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TIMES=steps.%q --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TIMES='steps.%q' is invalid: %q is not %p, %r or %% (expected a path; %p is the pid, %r the rank, %% a %); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_TIMES=steps% --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_TIMES='steps%' is invalid: a lone % ends it (expected a path; %p is the pid, %r the rank, %% a %); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_WATCH=no/such/folder/cw.watch --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_WATCH='no/such/folder/cw.watch' is invalid: its folder 'no/such/folder' is not a folder this process can reach (expected the path of a file in an existing folder, shared by the nodes); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_WATCH=/tmp/ --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_WATCH='/tmp/' is invalid: it names a folder, not a file (expected the path of a file in an existing folder, shared by the nodes); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_SIGNAL=HUP --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_SIGNAL='HUP' is invalid: no such choice (expected USR1 or USR2); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_ALIGN=0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_ALIGN='0' is invalid: it must be a decimal number from 1 to 2^62 (expected a positive integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_COUNT=0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_COUNT='0' is invalid: it must be a decimal number from 1 to 2^62 (expected a positive integer); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_STEPS=some --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_STEPS='some' is invalid: no such choice (expected all, window or off); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=5:2,6:2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='5:2,6:2' is invalid: windows 5:2 and 6:2 overlap (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=6:2,1:1,5:2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='6:2,1:1,5:2' is invalid: windows 5:2 and 6:2 overlap (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=10:3/2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='10:3/2' is invalid: EVERY must be >= COUNT (3), got 2 in '10:3/2' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=5:0 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='5:0' is invalid: COUNT must be a decimal number from 1 to 2^62, got '0' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=99999999999999999999:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='99999999999999999999:1' is invalid: START must be a decimal number from 0 to 2^62, got '99999999999999999999' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=,1:1 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW=',1:1' is invalid: an empty item before a ',' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW=1:x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW='1:x' is invalid: COUNT must be a decimal number from 1 to 2^62, got 'x' (expected off, none, auto:COUNT, spike:COUNT[xTIMES] or START:COUNT[/EVERY[xTIMES]][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_LOOPS=train.c:x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS='train.c:x' is invalid: LINE must be a decimal number from 1 to 2^62, got 'x' (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_LOOPS=:12 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS=':12' is invalid: FILE is missing in ':12' (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_LOOPS=train.c:4294967296 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS='train.c:4294967296' is invalid: LINE must be <= 4294967295, got 4294967296 (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_LOOPS=train.c:10@ --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_LOOPS='train.c:10@' is invalid: INSTANCE is missing after '@' in 'train.c:10@' (expected LABEL or FILE:LINE, each [@INSTANCE][,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_RANKS=0,,2 --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_RANKS='0,,2' is invalid: an empty item before a ',' (expected all or RANK or FIRST-LAST[,...]); capture is off for this run
//
// cw-run: CAPTURE_WINDOW_ALIGN=x --mode=off
// cw-expect: .step@0..5 .eval@0..3
// cw-stderr: capture_window: CAPTURE_WINDOW_ALIGN='x' is invalid: it must be a decimal number from 1 to 2^62 (expected a positive integer); capture is off for this run
#include "env_program.h"
