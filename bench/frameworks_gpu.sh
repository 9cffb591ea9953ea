#!/usr/bin/env bash
# bench/frameworks_gpu.sh OUT [PART...] - the Hugging Face Trainer and
# Lightning on a GPU machine (issue 30 item 3, docs/python.md): per
# framework the unmarked sample, the callback (--window 30:3) and the zero
# edit, each under nsys in both capture modes, every report's step#i
# ranges and kernels, and whether each run printed the unmarked run's
# losses; then `capture-window plan` on both samples. PARTS (default all):
# hf lightning (the runs above), accum (the callback with gradient
# accumulation 2, against an unmarked run with it), plan. Run from the
# source tree with libcapture_window built in build/runtime; PY is the
# Python with torch, transformers and lightning, NSYS the nsys to run.
# Logs go to OUT; one failing step is logged and the rest runs on.
set -u
out=${1:?usage: frameworks_gpu.sh OUT [hf lightning accum plan]}
shift
parts=${*:-hf lightning accum plan}
mkdir -p "$out"
PY=${PY:-/opt/torch/.venv/bin/python3}
NSYS=${NSYS:-$PWD/.device/nsys}
export NSYS PYTHONPATH=$PWD/python
export CAPTURE_WINDOW_LIBRARY=${CAPTURE_WINDOW_LIBRARY:-$PWD/build/runtime/libcapture_window.so.1}
cli=cli/capture-window
hf=samples/train_hf.py
pl=samples/train_lightning.py
cuda=(profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -f true)
nvtx=(profile -t cuda,nvtx -c nvtx -p step --capture-range-end=stop -f true)

step() { echo "== $*"; "$@"; echo "== exit status $?"; }
losses() { grep -E '^(step|eval) [0-9]+ loss ' "$1"; }
# run NAME CMD...: CMD's stdout into OUT/NAME.out, stderr into NAME.err.
run() {
  local name=$1; shift
  echo "== $name: $*"
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "== $name: exit status $?, $(losses "$out/$name.out" | wc -l) loss lines"
}
# profiled NAME MODE CMD...: run under nsys (MODE cuda or nvtx), export
# the report to SQLite, print its step ranges and kernels.
profiled() {
  local name=$1 mode=$2; shift 2
  local -n args=$mode
  run "$name" "$NSYS" "${args[@]}" -o "$out/$name" "$@"
  if [ -f "$out/$name.nsys-rep" ]; then
    "$NSYS" export --type sqlite -f true -o "$out/$name.sqlite" "$out/$name.nsys-rep" \
      >/dev/null 2>>"$out/$name.err" || echo "== $name: nsys export failed"
    summary "$out/$name.sqlite"
  else
    echo "== $name: no report"
  fi
}
summary() {
  "$PY" - "$1" <<'SQL'
import sqlite3, sys
try:
    db = sqlite3.connect(sys.argv[1])
    steps = [r[0] for r in db.execute(
        "SELECT text FROM NVTX_EVENTS WHERE text LIKE 'step#%' ORDER BY start")]
    kernels = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
except sqlite3.Error as e:
    sys.exit("== %s: %s" % (sys.argv[1], e))
verdict = "ok" if steps == ["step#30", "step#31", "step#32"] else "NOT steps 30-32"
print("== %s: %s: NVTX %s, %d kernels" % (sys.argv[1].rsplit("/", 1)[-1], verdict,
                                           " ".join(steps), kernels))
SQL
}
# same NAME PLAIN: NAME printed PLAIN's losses, line for line.
same() {
  if [ ! -s "$out/$2.out" ] || ! losses "$out/$2.out" >/dev/null; then
    echo "== $1: no losses of $2 to compare"
  elif cmp -s <(losses "$out/$1.out") <(losses "$out/$2.out"); then
    echo "== $1: losses equal $2's ($(losses "$out/$1.out" | wc -l) lines)"
  else
    echo "== $1: losses DIFFER from $2's:"; diff <(losses "$out/$2.out") <(losses "$out/$1.out") | head -5
  fi
}
# framework NAME SCRIPT ZERO_SPEC: the five runs of one framework.
framework() {
  local name=$1 script=$2 spec=$3
  run "${name}_plain" "$PY" "$script"
  profiled "${name}_callback_cuda" cuda "$PY" "$script" --window 30:3
  profiled "${name}_callback_nvtx" nvtx "$PY" "$script" --window 30:3
  profiled "${name}_zero_cuda" cuda "$PY" -m capture_window --loop "$spec" "$script"
  profiled "${name}_zero_nvtx" nvtx "$PY" -m capture_window --loop "$spec" "$script"
  for r in callback_cuda callback_nvtx zero_cuda zero_nvtx; do same "${name}_$r" "${name}_plain"; done
}

{
  date -u; nvidia-smi -L
  "$PY" -c 'import sys, torch, transformers, lightning
print(sys.version.split()[0], "torch", torch.__version__, "transformers", transformers.__version__,
      "lightning", lightning.__version__)'
  "$NSYS" --version
  # The zero edit of the Trainer: the optimizer-step loop of _run_epoch,
  # `for update_step in range(...)`, in the installed transformers/trainer.py.
  trainer=$("$PY" -c 'import os, transformers; print(os.path.dirname(transformers.__file__))')/trainer.py
  line=$(grep -n '^        for update_step in range(' "$trainer" | head -1 | cut -d: -f1)
  echo "== Trainer's optimizer-step loop: $trainer:${line:-NOT FOUND}"
  grep -n '^        for update_step in range(' "$trainer"
  for part in $parts; do
    case $part in
      hf) framework hf $hf "transformers/trainer.py:${line:-0}:30:3"
          # the same loop by its FUNCTION spec
          profiled hf_zero_function_cuda cuda "$PY" -m capture_window --loop Trainer._run_epoch:30:3 $hf
          same hf_zero_function_cuda hf_plain ;;
      lightning) framework lightning $pl "_TrainingEpochLoop.run:30:3" ;;
      accum)
        for f in hf:$hf lightning:$pl; do
          run "${f%%:*}_accum_plain" "$PY" "${f#*:}" --accum 2
          profiled "${f%%:*}_accum_callback_cuda" cuda "$PY" "${f#*:}" --accum 2 --window 30:3
          same "${f%%:*}_accum_callback_cuda" "${f%%:*}_accum_plain"
        done ;;
      plan)
        # 120 steps: six evaluations, every 20
        step $cli plan -- "$PY" $hf --window 30:3 --steps 120
        step $cli plan -- "$PY" $pl --window 30:3 --steps 120 ;;
      *) echo "== unknown part '$part' (hf lightning accum plan)" ;;
    esac
  done
  date -u
} 2>&1 | tee "$out/frameworks_gpu.log"
