#!/usr/bin/env bash
# The Debian package installed as a user installs it (issue 32 item 5):
# `apt-get install ./capture-window_*.deb` into a clean Debian 12 root
# that has only what a user of the package brings (gcc-12, pkg-config), so
# that apt resolves the package's own Depends from the archive. Then, inside
# the root: the sample built with `-fplugin=capture_window` by name, with
# pkg-config's flags for gcc-12 and, through the Clang plugin's module, for
# the clang-14 the package recommends; its window at 2-3 each time; and
# `capture-window --version`.
# The pristine root is made once with debootstrap (from the archive this
# machine's apt uses, scripts/debian-root.sh) and kept in
# /var/cache/capture-window/bookworm-clean ($CW_CLEAN_ROOT); each run
# installs into a fresh copy of it, deleted after.
#
# Usage: scripts/test-deb-install.sh BUILD_DIR   (a configured, built tree)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:?usage: test-deb-install.sh BUILD_DIR}")
out=build-compilers
pristine=${CW_CLEAN_ROOT:-/var/cache/capture-window/bookworm-clean}
mkdir -p "$out"
. scripts/debian-root.sh

work=$(mktemp -d /var/tmp/cw-deb.XXXXXX)
cleanup() {
  for m in "$work/root/proc" "$work/root/dev"; do mountpoint -q "$m" && umount "$m"; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

(cd "$build" && cpack -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1) ||
  fail "cpack failed: $(tail -5 "$work/cpack.log")"
deb=$(ls "$work"/deb/capture-window_*.deb)

setup_root bookworm "$pristine" gcc-12 pkg-config
cp -a "$pristine" "$work/root"
mount --bind /proc "$work/root/proc"
mount --bind /dev "$work/root/dev"
cp "$deb" tests/install/sample.c "$work/root/tmp/"
cp /etc/resolv.conf "$work/root/etc/resolv.conf"

inside() { chroot "$work/root" env -C /tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
inside apt-get update >"$out/deb-install.log" 2>&1 &&
  inside apt-get install -y "./$(basename "$deb")" >>"$out/deb-install.log" 2>&1 ||
  fail "apt-get install of $(basename "$deb") failed: $(tail -5 "$out/deb-install.log")"

# The window of tests/install/sample.c, as the verbose runtime says it
# (its file and thread cut).
want="capture_window: window opened: loop 'step' iteration 2, window 2:2
capture_window: window closed: loop 'step' held iterations 2-3"
window_of() {
  inside env CAPTURE_WINDOW_VERBOSE=1 ./"$1" 2>&1 >/dev/null |
    grep -E 'window (opened|closed)' | sed -E 's/ \([^)]*\)//; s/, thread [0-9]+//'
}
inside gcc-12 -fplugin=capture_window sample.c -o by_name -lcapture_window ||
  fail "gcc-12 -fplugin=capture_window did not build the sample"
inside sh -c 'gcc-12 $(pkg-config --cflags capture-window) sample.c -o by_pc $(pkg-config --libs capture-window)' ||
  fail "gcc-12 with pkg-config's flags did not build the sample"
# The package recommends the Clang it was built for: its plugin by pkg-config too.
inside sh -c 'clang-14 $(pkg-config --cflags capture-window-clang) sample.c -o by_clang $(pkg-config --libs capture-window-clang)' ||
  fail "clang-14 with pkg-config's flags (capture-window-clang) did not build the sample"
for program in by_name by_pc by_clang; do
  got=$(window_of $program)
  [ "$got" = "$want" ] || fail "$program: the window was
$got
expected
$want"
done
version=$(inside capture-window --version)
[ "$version" = "capture-window $(sed -nE 's/^project\(capture_window VERSION ([0-9.]+).*/\1/p' CMakeLists.txt)" ] ||
  fail "capture-window --version said '$version'"
echo "PASS: $(basename "$deb") installed by apt into a clean Debian 12 root; the sample by name, by pkg-config (gcc-12) and by capture-window-clang (clang-14) opened window 2-3; $version"
