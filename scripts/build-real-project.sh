#!/usr/bin/env bash
# All-loops over real C++ (issue 32 item 2): build {fmt} 9.1 and its own
# test suite (googletest included, built from the system's
# /usr/src/googletest as Debian's package does) with every loop marked
# through one front door, then run fmt's tests.
#
# {fmt} rather than nlohmann/json: both are header-heavy and tested by
# their own suites, but json's ~100 test units take far longer than a CI
# slot on 2 cores (and want a test-data download), while fmt's 20 test
# programs build in minutes; and fmt's tests are googletest's EXPECT_EQ
# all over, the macro body all-loops once broke under Clang.
#
# The source is Debian's (source package fmtlib, the version of this
# machine's libfmt-dev), from the Debian archive this machine's apt reads
# (scripts/debian-root.sh; $CW_DEBIAN_MIRROR overrides it): the .dsc, its
# tarballs checked against the .dsc's SHA-256 sums, unpacked with Debian's
# patches by dpkg-source.  Or give a source folder (--source).
#
# Usage: scripts/build-real-project.sh DOOR [--build BUILD] [--source DIR]
#                                           [--work DIR] [--jobs N]
#   DOOR     gcc (g++ + the GCC plugin), clang (clang++ + the Clang
#            plugin) or rewrite (g++ on capture-window-rewrite's copies),
#            all from BUILD (default: build)
#   --work   where the source, the build and the logs go
#            (default: BUILD/real-project/DOOR)
#   --jobs   parallel compile jobs (default 2)
# Needs: curl, dpkg-source (dpkg-dev), googletest (/usr/src/googletest),
# cmake, ninja.  Prints one summary line: tests passed, loops marked
# (the plugin's verbose notes: one per function, template instantiations
# each), warnings, and the time.
set -euo pipefail
cd "$(dirname "$0")/.."

door=${1:-}
shift || true
build=build work= source= jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --source) source=$(realpath "$2"); shift 2 ;;
    --work) work=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
build=$(realpath "$build")
work=$(realpath -m "${work:-$build/real-project/$door}")
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
case $door in
  gcc) cxx=$(cache CMAKE_CXX_COMPILER) cc=$(cache CMAKE_C_COMPILER)
       plugin=$build/plugin/gcc/capture_window.so ;;
  clang) cxx=$(cache CW_CLANG_CXX) cc=$(cache CW_CLANG_C)
         plugin=$build/plugin/clang/capture_window_clang.so ;;
  # g++ builds each source's rewritten copy: the rewriter runs as the
  # compiler launcher (scripts/rewrite-launcher.sh), given by the
  # environment so that fmt's nested CMake test builds get it too; it
  # takes the -fplugin-arg-capture_window-* flags and drops -fplugin=.
  rewrite) cxx=$(cache CMAKE_CXX_COMPILER) cc=$(cache CMAKE_C_COMPILER)
           plugin=$build/plugin/rewrite/capture-window-rewrite
           export CMAKE_C_COMPILER_LAUNCHER="$PWD/scripts/rewrite-launcher.sh;$plugin"
           export CMAKE_CXX_COMPILER_LAUNCHER="$CMAKE_C_COMPILER_LAUNCHER" ;;
  *) echo "usage: $0 gcc|clang|rewrite [--build BUILD] [--source DIR] [--work DIR] [--jobs N]" >&2
     exit 2 ;;
esac
runtime=$build/runtime
for f in "$plugin" "$runtime/libcapture_window.so"; do
  [ -e "$f" ] || { echo "$f not built" >&2; exit 1; }
done
mkdir -p "$work"

# fmtlib's source from the Debian archive, into $work/src.
fetch_source() {
  . scripts/debian-root.sh
  local version mirror dsc name sum
  version=$(apt-cache show libfmt-dev | sed -n 's/^Version: //p' | head -1)
  mirror=$(debian_mirror)
  dsc=fmtlib_${version#*:}.dsc
  mkdir -p "$work/debian"
  (cd "$work/debian"
   curl -fsSLO "$mirror/pool/main/f/fmtlib/$dsc"
   # The files the .dsc names, each checked against its SHA-256.
   sed -n '/^Checksums-Sha256:/,/^[^ ]/p' "$dsc" | awk 'NF == 3 { print $1, $3 }' |
     while read -r sum name; do
       [ -e "$name" ] || curl -fsSLO "$mirror/pool/main/f/fmtlib/$name"
       echo "$sum  $name" | sha256sum -c --quiet
     done
   rm -rf "$work/src"
   dpkg-source --no-check -x "$dsc" "$work/src" >/dev/null)
  echo "source: Debian fmtlib $version ($mirror)"
}
if [ -z "$source" ]; then
  [ -d "$work/src/test" ] || fetch_source
  source=$work/src
fi

# The front door on every compile; every program and library links the
# runtime (the Xlinker form every driver takes), through LDFLAGS, which the
# nested CMake builds of fmt's own tests (find-package-test, ...) inherit
# with the environment, as they get CMAKE_CXX_FLAGS from fmt.
flags="-fplugin=$plugin -fplugin-arg-capture_window-all-loops -fplugin-arg-capture_window-verbose"
export LDFLAGS="-L$runtime -Xlinker -rpath -Xlinker $runtime -Xlinker --no-as-needed -lcapture_window"
rm -rf "$work/build"
start=$(date +%s)
nice cmake -S "$source" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DFMT_DOC=OFF -DFMT_TEST=ON -DFMT_PEDANTIC=ON -DBUILD_SHARED_LIBS=ON \
  >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; exit 1; }
nice cmake --build "$work/build" -j "$jobs" >"$work/build.log" 2>&1 ||
  { grep -B2 -A10 -m5 'error' "$work/build.log" || tail -40 "$work/build.log"; exit 1; }
built=$(date +%s)
set +e
nice ctest --test-dir "$work/build" -j "$jobs" --output-on-failure >"$work/test.log" 2>&1
tests_rc=$?
set -e
end=$(date +%s)

marked=$(grep 'note: capture_window: .* instrumented' "$work/build.log" | grep -vc 'not instrumented' || true)
# Compilers' warnings; not clang's driver's "argument unused during
# compilation" for the -fplugin-arg-* flags on link lines (CMAKE_CXX_FLAGS
# are on them too).
warnings=$(grep 'warning:' "$work/build.log" |
           grep -vc 'argument unused during compilation' || true)
# The runtime sees the loops: format-test's windows (all-loops' 0:1, one
# per loop that ran), as CAPTURE_WINDOW_VERBOSE reports them.
windows=$(CAPTURE_WINDOW_VERBOSE=1 "$work/build/bin/format-test" 2>&1 >/dev/null |
          grep -c 'window opened' || true)
summary=$(grep -E 'tests passed' "$work/test.log" || echo "no test summary")
version=$(sed -n 's/^# *define FMT_VERSION //p' "$source/include/fmt/core.h")
echo "$door: fmt $version: $summary; $marked loops marked," \
     "$warnings warnings; format-test opened $windows windows;" \
     "build $((built - start)) s, tests $((end - built)) s (logs: $work)"
exit $tests_rc
