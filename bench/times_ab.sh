#!/usr/bin/env bash
# times_ab.sh - what recording step times (CAPTURE_WINDOW_TIMES) costs per
# iteration, for several builds of the runtime in the same run.
#
#   bench/times_ab.sh [--procs P] LIBDIR...
#
# LIBDIR: a folder holding a libcapture_window.so.1 (build/runtime, or a
# copy of an older build's). The benchmark program (build/bench/
# cw_loop_bench, built with the plugin) runs P times (default 5) per
# LIBDIR, taking turns, with LD_LIBRARY_PATH=LIBDIR (its RUNPATH yields to
# it) and CAPTURE_WINDOW_TIMES=/dev/null; prints per LIBDIR the median and
# the least of "marked - plain" for the empty body, ns per iteration, and
# last the same of "clock - plain": the step clock read alone, a floor no
# runtime can go under while it times every step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../build/bench/cw_loop_bench
procs=5
if [[ ${1:-} == --procs ]]; then procs=$2; shift 2; fi
(($#)) || { echo "usage: $0 [--procs P] LIBDIR..." >&2; exit 2; }
[[ -x $bench ]] || { echo "times_ab.sh: $bench missing: cmake --build build" >&2; exit 1; }
for ((p = 0; p < procs; p++)); do
  for lib in "$@"; do
    env -u CAPTURE_WINDOW -u NVTX_INJECTION64_PATH LD_LIBRARY_PATH="$lib" \
      CAPTURE_WINDOW_TIMES=/dev/null "$bench" --rounds 7 |
      awk -v lib="$lib" '/^empty plain/ {p[$3] = $4} /^empty marked/ {m[$3] = $4}
        /^empty clock/ {c[$3] = $4}
        END {for (r in p) print lib, m[r] - p[r]; for (r in p) print "clock", c[r] - p[r]}'
  done
done | python3 -c '
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in sys.stdin:
    lib, ns = line.split()
    runs[lib].append(float(ns))
for lib, ns in sorted(runs.items(), key=lambda kv: kv[0] == "clock"):
    lib = "the step clock alone" if lib == "clock" else lib
    print(f"{lib}: median {statistics.median(ns):.1f} ns, least {min(ns):.1f} ns over plain ({len(ns)} rounds)")'
