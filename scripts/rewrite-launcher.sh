#!/usr/bin/env bash
# The rewriter as a compiler launcher, so that a project's own build runs
# every compile through capture-window-rewrite with no edit of its build
# files:
#   cmake -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/scripts/rewrite-launcher.sh;REWRITER" \
#         -DCMAKE_CXX_FLAGS="-fplugin-arg-capture_window-all-loops" ...
# Usage: rewrite-launcher.sh REWRITER COMPILER ARGS...
# The source after -c is rewritten with ARGS as its compiler flags (the
# -fplugin-arg-capture_window-* ones are the rewriter's: all-loops, loop=,
# verbose), to OBJECT.cw.EXT beside the -o object; the compiler then builds
# the copy with ARGS less those, the original's folder first on the quoted
# include path.  A source the rewriter leaves unchanged is compiled as it
# is.  Other commands (links) run unchanged.
set -euo pipefail
rewriter=$1 compiler=$2
shift 2
src= out= prev=
for a in "$@"; do
  [ "$prev" = -c ] && src=$a
  [ "$prev" = -o ] && out=$a
  prev=$a
done
if [ -z "$src" ] || [ -z "$out" ]; then
  exec "$compiler" "$@"
fi
rw_flags=() cc_flags=()
for a in "$@"; do
  [ "$a" = "$src" ] && continue
  rw_flags+=("$a")
  case $a in -fplugin=*|-fplugin-arg-capture_window-*) continue ;; esac
  cc_flags+=("$a")
done
copy=$out.cw.${src##*.}
"$rewriter" -o "$copy" "$src" -- "${rw_flags[@]}"
if cmp -s "$copy" "$src"; then
  exec "$compiler" "${cc_flags[@]}" "$src"
fi
exec "$compiler" -iquote "$(dirname "$src")" "${cc_flags[@]}" "$copy"
