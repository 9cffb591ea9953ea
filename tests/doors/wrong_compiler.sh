#!/usr/bin/env bash
# Contract section 6: a plugin given to the wrong compiler is an error that
# names the right file. The GCC plugin given to clang/clang++ and the Clang
# plugin given to gcc/g++ fail (exit status not 0, no object written) with
# exactly these lines; each plugin still loads into its own compiler.
# Usage: wrong_compiler.sh GCC_PLUGIN CLANG_PLUGIN CC CXX CLANG CLANGXX
set -uo pipefail
gcc_plugin=$1 clang_plugin=$2 cc=$3 cxx=$4 clang=$5 clangxx=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'int main(void)\n{\n#pragma capture_window(1, 1)\n  for (int i = 0; i < 3; i++)\n    ;\n  return 0;\n}\n' >"$work/t.c"
cp "$work/t.c" "$work/t.cc"
real_gcc=$(realpath "$gcc_plugin") real_clang=$(realpath "$clang_plugin")
fail() { echo "FAIL: $*"; exit 1; }

# expect_refusal COMPILER PLUGIN SOURCE EXPECTED_STDERR
expect_refusal() {
  rm -f "$work/t.o"
  got=$("$1" -fplugin="$2" -c "$work/$3" -o "$work/t.o" 2>&1)
  status=$?
  [ "$status" -ne 0 ] || fail "$1 -fplugin=$2 exited 0: '$got'"
  [ "$got" = "$4" ] || fail "$1 -fplugin=$2 printed
$got
expected
$4"
  [ ! -e "$work/t.o" ] || fail "$1 -fplugin=$2 wrote an object"
}
for compiler in "$clang:t.c" "$clangxx:t.cc"; do
  expect_refusal "${compiler%:*}" "$gcc_plugin" "${compiler##*:}" \
    "error: capture_window.so is the GCC plugin; for clang use -fplugin=$real_clang"
done
for compiler in "$cc:t.c:cc1" "$cxx:t.cc:cc1plus"; do
  IFS=: read -r driver source proper <<<"$compiler"
  expect_refusal "$driver" "$clang_plugin" "$source" \
    "$proper: error: capture_window_clang.so is the Clang plugin; for gcc use -fplugin=$real_gcc
$proper: error: failed to initialize plugin $clang_plugin"
done

# The right compiler still takes each plugin (a note per marked loop).
for door in "$cc:$gcc_plugin" "$clang:$clang_plugin"; do
  notes=$("${door%%:*}" -fplugin="${door#*:}" -fplugin-arg-capture_window-verbose \
          -c "$work/t.c" -o "$work/t.o" 2>&1)
  [[ $notes == *"note: capture_window: for loop at $work/t.c:3"* ]] ||
    fail "${door%%:*} no longer takes ${door#*:}: $notes"
done
echo "PASS: both plugins refuse the other compiler, naming the right file"
