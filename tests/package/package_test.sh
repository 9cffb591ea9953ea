#!/usr/bin/env bash
# The CMake package: install capture-window to a temporary prefix, build
# tests/package/downstream against it with find_package(CaptureWindow) and
# capture_window_instrument(), run its programs under the NVTX recorder and
# the stand-in libcuda.so.1, and check the exact events of each.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR RECORDER FAKECUDA_DIR
set -euo pipefail
build=$1 source=$2 recorder=$3 fakecuda=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
pkg=$prefix/lib/cmake/CaptureWindow
for f in CaptureWindowConfig.cmake CaptureWindowConfigVersion.cmake \
         CaptureWindowTargets.cmake CaptureWindowInstrument.cmake; do
  [ -f "$pkg/$f" ] || fail "not installed: $pkg/$f"
done
[ -x "$prefix/bin/capture-window" ] || fail "not installed: bin/capture-window"
grep -q "capture-window profile" <<<"$("$prefix/bin/capture-window" --help)" ||
  fail "installed capture-window --help does not show its usage"

# Configure and build, as a user would: no warning, everything built.
down=$work/downstream
cmake -S "$source/tests/package/downstream" -B "$down" -G Ninja \
      -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "downstream does not configure"; }
if grep -q "CMake Warning" "$work/configure.log"; then
  cat "$work/configure.log"; fail "configuring with GCC $(gcc -dumpfullversion) warns"
fi
cmake --build "$down" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "downstream does not build"; }
programs="train_c train_c_static"
[ -x "$down/train_cuda" ] && programs="$programs train_cuda"
if command -v nvcc >/dev/null && [ ! -x "$down/train_cuda" ]; then
  fail "nvcc is here but train_cuda was not built"
fi

# Each program under the recorder: the exact events of its window.
expect_events() {  # PROGRAM WINDOW EXPECTED
  local exe=$down/$1 record=$work/$1.record
  CW_RECORD=$record NVTX_INJECTION64_PATH=$recorder LD_LIBRARY_PATH=$fakecuda "$exe" >/dev/null ||
    fail "$1 exits with status $?"
  python3 "$source/tests/tools/check_trace.py" "$record" --window "$2" --expect "$3" ||
    fail "$1: events differ (record: $(tr '\n' '|' <"$record"))"
  echo "ok: $1 emits $3"
}
expect_events train_c step=2:3 "step#0..1() S step[ step#2..4() ] E step#5()"
expect_events train_c_static step=2:3 "step#0..1() S step[ step#2..4() ] E step#5()"
[ -x "$down/train_cuda" ] &&
  expect_events train_cuda cuda=1:2 "cuda#0() S cuda[ cuda#1..2() ] E cuda#3()"

# The shared runtime comes from the prefix (rpath), the static one is inside.
# (Outputs are kept before matching throughout: with pipefail, `cmd | grep -q`
# fails when grep exits before cmd has written everything.)
libs=$(ldd "$down/train_c")
case $libs in
  *"=> $prefix/lib/libcapture_window.so.1 "*) ;;
  *) fail "train_c does not load $prefix/lib/libcapture_window.so: $libs" ;;
esac
libs_static=$(ldd "$down/train_c_static")
if [[ $libs_static == *libcapture_window* ]]; then
  fail "train_c_static loads libcapture_window.so"
fi

# Objects depend on the plugin file: a new plugin rebuilds every object.
touch "$prefix/lib/capture-window/capture_window.so"
dirty=$(cmake --build "$down" -- -n | grep -c "Building .* object" || true)
want=$(echo "$programs" | wc -w)
[ "$dirty" = "$want" ] || fail "after the plugin changed, $dirty objects rebuild, expected $want"
echo "ok: a changed plugin rebuilds all $want objects"

# A compiler that cannot load the plugin is named at configure time.
if command -v clang >/dev/null; then
  cmake -S "$source/tests/package/downstream" -B "$work/clang" -G Ninja -DCMAKE_C_COMPILER=clang \
        -DDOWNSTREAM_CUDA=OFF -DCMAKE_PREFIX_PATH="$prefix" >"$work/clang.log" 2>&1 ||
    { cat "$work/clang.log"; fail "downstream with clang does not configure"; }
  grep -q "the C compiler [^ ]*clang is not GCC (Clang), but the capture-window plugin" \
    <<<"$(tr -s ' \n' ' ' <"$work/clang.log")" ||
    { cat "$work/clang.log"; fail "no warning that clang cannot load the GCC plugin"; }
  echo "ok: configuring with clang warns that it cannot load the plugin"
fi
echo "PASS: find_package(CaptureWindow), capture_window_instrument, $programs"
