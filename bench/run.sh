#!/usr/bin/env bash
# run.sh - per-iteration cost of a marked loop in every configuration of
# contract section 5, as a table (bench/report.py).
#
#   bench/run.sh [--build DIR] [--bench NAME] [--procs P] [--rounds R] [--no-callgrind]
#                [--configs 'NAME...']
#
# NAME: the benchmark program in DIR/bench (default cw_loop_bench).
#
# Configurations, each its own process (the runtime reads the environment
# once):
#   off       CAPTURE_WINDOW=off
#   default   nothing set: each loop's pragma window, no NVTX tool
#   tool      NVTX_INJECTION64_PATH=libcw_nvtx_null.so, a do-nothing tool
#   window    the same tool, CAPTURE_WINDOW_STEPS=window: L#i ranges only
#             inside windows, so the other iterations take the inline path
#   times     no tool, CAPTURE_WINDOW_TIMES=/dev/null: every iteration
#             reaches the runtime, reads the clock and logs its time
#   watch     no tool, CAPTURE_WINDOW_WATCH=a file no request is written
#             to: its watcher thread polls it, the loop must not notice
#   signal    no tool, CAPTURE_WINDOW_SIGNAL=USR1 with no signal sent
# --configs runs only those (default: all of them).
# The configurations take turns P times (off, default, tool, off, ...); each
# process runs R rounds of the six loops (loop_bench.c). Then, unless
# --no-callgrind or valgrind is missing, each loop of each configuration
# runs once under callgrind for its instructions per iteration.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
bench_name=cw_loop_bench
procs=3
rounds=21
callgrind=1
configs=(off default tool window times watch signal)
watched=$(mktemp -d)
trap 'rm -rf "$watched"' EXIT
while (($#)); do
  case $1 in
    --build) build=$2; shift 2 ;;
    --bench) bench_name=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --no-callgrind) callgrind=0; shift ;;
    --configs) read -ra configs <<<"$2"; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--bench NAME] [--procs P] [--rounds R] [--no-callgrind] [--configs 'NAME...']" >&2; exit 2 ;;
  esac
done

bench=$build/bench/$bench_name
tool=$build/bench/libcw_nvtx_null.so
for f in "$bench" "$tool"; do
  [[ -e $f ]] || { echo "run.sh: $f missing: cmake --build $build" >&2; exit 1; }
done

# Runs "$@" in configuration $1 with no capture-window variable inherited.
in_config() {
  local config=$1; shift
  local -a env=(env -u CAPTURE_WINDOW -u CAPTURE_WINDOW_LOOPS -u CAPTURE_WINDOW_RANKS
                -u CAPTURE_WINDOW_TRIGGER -u CAPTURE_WINDOW_VERBOSE -u CAPTURE_WINDOW_STEPS
                -u CAPTURE_WINDOW_TIMES -u CAPTURE_WINDOW_WATCH -u CAPTURE_WINDOW_SIGNAL
                -u NVTX_INJECTION64_PATH)
  case $config in
    off) env+=(CAPTURE_WINDOW=off) ;;
    default) ;;
    tool) env+=(NVTX_INJECTION64_PATH="$tool") ;;
    window) env+=(NVTX_INJECTION64_PATH="$tool" CAPTURE_WINDOW_STEPS=window) ;;
    times) env+=(CAPTURE_WINDOW_TIMES=/dev/null) ;;
    watch) env+=(CAPTURE_WINDOW_WATCH="$watched/cw.watch") ;;
    signal) env+=(CAPTURE_WINDOW_SIGNAL=USR1) ;;
  esac
  "${env[@]}" "$@"
}

{
  for ((p = 0; p < procs; p++)); do
    for config in "${configs[@]}"; do
      in_config "$config" "$bench" --rounds "$rounds" | sed "s/^/$config $p /"
    done
  done
  if ((callgrind)) && command -v valgrind >/dev/null; then
    out=$(mktemp -d)
    for config in "${configs[@]}"; do
      for loop in small-plain small-marked small-hand empty-plain empty-marked empty-hand; do
        iters=20000
        in_config "$config" valgrind --tool=callgrind --toggle-collect=cw_bench_measured \
          --callgrind-out-file="$out/cg" "$bench" --only "$loop" --iters $iters \
          2>"$out/log" >/dev/null
        ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/log")
        echo "$config - ${loop%-*} ${loop#*-} ir $(awk "BEGIN{print $ir / $iters}")"
      done
    done
    rm -rf "$out"
  fi
} | python3 "$here/report.py"
