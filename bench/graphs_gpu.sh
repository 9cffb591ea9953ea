#!/usr/bin/env bash
# bench/graphs_gpu.sh OUT [PART...] - CUDA graphs on a GPU machine (issue
# 31 items 5 and 6): samples/train_graph.cu, whose step is one CUDA graph
# replayed every iteration, built with the host's gcc and nvcc and the GCC
# plugin of scripts/device-gcc13.sh. PARTS (default all):
#   nsys    both capture modes under --cuda-graph-trace=node, and the
#           default graph tracing, through `capture-window profile`
#           (which checks each report); each report's steps and kernels
#   ncu     profile --tool ncu on the graph's kernels: ncu's default
#           (each kernel node a kernel), --graph-profiling graph, and the
#           NVTX filter `--nvtx-include step/`
#   cost    what --cuda-graph-trace=node costs against graph: 1,000 steps
#           (17,000 kernels) captured, each mode twice: nsys's run time,
#           the report's size, the captured steps' times (from the
#           export's step ranges); and the program without nsys
#   odd     what the odd step holds: an evaluation (a kernel the others
#           lack) and a checkpoint (host work, traced with -t osrt)
#   schema  the export's column names of the tables check reads
# Run from the source tree with .device/ prepared. Logs go to OUT; one
# failing step is logged and the rest runs on.
set -u
out=${1:?usage: graphs_gpu.sh OUT [nsys ncu cost odd schema]}
shift
parts=${*:-nsys ncu cost odd schema}
mkdir -p "$out"
export NSYS=${NSYS:-$PWD/.device/nsys} NCU=${NCU:-/usr/local/cuda/bin/ncu}
export LD_LIBRARY_PATH=$PWD/build-gcc13/runtime${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cli=cli/capture-window
prog=build-gcc13/samples/train_graph
py=python3

step() { echo "== $*"; "$@"; echo "== exit status $?"; }
# steps DB: each step range of the export and the kernels launched in it.
steps() {
  PYTHONPATH=$PWD/cli $py - "$1" <<'EOF'
import sys
from capture_window_cli.trace import Trace
t = Trace(sys.argv[1], "step")
name = sys.argv[1].rsplit("/", 1)[-1]
print(f"== {name}: {t.kernels} kernels, {t.graphs} graph launches traced whole")
for s in t.steps:
    names = ", ".join(f"{t.short.get(k, k)} x{n}" for k, n in sorted(s.names.items()))
    print(f"==   step#{s.index}: {s.took() / 1e3:.1f} us, {sum(s.names.values())} kernels ({names}), "
          f"{sum(s.graphs.values())} graphs")
EOF
}
size() { stat -c %s "$1" 2>/dev/null || echo missing; }
now() { date +%s.%N; }

build() {
  bash scripts/device-gcc13.sh plugin >"$out/plugin.log" 2>&1 || { tail -20 "$out/plugin.log"; exit 1; }
  tail -1 "$out/plugin.log"
  cmake --build build-gcc13 -j "$(nproc)" --target train_graph >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
  echo "== built $prog"
}

part_nsys() {
  step $cli profile -o "$out/node_cuda" -- $prog
  step $cli profile -o "$out/node_nvtx" -c nvtx -p step -- $prog
  step $cli profile -o "$out/graph_cuda" --cuda-graph-trace=graph -- $prog
  step $cli profile -o "$out/graph_nvtx" --cuda-graph-trace=graph -c nvtx -p step -- $prog
  for r in node_cuda node_nvtx graph_cuda graph_nvtx; do steps "$out/$r.sqlite"; done
  rm -f "$out"/graph_nvtx.sqlite "$out"/node_nvtx.sqlite
}

part_ncu() {
  # The default: ncu profiles each kernel node of a graph as a kernel.
  step $cli profile --tool ncu -o "$out/ncu_node" -- $prog
  step $cli profile --tool ncu --steps 3 -o "$out/ncu_node3" -- $prog
  # The whole graph as one workload.
  step $cli profile --tool ncu -o "$out/ncu_graph" --graph-profiling graph -- $prog
  for r in ncu_node ncu_graph; do
    echo "== $r: ncu --import --page raw (first rows)"
    "$NCU" --import "$out/$r.ncu-rep" --csv --page raw --print-nvtx-rename kernel \
      --metrics launch__grid_size,gpu__time_duration.sum 2>&1 | head -8
  done
  # By NVTX instead of the profiler calls.
  step env CAPTURE_WINDOW_COUNT=1 "$NCU" --nvtx --nvtx-include "step/" -f -o "$out/ncu_nvtx" $prog
  step $cli check "$out/ncu_nvtx.ncu-rep"
  step env CAPTURE_WINDOW_COUNT=1 "$NCU" --nvtx --nvtx-include "step/" --graph-profiling graph \
    -f -o "$out/ncu_nvtx_graph" $prog
  step $cli check "$out/ncu_nvtx_graph.ncu-rep"
}

part_cost() {
  echo "== no nsys: $($prog 1100 | tail -1)"
  for rep in 1 2; do
    for mode in node graph; do
      local name=cost_${mode}_$rep t0 t1
      t0=$(now)
      CAPTURE_WINDOW=50:1000 "$NSYS" profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \
        -f true --cuda-graph-trace=$mode -o "$out/$name" $prog 1100 >"$out/$name.log" 2>&1
      t1=$(now)
      "$NSYS" export --type sqlite -f true -o "$out/$name.sqlite" "$out/$name.nsys-rep" >/dev/null 2>&1
      echo "== cost $mode (run $rep): nsys wall $($py -c "print(round($t1 - $t0, 2))") s," \
           "report $(size "$out/$name.nsys-rep") bytes, sqlite $(size "$out/$name.sqlite") bytes"
      # the window's 1,000 steps: their ranges' median and mean, and the window's span per step
      $py - "$out/$name.sqlite" <<'EOF2'
import sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT start, end FROM NVTX_EVENTS WHERE text LIKE 'step#%' ORDER BY start").fetchall()
took = [e - s for s, e in rows]
print("==   %d steps: median %.1f us, mean %.1f us, span %.1f us per step" % (
    len(rows), statistics.median(took) / 1e3, statistics.mean(took) / 1e3,
    (rows[-1][1] - rows[0][0]) / len(rows) / 1e3))
EOF2
      rm -f "$out/$name.sqlite" "$out/$name.nsys-rep" "$out/$name.log"
    done
  done
}

part_odd() {
  # Evaluation every 20 steps: step 20 launches `evaluate` besides the graph.
  step env CAPTURE_WINDOW=19:3 $cli profile -o "$out/odd_eval" -- $prog 50 20 0
  step env CAPTURE_WINDOW=19:3/20x1 $cli profile -o "$out/odd_eval_aimed" -- $prog 50 20 0
  step $cli check --json "$out/odd_eval.nsys-rep"
  # A checkpoint every 30 steps: host work, its OS calls traced.
  step env CAPTURE_WINDOW=29:3/30x1 $cli profile -o "$out/odd_ckpt" -t cuda,nvtx,osrt -- $prog 50 0 30
  step $cli check --json "$out/odd_ckpt.nsys-rep"
  for r in odd_eval odd_ckpt; do steps "$out/$r.sqlite"; done
  rm -f "$out/odd_eval_aimed.sqlite"
}

part_schema() {
  for db in "$out/odd_ckpt.sqlite" "$out/graph_cuda.sqlite"; do
    [ -f "$db" ] || continue
    $py - "$db" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
print("== %s: %d tables" % (sys.argv[1].rsplit("/", 1)[-1], len(tables)))
for t in ("NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "StringIds",
          "OSRT_API", "OSRT_CALLCHAINS", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE", "ThreadNames"):
    if t in tables:
        cols = db.execute(f"PRAGMA table_info({t})").fetchall()
        print(f"==   {t}: " + ", ".join(f"{c[1]} {c[2]}" for c in cols))
    else:
        print(f"==   {t}: absent")
if "OSRT_API" in tables:
    print("==   OSRT_API: the 12 longest calls")
    for row in db.execute("SELECT o.start, o.end - o.start, o.globalTid, s.value, o.nameId "
                          "FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId "
                          "ORDER BY o.end - o.start DESC LIMIT 12"):
        print("==     ", row)
EOF
  done
}

{
  date -u; nvidia-smi -L; "$NSYS" --version; "$NCU" --version | tail -1; "${CUDACXX:-/usr/local/cuda/bin/nvcc}" --version | tail -2
  build
  for part in $parts; do
    case $part in
      nsys|ncu|cost|odd|schema) part_$part ;;
      *) echo "== unknown part '$part' (nsys ncu cost odd schema)" ;;
    esac
  done
  rm -f "$out"/*.nsys-rep.tmp
  du -sh "$out"; date -u
} 2>&1 | tee "$out/graphs_gpu.log"
