#!/usr/bin/env bash
# Contract section 6: after `cmake --install build --prefix P`,
# `pkg-config --cflags --libs capture-window` prints exactly the GCC flags
# (with an rpath to the installed runtime), and a program built with nothing
# but those flags runs from any folder, without LD_LIBRARY_PATH, and
# captures its window.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 source=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
fail() { echo "FAIL: $*"; exit 1; }

flags=$(pkg-config --cflags --libs capture-window | sed "s/ *$//")  # pkg-config ends with a space
want="-fplugin=$prefix/lib/capture-window/capture_window.so -I$prefix/include -L$prefix/lib -Wl,-rpath,$prefix/lib -lcapture_window"
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
gcc $(pkg-config --cflags capture-window) "$source/samples/train_cpu.c" \
    $(pkg-config --libs capture-window) -o "$prefix/train_cpu"
! grep -n 'PREFIX\|cmake --install' "$PKG_CONFIG_PATH/capture-window.pc" ||
  fail "the installed .pc keeps a comment on its making"
log=$(cd / && env -u LD_LIBRARY_PATH CAPTURE_WINDOW_VERBOSE=1 "$prefix/train_cpu" 2>&1 >/dev/null)
echo "$log" | grep -q "held iterations 30-32" || fail "installed build did not capture 30-32: $log"

# The static library works too (its private libs come from Libs.private).
# shellcheck disable=SC2086
gcc $(pkg-config --cflags capture-window) "$source/samples/train_cpu.c" -o "$prefix/train_static" \
    "$prefix/lib/libcapture_window.a" $(pkg-config --libs-only-l --static capture-window | sed 's/-lcapture_window//')
log=$(CAPTURE_WINDOW_VERBOSE=1 "$prefix/train_static" 2>&1 >/dev/null)
echo "$log" | grep -q "held iterations 30-32" || fail "static build did not capture 30-32: $log"
echo "PASS: pkg-config flags, installed plugin, shared and static runtime"
