#!/usr/bin/env bash
# The main job of README.md: install what is missing, build, instrument
# samples/train_cpu.c with the GCC plugin, run it and show the window it
# captures: first the runtime's own log, then the NVTX events a profiler
# sees (recorded through NVTX_INJECTION64_PATH, the door nsys uses) and the
# CUDA profiler calls (through a stand-in driver, as this machine may have
# no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CW_BUILD_DIR:-build}

# build.sh's output, shortened to what it is doing: what it installs, then
# the build's progress at every tenth of its steps (ninja's [K/N] lines).
progress() {
  awk -v build="$build" '
    /^installing: / { print; fflush(); next }
    /^ninja: no work to do/ { print "== building " build "/: up to date"; fflush(); next }
    # ninja first re-checks the globbed folders and reruns CMake, two
    # steps of their own: the build is the run of [K/N] lines after them.
    /Re-checking globbed directories|Re-running CMake/ { next }
    match($0, /^\[[0-9]+\/[0-9]+\] /) {
      split(substr($0, 2, RLENGTH - 3), kn, "/")
      if (!started) {
        printf "== building %s/: %d steps (a few minutes the first time)\n", build, kn[2]
        started = 1
      }
      tenth = int(10 * kn[1] / kn[2])
      if (tenth > shown) { printf "   %3d%% %s\n", 10 * tenth, $0; shown = tenth }
      fflush()
    }'
}

echo "== installing what is missing and configuring $build/ (scripts/build.sh)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! bash scripts/build.sh 2>&1 | tee "$log" | progress; then
  echo "scripts/build.sh failed; its last lines:"
  tail -n 30 "$log"
  exit 1
fi
export LD_LIBRARY_PATH=$PWD/$build/runtime

echo

echo "== gcc -fplugin=$build/plugin/gcc/capture_window.so -fplugin-arg-capture_window-verbose samples/train_cpu.c"
gcc -fplugin="$build/plugin/gcc/capture_window.so" -fplugin-arg-capture_window-verbose \
    samples/train_cpu.c -L"$build/runtime" -lcapture_window -o "$build/train_cpu_demo" 2>&1

echo; echo "== CAPTURE_WINDOW_VERBOSE=1 ./train_cpu"
CAPTURE_WINDOW_VERBOSE=1 "$build/train_cpu_demo" 2>&1

echo; echo "== the events around the window (NVTX recorder + stand-in CUDA driver)"
record=$(mktemp)
CW_RECORD=$record CAPTURE_WINDOW_SELFCHECK=0 NVTX_INJECTION64_PATH=$PWD/$build/tests/recorder/libcw_nvtx_recorder.so \
  LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/$build/tests/fakecuda "$build/train_cpu_demo" >/dev/null
# Show one line per event from step#28 to step#34, indented by nesting.
awk '$2 == "register" || $2 == "domain" { next }
     { ev = ($2 == "pop") ? "pop" : ($2 == "profiler") ? "profiler " $3 : $2 " " $3 " " $4 }
     $2 == "pop" { depth--; name = stack[depth] }
     $2 == "push" { name = $4; stack[depth] = name }
     name ~ /^step(#(2[89]|3[0-4]))?$/ { printf "%*s%s\n", 2 * depth, "", (ev == "pop" ? "pop " name : ev) }
     $2 == "push" { depth++ }' "$record"
rm -f "$record"
echo; echo "The window holds steps 30-32. Profile the CUDA sample the same way:"
echo "  nsys profile -c cudaProfilerApi --capture-range-end=stop $build/samples/train_cuda"
[ -x "$build/samples/train_cuda" ] ||
  echo "(this build has no $build/samples/train_cuda: it is built with CW_BUILD_CUDA=ON and nvcc)"
