#!/usr/bin/env bash
# -fplugin=capture_window by name (CW_INSTALL_GCC_PLUGIN_BY_NAME): the
# install component gcc-plugin-by-name puts the GCC plugin's two files into
# GCC's plugin folder, CW_GCC_PLUGIN_NAME_DIR. Here it goes under a scratch
# root (DESTDIR), never into /usr, and gcc is pointed at that copy of its
# plugin folder with -iplugindir= (what the driver passes cc1 from
# -print-file-name=plugin), so `-fplugin=capture_window` loads the copy.
# Without the option, a plain install leaves GCC's folder alone.
# Usage: by_name_test.sh BUILD_DIR SOURCE_DIR
# Environment: CW_CC, CW_NAME_DIR (CW_GCC_PLUGIN_NAME_DIR), CW_BY_NAME (the option)
set -euo pipefail
build=$1 source=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

DESTDIR=$root cmake --install "$build" --prefix /usr/local >/dev/null
if [ "$CW_BY_NAME" = ON ]; then
  [ -f "$root$CW_NAME_DIR/capture_window.so" ] || fail "the option is on, but the install left out $CW_NAME_DIR"
else
  [ ! -e "$root$CW_NAME_DIR" ] || fail "the option is off, but the install wrote into $CW_NAME_DIR"
fi
rm -rf "${root:?}"/*
DESTDIR=$root cmake --install "$build" --component gcc-plugin-by-name >/dev/null
dir=$root$CW_NAME_DIR
installed=$(cd "$dir" && ls)
[ "$installed" = "capture_window.so
capture_window_core.so" ] || fail "the component installed '$installed' into $CW_NAME_DIR"

notes=$("$CW_CC" -iplugindir="$dir" -fplugin=capture_window -fplugin-arg-capture_window-verbose \
        -I"$source/runtime/include" "$source/tests/install/sample.c" \
        -L"$build/runtime" -Xlinker -rpath="$build/runtime" -lcapture_window -o "$root/sample" 2>&1)
[[ $notes == *"note: capture_window: for loop at $source/tests/install/sample.c:12 in 'main' instrumented"* ]] ||
  fail "-fplugin=capture_window did not load the plugin from $dir: $notes"
log=$(env -u LD_LIBRARY_PATH CAPTURE_WINDOW_VERBOSE=1 "$root/sample" 2>&1 >/dev/null)
[[ $log == *"held iterations 2-3"* ]] || fail "the program built by name did not hold 2-3: $log"
echo "PASS: -fplugin=capture_window from the gcc-plugin-by-name component in $CW_NAME_DIR (under a scratch root)"
