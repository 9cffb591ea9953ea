#!/usr/bin/env bash
# capture_window_instrument(<target> LOOPS SPEC...) in a multi-file project
# (tests/zero_edit/cmake_project) built against an installed capture-window: it
# builds without errors from units that do not hold the loops, and the
# program emits exactly the events the pragmas would.
# The project is built by CC, the C compiler the plugin was built for (the
# matrix's builds use other GCCs than the default cc).
# Usage: cmake_project_test.sh BUILD_DIR SOURCE_DIR RECORDER FAKECUDA_DIR CC
set -euo pipefail
build=$1 source=$2 recorder=$3 fakecuda=$4 cc=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
down=$work/zero_edit
cmake -S "$source/tests/zero_edit/cmake_project" -B "$down" -G Ninja \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_C_COMPILER="$cc" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "zero_edit does not configure"; }
cmake --build "$down" -- -v >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "zero_edit does not build"; }

# Where each spec went: the FILE:LINE spec to main.c only, the FUNCTION
# spec to every unit as loop-optional.
for unit in main steps util; do
  line=$(grep -- "-c [^ ]*/$unit.c" "$work/build.log") || fail "no compile line for $unit.c"
  case $unit:$line in
    main:*loop=main.c:9:1:1:epoch*) ;;
    main:*) fail "main.c is compiled without loop=main.c:9:1:1:epoch: $line" ;;
    *:*loop=main.c:9*) fail "$unit.c gets main.c's spec: $line" ;;
  esac
  [[ $line == *loop-optional=train_steps:2:2* ]] ||
    fail "$unit.c is compiled without loop-optional=train_steps:2:2: $line"
done

record=$work/record
CW_RECORD=$record NVTX_INJECTION64_PATH=$recorder LD_LIBRARY_PATH=$fakecuda \
  "$down/zero_edit" >"$work/out" || fail "zero_edit exits with status $?"
[ "$(cat "$work/out")" = "zero_edit: 3 6" ] || fail "zero_edit prints $(cat "$work/out")"
expect="epoch#0( step#0..1() ) S epoch[ epoch#1( step[ step#2..3() ] ) ] E epoch#2( step#4..5() )"
python3 "$source/tests/tools/check_trace.py" "$record" --window epoch=1:1 --window step=2:2 \
  --expect "$expect" || fail "events differ (record: $(tr '\n' '|' <"$record"))"
echo "PASS: LOOPS marks main.c:9 and train_steps; $expect"
