#!/usr/bin/env bash
# Contract section 6: after `cmake --install build --prefix P`,
# `pkg-config --cflags --libs capture-window` prints exactly the GCC flags
# (with an rpath to the installed runtime, in the -Xlinker form every driver
# takes), and a program built with nothing but those flags runs from any
# folder, without LD_LIBRARY_PATH, and captures its window. The modules
# capture-window-clang and capture-window-nvcc do the same for clang/clang++
# and nvcc: each compiler builds tests/install/sample.c with the flags
# exactly as printed.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
# Environment: CW_CC, CW_CXX (the GCC of the plugin), CW_CLANG_C,
# CW_CLANG_CXX (the Clang plugin's, if built), CW_NVCC (if CUDA is built),
# CW_EXPECT_GCC_VERSION, CW_EXPECT_CLANG_VERSION.
set -euo pipefail
build=$1 source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
fail() { echo "FAIL: $*"; exit 1; }

flags=$(pkg-config --cflags --libs capture-window | sed "s/ *$//")  # pkg-config ends with a space
libs="-L$prefix/lib -Xlinker -rpath=$prefix/lib -lcapture_window"
want="-fplugin=$prefix/lib/capture-window/capture_window.so -I$prefix/include $libs"
[ "$flags" = "$want" ] || fail "pkg-config printed '$flags', expected '$want'"
plugin=$(pkg-config --variable=gcc_plugin capture-window)
[ "$plugin" = "$prefix/lib/capture-window/capture_window.so" ] && [ -f "$plugin" ] ||
  fail "gcc_plugin variable '$plugin' is not the installed plugin"
# Each plugin's variable says the compiler version it was built for.
version=$(pkg-config --variable=gcc_plugin_version capture-window)
[ "$version" = "$CW_EXPECT_GCC_VERSION" ] ||
  fail "gcc_plugin_version is '$version', the plugin is built for GCC $CW_EXPECT_GCC_VERSION"
if [ -n "${CW_EXPECT_CLANG_VERSION:-}" ]; then
  clang_plugin=$(pkg-config --variable=clang_plugin capture-window)
  [ "$clang_plugin" = "$prefix/lib/capture-window/capture_window_clang.so" ] && [ -f "$clang_plugin" ] ||
    fail "clang_plugin variable '$clang_plugin' is not the installed Clang plugin"
  version=$(pkg-config --variable=clang_plugin_version capture-window)
  [ "$version" = "$CW_EXPECT_CLANG_VERSION" ] ||
    fail "clang_plugin_version is '$version', the plugin is built for Clang $CW_EXPECT_CLANG_VERSION"
fi
[ -f "$prefix/include/capture_window.h" ] && [ -f "$prefix/include/capture_window/abi.h" ] ||
  fail "headers not installed"

# shellcheck disable=SC2086
"$CW_CC" $(pkg-config --cflags capture-window) "$source/samples/train_cpu.c" \
    $(pkg-config --libs capture-window) -o "$prefix/train_cpu"
! grep -n 'PREFIX\|cmake --install' "$PKG_CONFIG_PATH/capture-window.pc" ||
  fail "the installed .pc keeps a comment on its making"
log=$(cd / && env -u LD_LIBRARY_PATH CAPTURE_WINDOW_VERBOSE=1 "$prefix/train_cpu" 2>&1 >/dev/null)
echo "$log" | grep -q "held iterations 30-32" || fail "installed build did not capture 30-32: $log"

# The static library works too (its private libs come from Libs.private).
# shellcheck disable=SC2086
"$CW_CC" $(pkg-config --cflags capture-window) "$source/samples/train_cpu.c" -o "$prefix/train_static" \
    "$prefix/lib/libcapture_window.a" $(pkg-config --libs-only-l --static capture-window | sed 's/-lcapture_window//')
log=$(CAPTURE_WINDOW_VERBOSE=1 "$prefix/train_static" 2>&1 >/dev/null)
echo "$log" | grep -q "held iterations 30-32" || fail "static build did not capture 30-32: $log"

# Every compiler we claim, with its module's flags exactly as printed.
cp "$source/tests/install/sample.c" "$prefix/sample.c"
cp "$source/tests/install/sample.c" "$prefix/sample.cc"
cp "$source/tests/install/sample.c" "$prefix/sample.cu"
# check_module MODULE EXPECTED_FLAGS: pkg-config prints exactly those.
check_module() {
  local got
  got=$(pkg-config --cflags --libs "$1" | sed "s/ *$//")
  [ "$got" = "$2" ] || fail "pkg-config $1 printed '$got', expected '$2'"
}
# build_run MODULE COMPILER SOURCE: compiled and linked with nothing but the
# module's flags, the program runs from / and holds its window.
build_run() {
  local exe=$prefix/sample_$(basename "$2" | tr -c 'a-z0-9\n' _)
  # shellcheck disable=SC2046
  "$2" $(pkg-config --cflags "$1") "$prefix/$3" $(pkg-config --libs "$1") -o "$exe" ||
    fail "$2 did not build $3 with pkg-config $1's flags"
  log=$(cd / && env -u LD_LIBRARY_PATH CAPTURE_WINDOW_VERBOSE=1 "$exe" 2>&1 >/dev/null)
  echo "$log" | grep -q "window closed: loop 'step' (.*sample\.[a-z]*:12) held iterations 2-3" ||
    fail "$2 with pkg-config $1: the program did not hold 2-3: $log"
  built+=" $(basename "$2")"
}
built=
build_run capture-window "$CW_CC" sample.c
build_run capture-window "$CW_CXX" sample.cc
if [ -n "${CW_CLANG_C:-}" ]; then
  check_module capture-window-clang \
    "-fplugin=$prefix/lib/capture-window/capture_window_clang.so -I$prefix/include $libs"
  build_run capture-window-clang "$CW_CLANG_C" sample.c
  build_run capture-window-clang "$CW_CLANG_CXX" sample.cc
  # Installed side by side, each plugin names the other's installed file.
  got=$("$CW_CLANG_C" -fplugin="$plugin" -c "$prefix/sample.c" -o "$prefix/wrong.o" 2>&1) &&
    fail "clang took the GCC plugin"
  [ "$got" = "error: capture_window.so is the GCC plugin; for clang use -fplugin=$clang_plugin" ] ||
    fail "clang with the installed GCC plugin printed '$got'"
fi
check_module capture-window-nvcc \
  "-Xcompiler -fplugin=$prefix/lib/capture-window/capture_window.so -I$prefix/include $libs"
if [ -n "${CW_NVCC:-}" ]; then
  build_run capture-window-nvcc "$CW_NVCC" sample.cu
fi
echo "PASS: pkg-config flags, installed plugin, shared and static runtime;" \
     "each module's flags as printed with:$built"
