#!/bin/bash
# The rewriter's copies compile with g++ and clang++, in the standard each
# program is written for, with no warning (-Wall -Wextra -pedantic
# -Werror) that the original lacks.  The constexpr/consteval/lambda
# programs: their static_asserts and template arguments hold, so the
# functions stay constant expressions.  anonymous_base.cpp: g++ takes no
# text of the copy for a header's (-Wsubobject-linkage).
# Usage: copies_without_warnings.sh REWRITER SOURCE_DIR WORK CXX... -- -IDIR...
set -u
rewriter=$1 src=$2 work=$3
shift 3
compilers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do compilers+=("$1"); shift; done
shift
includes=("$@")
mkdir -p "$work"
status=0
for case in loops/constexpr_cxx14.cpp:c++14 loops/constexpr.cpp:c++17 \
            loops/consteval.cpp:c++20 loops/consteval.cpp:c++2b \
            loops/all_loops_constexpr.cpp:c++20 rewrite/anonymous_base.cpp:c++17; do
  path=${case%%:*} std=${case#*:} file=$(basename "${case%%:*}")
  extra=()
  [ "$file" = all_loops_constexpr.cpp ] && extra=(-fplugin-arg-capture_window-all-loops=1:1)
  out=$work/${file%.cpp}.$std.cw.cpp
  if ! "$rewriter" -o "$out" "$src/tests/$path" -- -std=$std "${includes[@]}" \
      -I"$src/tests/loops" "${extra[@]}"; then
    echo "FAIL: rewrite $file"; status=1; continue
  fi
  for cxx in "${compilers[@]}"; do
    if "$cxx" -std=$std -Wall -Wextra -pedantic -Werror -fsyntax-only \
        "${includes[@]}" -I"$src/tests/loops" "$out"; then
      echo "PASS: $cxx -std=$std $file"
    else
      echo "FAIL: $cxx -std=$std $file"; status=1
    fi
  done
done
exit $status
