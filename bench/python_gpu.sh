#!/usr/bin/env bash
# bench/python_gpu.sh OUT - the Python door on a GPU machine with PyTorch
# (docs/verification.md, "Python and PyTorch"): both nsys modes, the zero
# edit of the unedited sample, torchrun with two ranks, plan, and the
# cost per step of each form against the unmarked sample, in one run.
# Run from the source tree with libcapture_window built in build/runtime;
# PY is the Python with torch, NSYS the nsys to run. Logs go to OUT.
set -u
out=${1:?usage: python_gpu.sh OUT}
PY=${PY:-python3}
export PYTHONPATH=$PWD/python
export CAPTURE_WINDOW_LIBRARY=${CAPTURE_WINDOW_LIBRARY:-$PWD/build/runtime/libcapture_window.so.1}
cli=cli/capture-window
s=samples/train_torch.py
loop=$s:$(grep -n '^    for step in steps:' $s | cut -d: -f1)
step() { echo "== $*"; "$@"; echo "== exit status $?"; }
summary() {   # the step ranges and the kernels in each report
  for db in "$out"/*.sqlite; do
    "$PY" - "$db" <<'SQL'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
steps = [r[0] for r in db.execute("SELECT text FROM NVTX_EVENTS WHERE text LIKE 'step#%' ORDER BY start")]
kernels = db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
print("%s: NVTX %s, %d kernels" % (sys.argv[1].rsplit("/", 1)[-1], " ".join(steps), kernels))
SQL
  done
}
{
  date -u; nvidia-smi -L; "$PY" -c 'import sys, torch; print(sys.version.split()[0], torch.__version__)'
  step $cli profile -o "$out/cuda" -- "$PY" $s --window 30:3 --steps 60
  step $cli profile -o "$out/nvtx" --nsys-args="-c nvtx -p step" -- "$PY" $s --window 30:3 --steps 60
  step $cli profile -o "$out/zero" -- "$PY" -m capture_window --loop "$loop:30:3" $s --steps 60
  step "$(dirname "$PY")/torchrun" --nproc-per-node 2 --no-python \
    $cli profile -o "$out/ranks" -- "$PY" $s --window 30:3 --steps 60
  summary
  step $cli plan -- "$PY" $s --window 30:3 --steps 200
  for rep in 1 2; do    # cost: mean ms per step over 300 steps, each form
    for form in plain wrapper off zero; do
      case $form in
        plain) cmd=("$PY" $s) ;;
        wrapper) cmd=("$PY" $s --window 30:3) ;;
        off) cmd=(env CAPTURE_WINDOW=off "$PY" $s --window 30:3) ;;
        zero) cmd=("$PY" -m capture_window --loop "$loop:30:3" $s) ;;
      esac
      echo "cost $form: $("${cmd[@]}" --steps 300 --eval-every 1000 --ckpt-every 1000 | tail -1)"
    done
  done
} 2>&1 | tee "$out/python_gpu.log"
