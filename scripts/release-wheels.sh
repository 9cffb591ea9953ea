#!/usr/bin/env bash
# The release wheels (docs/python.md, "Where the wheel installs"): the
# runtime built by Debian 11's own compilers (bullseye: glibc 2.31, gcc 10
# and its aarch64 cross gcc), so that the library needs no glibc newer than
# 2.31; with cmake/old-glibc-symbols.h forced into each C file it binds
# libm's oldest exp, log and lgamma and needs only glibc 2.17. The wheels,
# tagged by that need (python/make_wheel.py), are manylinux_2_17: they
# install on every distribution with glibc 2.17 or newer. CMake, ninja and
# make_wheel.py run here; only the compilers run in the root, through the
# wrappers OUT/ARCH-cc and OUT/ARCH-c++ this script writes, which chroot
# there and see this checkout and the CUDA toolkit (NVTX's headers) at
# their paths. The root is made once with debootstrap (from the archive
# this machine's apt uses, scripts/debian-root.sh) and kept in
# /var/cache/capture-window/bullseye ($CW_BULLSEYE_ROOT).
#
# Usage: scripts/release-wheels.sh [OUT]   (default build-release; the
#        wheels land in OUT/dist, the builds in OUT/x86_64, OUT/aarch64;
#        OUT must be inside this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
release=${1:-build-release}
out=build-compilers  # debootstrap's log
root=${CW_BULLSEYE_ROOT:-/var/cache/capture-window/bullseye}
# python3-pip: scripts/test-wheel-bullseye.sh installs the wheel with it.
bullseye_packages=(gcc g++ gcc-aarch64-linux-gnu g++-aarch64-linux-gnu python3 python3-pip)
mkdir -p "$out" "$release/dist"
release=$(realpath "$release")
case $release/ in "$PWD"/*) ;; *) echo "OUT must be inside this checkout (the root sees only it)"; exit 1 ;; esac
. scripts/debian-root.sh
bash scripts/install-deps.sh debootstrap cmake ninja-build
trap unmount_all EXIT
use_root bullseye "$root" "${bullseye_packages[@]}"

rm -f "$release"/dist/*.whl
for arch in x86_64 aarch64; do
  for tool in cc:gcc c++:g++; do
    cat >"$release/$arch-${tool%%:*}" <<WRAP
#!/bin/sh
exec chroot $root env -C "\$PWD" PATH=/usr/bin:/bin $arch-linux-gnu-${tool#*:} "\$@"
WRAP
    chmod +x "$release/$arch-${tool%%:*}"
  done
  cmake -S . -B "$release/$arch" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="$arch" \
        -DCMAKE_C_COMPILER="$release/$arch-cc" -DCMAKE_CXX_COMPILER="$release/$arch-c++" \
        -DCMAKE_C_FLAGS="-include $PWD/cmake/old-glibc-symbols.h" \
        -DCW_BUILD_GCC_PLUGIN=OFF -DCW_BUILD_CLANG_PLUGIN=OFF -DCW_BUILD_REWRITER=OFF \
        -DCW_BUILD_CUDA=OFF -DCW_BUILD_TESTS=OFF -DCW_BUILD_BENCH=OFF >"$release/$arch.log"
  cmake --build "$release/$arch" --target wheel >>"$release/$arch.log"
  cp "$release/$arch"/dist/*.whl "$release/dist/"
done
ls "$release/dist"
