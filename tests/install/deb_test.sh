#!/usr/bin/env bash
# The Debian package (CPack, top-level CMakeLists.txt): `cpack -G DEB`
# writes one .deb for /usr holding the runtime, the headers, both plugins
# (each plugin's two files), the rewriter, the CLI, the Python wheel (when
# the build has the wheel target), the pkg-config and CMake files; its .pc
# files name /usr. (Installing it into a clean Debian root is not part of
# this test.)
# Usage: deb_test.sh BUILD_DIR
# Environment: CW_EXPECT_FILES (the files that must be in it, ;-separated)
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
(cd "$build" && cpack -G DEB -B "$work" >"$work/cpack.log" 2>&1) ||
  fail "cpack failed: $(cat "$work/cpack.log")"
deb=$(ls "$work"/capture-window_*.deb)
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
IFS=';' read -ra expected <<<"$CW_EXPECT_FILES"
for file in "${expected[@]}"; do
  grep -qx "./usr/$file" <<<"$files" || fail "$(basename "$deb") lacks /usr/$file"
done
dpkg-deb -x "$deb" "$work/root"
for pc in "$work"/root/usr/lib/pkgconfig/*.pc; do
  grep -qx "prefix=/usr" "$pc" || fail "$(basename "$pc") in the package does not name /usr"
done
echo "PASS: $(basename "$deb"): ${#expected[@]} files checked, .pc files for /usr"
