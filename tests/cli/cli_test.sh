#!/bin/sh
# Tests of the capture-window command (cli/capture-window) against fake-nsys,
# a stand-in nsys that records its arguments and serves fixture CSV in the
# format of nsys 2025.3.1 (fixtures/README.md). Each case asserts the exact
# verdict lines, the exit status and, for profile, the exact nsys command.
# Usage: cli_test.sh [CAPTURE_WINDOW_COMMAND]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cw=${1:-$here/../../cli/capture-window}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0

# The environment each case starts from: no rank, no window settings.
unset RANK OMPI_COMM_WORLD_RANK PMI_RANK PMIX_RANK SLURM_PROCID CAPTURE_WINDOW \
      CAPTURE_WINDOW_RANKS CAPTURE_WINDOW_SIGNAL CAPTURE_WINDOW_STEPS FAKE_NSYS_SIZE
export NSYS="$here/fake-nsys" FAKE_NSYS_LOG="$work/nsys.log"
# shellcheck disable=SC2016
printf '#!/bin/sh\necho "prog: $*"\nexit ${PROG_EXIT:-0}\n' >prog
chmod +x prog

# case NAME STATUS EXPECTED-STDOUT [EXPECTED-NSYS-CALLS] -- COMMAND...
# (env assignments go before `case` through `env`)
case_() {
  name=$1 want_status=$2 want_out=$3 want_log=$4
  shift 5
  : >"$FAKE_NSYS_LOG"
  out=$("$@" 2>"$work/stderr")
  status=$?
  log=$(cat "$FAKE_NSYS_LOG")
  ok=1
  [ "$status" = "$want_status" ] || ok=0
  [ "$out" = "$want_out" ] || ok=0
  [ "$want_log" = "*" ] || [ "$log" = "$want_log" ] || ok=0
  if [ $ok = 1 ]; then
    echo "PASS: $name"
  else
    failures=$((failures + 1))
    echo "FAIL: $name"
    echo "  status $status, expected $want_status"
    printf '  stdout:\n%s\n  expected:\n%s\n' "$out" "$want_out" | sed 's/^/    /'
    [ "$want_log" = "*" ] ||
      printf '  nsys calls:\n%s\n  expected:\n%s\n' "$log" "$want_log" | sed 's/^/    /'
    sed 's/^/  stderr: /' "$work/stderr"
  fi
}
stats() { echo "nsys stats --report cuda_gpu_kern_sum --report nvtx_sum --format csv --force-export=true $1"; }
report() { echo "fixture=$1" >"$2"; [ -z "${3-}" ] || truncate -s "$3" "$2"; }

# ---- check: one verdict per report, from nsys stats

report window train.nsys-rep 4200000
case_ "check: ok" 0 \
  "train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB" \
  "$(stats train.nsys-rep)" -- "$cw" check --expect 30:3 train.nsys-rep
case_ "check: ok without --expect" 0 \
  "train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB" \
  "*" -- "$cw" check train.nsys-rep
case_ "check: a window elsewhere" 1 \
  "train.nsys-rep: found 3 steps (step#30-32), expected 3 (step#45-47)" \
  "*" -- "$cw" check --expect 45:3 train.nsys-rep
report nokernels empty.nsys-rep 65000
case_ "check: no kernels" 1 \
  "empty.nsys-rep: no kernels captured: the window closed before any GPU work (or nsys ran without -t cuda); 65.0 kB" \
  "*" -- "$cw" check empty.nsys-rep
report window huge.nsys-rep 2100000000
case_ "check: a report of GBs" 1 \
  "huge.nsys-rep: report is 2.1 GB: the window never closed (nsys recorded until the program ended; is the loop shorter than the window, or nsys run without -c cudaProfilerApi / -c nvtx?)" \
  "" -- "$cw" check huge.nsys-rep
report four four.nsys-rep 64000
case_ "check: one step too many" 1 \
  "four.nsys-rep: found 4 steps (step#30-33), expected 3 (step#30-32)" \
  "*" -- "$cw" check --expect 30:3 four.nsys-rep
report merged merged.nsys-rep 70000
case_ "check: two windows in one report" 1 \
  "merged.nsys-rep: found 5 steps (step#10-11,40-42): several windows in one report (use --capture-range-end=repeat for a report per window)" \
  "*" -- "$cw" check merged.nsys-rep
report noranges plain.nsys-rep 64000
case_ "check: no step ranges" 1 \
  "plain.nsys-rep: no step#i ranges: was the program built with the capture-window plugin, nsys run with -t nvtx, and is the loop's label 'step' (--label)? 3 kernels, 64.0 kB" \
  "*" -- "$cw" check plain.nsys-rep
report eval eval.nsys-rep 812
case_ "check: --label eval" 0 \
  "eval.nsys-rep: ok: 2 steps (eval#5-6), 8 kernels, 812 bytes" \
  "*" -- "$cw" check --label eval --expect 5:2 eval.nsys-rep
report threads threads.nsys-rep 67899
case_ "check: two threads, one closed first" 0 \
  "threads.nsys-rep: ok: 3 steps (step#30-32) in 2 threads, 26 kernels, 67.9 kB (also step#33-36 of threads whose window closed first)" \
  "*" -- "$cw" check --expect 30:3 threads.nsys-rep
case_ "check: several reports, one missing" 1 \
  "$(printf '%s\n' "train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB" \
     "gone.nsys-rep: no such report")" \
  "*" -- "$cw" check train.nsys-rep gone.nsys-rep
case_ "check: bad --expect" 2 "" "" -- "$cw" check --expect 30 train.nsys-rep

# ---- profile: the nsys command, then a check of each report

base="nsys profile -t cuda,nvtx -c cudaProfilerApi"
case_ "profile: defaults, NAME from the program" 0 \
  "$(printf '%s\n' "prog: a b c" "prog.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "$base --capture-range-end=stop -f true -o prog ./prog a b c" "$(stats prog.nsys-rep)")" \
  -- env FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile ./prog a b c
case_ "profile: -o and nsys options before --" 0 \
  "$(printf '%s\n' "prog: --flag" "run.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "nsys profile -t cuda,nvtx --capture-range-end=stop -f true -o run -c nvtx -p step --delay 5 --sample=none ./prog --flag" "$(stats run.nsys-rep)")" \
  -- env FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile -o run -c nvtx -p step \
     --nsys-args "--delay 5" --sample=none -- ./prog --flag
case_ "profile: RANK names the report per rank" 0 \
  "$(printf '%s\n' "prog: " "train.1.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "$base --capture-range-end=stop -f true -o train.%q{RANK} ./prog" "$(stats train.1.nsys-rep)")" \
  -- env RANK=1 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile -o train ./prog
case_ "profile: SLURM_PROCID when it is the only rank variable" 0 \
  "$(printf '%s\n' "prog: " "train.7.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "$base --capture-range-end=stop -f true -o train.%q{SLURM_PROCID} ./prog" "$(stats train.7.nsys-rep)")" \
  -- env SLURM_PROCID=7 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile -o train ./prog
case_ "profile: CAPTURE_WINDOW of two windows: repeat:2, each report its window" 0 \
  "$(printf '%s\n' "prog: " "train.1.nsys-rep: ok: 2 steps (step#10-11), 2 kernels, 60.0 kB" \
     "train.2.nsys-rep: ok: 3 steps (step#40-42), 3 kernels, 60.0 kB")" \
  "$(printf '%s\n' "$base --capture-range-end=repeat:2 -f true -o train ./prog" "$(stats train.1.nsys-rep)" "$(stats train.2.nsys-rep)")" \
  -- env CAPTURE_WINDOW=40:3,10:2 FAKE_NSYS_REPORTS="repeat1 repeat2" FAKE_NSYS_SIZE=60000 "$cw" profile -o train ./prog
case_ "profile: a report that does not hold CAPTURE_WINDOW's window" 1 \
  "$(printf '%s\n' "prog: " "train.nsys-rep: found 3 steps (step#30-32), expected 2 (step#10-11)")" \
  "*" -- env CAPTURE_WINDOW=10:2 FAKE_NSYS_REPORTS=window "$cw" profile -o train ./prog
case_ "profile: CAPTURE_WINDOW=auto:3 checks a 3-step window" 0 \
  "$(printf '%s\n' "prog: " "train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "$base --capture-range-end=stop -f true -o train ./prog" "$(stats train.nsys-rep)")" \
  -- env CAPTURE_WINDOW=auto:3 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile -o train ./prog
case_ "profile: CAPTURE_WINDOW_SIGNAL: a report per signal" 0 \
  "$(printf '%s\n' "prog: " "train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "$(printf '%s\n' "$base --capture-range-end=repeat -f true -o train ./prog" "$(stats train.nsys-rep)")" \
  -- env CAPTURE_WINDOW_SIGNAL=USR1 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile -o train ./prog
case_ "profile: CAPTURE_WINDOW=off: no report, as expected" 0 \
  "$(printf '%s\n' "prog: " "capture-window: no report, as expected: CAPTURE_WINDOW=off")" \
  "$base --capture-range-end=stop -f true -o prog ./prog" \
  -- env CAPTURE_WINDOW=off FAKE_NSYS_REPORTS= "$cw" profile ./prog
case_ "profile: a rank CAPTURE_WINDOW_RANKS leaves out" 0 \
  "$(printf '%s\n' "prog: " "capture-window: no report, as expected: rank 3 is not in CAPTURE_WINDOW_RANKS=0,4-7")" \
  "*" -- env RANK=3 CAPTURE_WINDOW_RANKS=0,4-7 FAKE_NSYS_REPORTS= "$cw" profile ./prog
case_ "profile: a rank CAPTURE_WINDOW_RANKS selects" 0 \
  "$(printf '%s\n' "prog: " "prog.5.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "*" -- env RANK=5 CAPTURE_WINDOW_RANKS=0,4-7 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile ./prog
case_ "profile: no report although a window was due" 1 \
  "$(printf '%s\n' "prog: " "capture-window: no report from nsys (exit status 0): the window never opened. Was the program built with the capture-window plugin, does the marked loop reach START, and did CAPTURE_WINDOW_LOOPS leave it active?")" \
  "*" -- env FAKE_NSYS_REPORTS= "$cw" profile ./prog
case_ "profile: the program's exit status comes back" 3 \
  "$(printf '%s\n' "prog: " "prog.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "*" -- env PROG_EXIT=3 FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile ./prog

# ---- nsys from PATH when NSYS is not set
mkdir bin && ln -s "$here/fake-nsys" bin/nsys
case_ "profile: nsys from PATH" 0 \
  "$(printf '%s\n' "prog: " "prog.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB")" \
  "*" -- env -u NSYS PATH="$work/bin:$PATH" FAKE_NSYS_REPORTS=window FAKE_NSYS_SIZE=4200000 "$cw" profile ./prog
[ -s "$FAKE_NSYS_LOG" ] || { failures=$((failures + 1)); echo "FAIL: nsys on PATH was not run"; }

# ---- usage
case_ "usage: no command" 2 "" "" -- "$cw"
case_ "usage: unknown command" 2 "" "" -- "$cw" record ./prog
case_ "usage: profile without a program" 2 "" "" -- "$cw" profile -o x
case_ "--help" 0 "$("$cw" --help)" "" -- "$cw" --help

if [ $failures -ne 0 ]; then
  echo "$failures case(s) failed"
  exit 1
fi
echo "all cases passed"
