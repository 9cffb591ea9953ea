#!/usr/bin/env bash
# The compiler matrix (docs/compilers.md): the suites whose outcome depends
# on the compiler (the program suites loops, env, policies and clang, with
# their CUDA programs, and diagnostics) once for each pair of a GCC and an
# LLVM, each in its own build, build-compilers/NAME. scripts/test.sh covers
# GCC 12 + Clang 14. Sets up what is missing: Debian 12's packages for
# GCC 11 and Clang 15, 16 and 19, and a Debian 13 (trixie) root for GCC 13
# and 14 and Clang 17 and 18, kept in /var/cache/capture-window/trixie
# ($CW_TRIXIE_ROOT) for the next run; builds there run in a chroot that sees
# this checkout and the CUDA toolkit (NVTX's headers, nvcc) at their paths.
#
# Usage: scripts/test-compilers.sh [NAME...]     (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

# NAME             system  GCC  LLVM   (GCC -: no GCC plugin but the rewriter,
#                                        g++-12 builds the runtime and its copies;
#                                        cross: aarch64, programs under qemu)
matrix=(
  "gcc11-llvm15    debian  11   15"
  "gcc12-llvm16    debian  12   16"
  "llvm19          debian  -    19"
  "aarch64-gcc12   cross   12   -"
  "gcc13-llvm17    trixie  13   17"
  "gcc14-llvm18    trixie  14   18"
)
debian_packages=(g++-11 gcc-11-plugin-dev clang-15 libclang-15-dev llvm-15-dev
                 clang-16 libclang-16-dev llvm-16-dev clang-19 libclang-19-dev llvm-19-dev
                 gcc-12-aarch64-linux-gnu g++-12-aarch64-linux-gnu
                 gcc-12-plugin-dev-aarch64-linux-gnu qemu-user debootstrap)
trixie_packages=(g++-13 gcc-13-plugin-dev g++-14 gcc-14-plugin-dev clang-17 clang-18
                 libclang-17-dev libclang-18-dev llvm-17-dev llvm-18-dev
                 cmake ninja-build python3)
suites="recorder;loops;diagnostics;env;policies;clang"
out=build-compilers
trixie=${CW_TRIXIE_ROOT:-/var/cache/capture-window/trixie}

configure() {  # DIR CMAKE-ARGS...
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCW_BUILD_BENCH=OFF "$@"
}

# build_and_test NAME GCC LLVM: configure, build and run one pair's suites
# (here, or inside the trixie root). The rewriter's family runs in the
# build without a GCC plugin (and with LLVM 14 in scripts/test.sh), which
# keeps the matrix within CI's hour.
build_and_test() {
  local name=$1 gcc=$2 llvm=$3 dir=$out/$1 plugin=ON rewriter=OFF
  [ "$gcc" = - ] && { gcc=12; plugin=OFF; rewriter=ON; }
  configure "$dir" -DCMAKE_C_COMPILER="gcc-$gcc" -DCMAKE_CXX_COMPILER="g++-$gcc" \
            -DCW_BUILD_GCC_PLUGIN=$plugin -DCW_BUILD_REWRITER=$rewriter \
            -DCW_LLVM_ROOT="/usr/lib/llvm-$llvm" -DCW_TEST_SUITES="$suites"
  nice cmake --build "$dir"
  run_tests "$dir"
}

# Each test gets a second try: policies.auto_* time the steps, which a
# machine loaded by the other builds (or qemu) disturbs.
run_tests() {
  nice ctest --test-dir "$1" --output-on-failure -j "$(nproc)" --repeat until-pass:2
}

# build_and_test_cross NAME GCC: the GCC plugin built by the host's g++-GCC
# for aarch64-linux-gnu-gcc-GCC (its plugin headers), then everything else
# by the cross compiler (cmake/toolchain-aarch64.cmake), the programs run
# under qemu-aarch64.
build_and_test_cross() {
  local name=$1 gcc=$2 dir=$out/$1
  configure "$dir/plugin" -DCMAKE_C_COMPILER="gcc-$gcc" -DCMAKE_CXX_COMPILER="g++-$gcc" \
            -DCW_GCC_PLUGIN_DIR="$(aarch64-linux-gnu-gcc-"$gcc" -print-file-name=plugin)" \
            -DCW_BUILD_CLANG_PLUGIN=OFF -DCW_BUILD_REWRITER=OFF -DCW_BUILD_CUDA=OFF \
            -DCW_BUILD_TESTS=OFF
  nice cmake --build "$dir/plugin" --target cw_gcc_plugin
  configure "$dir/target" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
            -DCW_BUILD_GCC_PLUGIN=OFF -DCW_BUILD_CLANG_PLUGIN=OFF -DCW_BUILD_REWRITER=OFF \
            -DCW_TEST_GCC_PLUGIN="$PWD/$dir/plugin/plugin/gcc/capture_window.so" \
            -DCW_TEST_SUITES="recorder;loops;env;policies"
  nice cmake --build "$dir/target"
  run_tests "$dir/target"
}

setup_trixie() {
  local stamp="${trixie_packages[*]}"
  [ "$(cat "$trixie/.capture-window" 2>/dev/null)" = "$stamp" ] && return
  echo "making the Debian 13 root $trixie (debootstrap)"
  # A run that was killed may have left this checkout or the CUDA toolkit
  # mounted inside: rm -rf would delete them.
  if grep -q " $trixie[/.]" /proc/mounts; then
    echo "mounts left under $trixie (umount them first):"; grep " $trixie[/.]" /proc/mounts
    exit 1
  fi
  rm -rf "$trixie" "$trixie.tmp"
  mkdir -p "$(dirname "$trixie")"
  debootstrap --variant=minbase --include="$(IFS=,; echo "${trixie_packages[*]}")" \
    trixie "$trixie.tmp" http://deb.debian.org/debian >"$out/debootstrap.log" 2>&1 ||
    { tail -20 "$out/debootstrap.log"; exit 1; }
  echo "$stamp" >"$trixie.tmp/.capture-window"
  mv "$trixie.tmp" "$trixie"
}

mounted=()
unmount_all() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done
}
trap 'exit 130' INT TERM  # so that the EXIT trap unmounts
# The checkout, the CUDA toolkit, /proc and /dev inside the root; the
# toolkit and /dev read-only, so that nothing done inside the root (or to
# it: rm -rf) can delete them.
mount_trixie() {
  local from to
  for from in /proc /dev /usr/local/cuda "$PWD"; do
    to=$trixie$from
    mountpoint -q "$to" && continue
    mkdir -p "$to"
    mount --bind "$(realpath "$from")" "$to"
    mounted+=("$to")
    case $from in /dev|/usr/local/cuda) mount -o remount,bind,ro "$to" ;; esac
  done
}

if [ "${1:-}" = --build ]; then  # one pair, here (the chroot's entry)
  shift
  build_and_test "$@"
  exit
fi
if [ "${1:-}" = --build-cross ]; then
  shift
  build_and_test_cross "$@"
  exit
fi

mkdir -p "$out"
# One run at a time: a second one would mount into, or delete, the root
# the first is using.
mkdir -p "$(dirname "$trixie")"
exec 9>"$trixie.lock"
flock -n 9 || { echo "another scripts/test-compilers.sh is running ($trixie.lock)"; exit 1; }
chosen=("$@")
need_trixie=
for row in "${matrix[@]}"; do
  read -r name system _ <<<"$row"
  if [ ${#chosen[@]} -eq 0 ] || [[ " ${chosen[*]} " == *" $name "* ]]; then
    [ "$system" = trixie ] && need_trixie=1
  fi
done
bash scripts/install-deps.sh "${debian_packages[@]}"
if [ -n "$need_trixie" ]; then
  setup_trixie
  trap unmount_all EXIT
  mount_trixie
fi

failed=() summary=()
for row in "${matrix[@]}"; do
  read -r name system gcc llvm <<<"$row"
  [ ${#chosen[@]} -eq 0 ] || [[ " ${chosen[*]} " == *" $name "* ]] || continue
  log=$out/$name.log
  start=$SECONDS
  case $system in
    trixie) cmd=(chroot "$trixie" env -C "$PWD" bash scripts/test-compilers.sh --build "$name" "$gcc" "$llvm") ;;
    cross) cmd=(bash scripts/test-compilers.sh --build-cross "$name" "$gcc") ;;
    *) cmd=(bash scripts/test-compilers.sh --build "$name" "$gcc" "$llvm") ;;
  esac
  if "${cmd[@]}" >"$log" 2>&1; then status=ok; else status=FAILED; failed+=("$name"); fi
  result=$(grep -E "tests passed" "$log" | tail -1 || true)
  summary+=("$(printf '%-14s %-7s GCC %-3s LLVM %-3s %-6s %s (%d s)' "$name" "$system" "$gcc" \
               "$llvm" "$status" "${result:-no tests run}" $((SECONDS - start)))")
  echo "${summary[-1]}"
  [ "$status" = ok ] || tail -40 "$log"
done
[ ${#failed[@]} -eq 0 ] || { echo "FAILED: ${failed[*]} (logs: $out/NAME.log)"; exit 1; }
