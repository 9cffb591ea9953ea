#!/usr/bin/env bash
# The release wheels where the oldest glibc they are for runs (issue 43
# item 10): scripts/release-wheels.sh builds them in the Debian 11 root;
# then, inside that root, its python3 (3.9) and pip check their tags and
# install the x86_64 one, whose library marks a loop()
# (tests/python/wheel_old_glibc.py). A row of scripts/test-compilers.sh.
#
# Usage: scripts/test-wheel-bullseye.sh
set -euo pipefail
cd "$(dirname "$0")/.."
release=build-compilers/wheel-bullseye
bash scripts/release-wheels.sh "$release"
out=build-compilers
root=${CW_BULLSEYE_ROOT:-/var/cache/capture-window/bullseye}
. scripts/debian-root.sh
trap unmount_all EXIT
mount_root "$root"
chroot "$root" env -C "$PWD" PATH=/usr/bin:/bin python3 tests/python/wheel_old_glibc.py \
  --dist "$PWD/$release/dist"
