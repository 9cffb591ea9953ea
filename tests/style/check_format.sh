#!/usr/bin/env bash
# One C style (issue 34 item 4): every C, C++ and CUDA file of the
# project's own code is as clang-format writes it with the top
# .clang-format. The test programs and samples are left out: their lines
# and columns are what the tests assert. Each file that differs is named
# with the first lines of its difference, and the command that fixes it.
# Usage: check_format.sh SOURCE_DIR CLANG_FORMAT
set -uo pipefail
source=$1 format=${2:-}
cd "$source" || exit 1
[ -x "$format" ] || { echo "FAIL: no clang-format 14 ('$format'; scripts/install-deps.sh installs clang-format-14)"; exit 1; }
own=(annotations bench plugin runtime tests/recorder tests/tools tests/fuzz tests/cli
     tests/python/harness)
# Quoted, so that git, not the shell, expands them: git's `*` crosses
# folders (runtime/*.h takes runtime/include/capture_window/*.h too).
specs=(tests/robustness/sqlite_driver.c)
for d in "${own[@]}"; do
  for e in c h cc cpp cu; do specs+=("$d/*.$e"); done
done
mapfile -t files < <(git ls-files -- "${specs[@]}")
bad=()
for f in "${files[@]}"; do
  if ! diff -u "$f" <("$format" --style=file "$f") >"${TMPDIR:-/tmp}/cw-format.$$" 2>&1; then
    bad+=("$f")
    head -12 "${TMPDIR:-/tmp}/cw-format.$$"
  fi
done
rm -f "${TMPDIR:-/tmp}/cw-format.$$"
if [ ${#bad[@]} -gt 0 ]; then
  echo "FAIL: ${#bad[@]} of ${#files[@]} files are not in the style of .clang-format; fix: $(basename "$format") -i ${bad[*]}"
  exit 1
fi
echo "PASS: ${#files[@]} files in the style of .clang-format"
