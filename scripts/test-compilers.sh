#!/usr/bin/env bash
# The compiler matrix (docs/compilers.md): the suites whose outcome depends
# on the compiler (the program suites loops, zero_edit, env and clang, with
# their CUDA programs, and diagnostics) once for each pair of a GCC and an
# LLVM, each in its own build, build-compilers/NAME. scripts/test.sh covers
# GCC 12 + Clang 14. Sets up what is missing: Debian 12's packages for
# GCC 11 and Clang 15, 16 and 19, a Debian 13 (trixie) root for GCC 13
# and 14 and Clang 17 and 18, and a Debian sid root for GCC 15 and 16 and
# Clang 21, 22 and 23, kept in /var/cache/capture-window/trixie and sid
# ($CW_TRIXIE_ROOT, $CW_SID_ROOT) for the next run. debootstrap fetches
# them from the Debian mirror this machine's apt uses ($CW_DEBIAN_MIRROR
# overrides it). Builds there run in a chroot that sees this checkout and
# the CUDA toolkit (NVTX's headers, nvcc) at their paths. Two rows install
# what was built as a user would: deb-bookworm (the .deb, by apt, into a
# clean Debian 12 root) and wheel-bullseye (the release wheels, built in a
# Debian 11 root and installed there by its pip: scripts/test-wheel-bullseye.sh).
#
# Usage: scripts/test-compilers.sh [NAME...]     (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."

# DOORS: gcc+clang, the GCC plugin for GCC and the Clang plugin for LLVM;
# clang+rewriter, the Clang plugin and the rewriter for LLVM, with GCC
# building only the runtime and its copies; gcc (system cross: aarch64,
# programs under qemu), the GCC plugin alone. SUITES: the row's suites
# besides $suites (-: none), separated by ';'.
# NAME            system  GCC  LLVM  DOORS           SUITES
matrix=(
  "gcc11-llvm15    debian  11   15    gcc+clang       -"
  "gcc12-llvm16    debian  12   16    gcc+clang       -"
  "llvm19          debian  12   19    clang+rewriter  rewrite"
  "aarch64-gcc12   cross   12   -     gcc             -"
  "gcc13-llvm17    trixie  13   17    gcc+clang       -"
  "gcc14-llvm18    trixie  14   18    gcc+clang       -"
  "gcc15-llvm21    sid     15   21    gcc+clang       python"
  "gcc16-llvm22    sid     16   22    gcc+clang       -"
  "llvm23          sid     15   23    clang+rewriter  rewrite"
)
debian_packages=(g++-11 gcc-11-plugin-dev clang-15 libclang-15-dev llvm-15-dev
                 clang-16 libclang-16-dev llvm-16-dev clang-19 libclang-19-dev llvm-19-dev
                 gcc-12-aarch64-linux-gnu g++-12-aarch64-linux-gnu
                 gcc-12-plugin-dev-aarch64-linux-gnu qemu-user debootstrap)
trixie_packages=(g++-13 gcc-13-plugin-dev g++-14 gcc-14-plugin-dev clang-17 clang-18
                 libclang-17-dev libclang-18-dev llvm-17-dev llvm-18-dev
                 cmake ninja-build python3)
sid_packages=(g++-15 gcc-15-plugin-dev g++-16 gcc-16-plugin-dev
              clang-21 libclang-21-dev llvm-21-dev clang-22 libclang-22-dev llvm-22-dev
              clang-23 libclang-23-dev llvm-23-dev cmake ninja-build python3 pkg-config
              python3-venv python3.15 python3.15-venv python3-torch)
# policies, the runtime's schedules (auto, spike, periodic, the self-check),
# time sleeps rather than compiled code: scripts/test.sh runs them, and the
# aarch64 row for another ABI; here they would add a minute a row.
suites="recorder;loops;zero_edit;diagnostics;env;clang"
out=build-compilers
trixie=${CW_TRIXIE_ROOT:-/var/cache/capture-window/trixie}
sid=${CW_SID_ROOT:-/var/cache/capture-window/sid}

configure() {  # DIR CMAKE-ARGS...
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCW_BUILD_BENCH=OFF "$@"
}

# build_and_test NAME GCC LLVM DOORS SUITES: configure, build and run one
# row's suites (here, or inside a root). The rewriter's family runs only in
# the builds without a GCC plugin (and with LLVM 14 in scripts/test.sh),
# which keeps the matrix within CI's hour.
build_and_test() {
  local name=$1 gcc=$2 llvm=$3 doors=$4 more=$5 dir=$out/$1 plugin=ON rewriter=OFF
  [ "$doors" = clang+rewriter ] && { plugin=OFF; rewriter=ON; }
  configure "$dir" -DCMAKE_C_COMPILER="gcc-$gcc" -DCMAKE_CXX_COMPILER="g++-$gcc" \
            -DCW_BUILD_GCC_PLUGIN=$plugin -DCW_BUILD_REWRITER=$rewriter \
            -DCW_LLVM_ROOT="/usr/lib/llvm-$llvm" -DCW_TEST_SUITES="$suites${more:+;$more}" \
            -DCW_TEST_PYTHON_ALL="${CW_TEST_PYTHON_ALL:-OFF}"
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

. scripts/debian-root.sh

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
chosen=("$@")
declare -A needed=()
for row in "${matrix[@]}"; do
  read -r name system _ <<<"$row"
  if [ ${#chosen[@]} -eq 0 ] || [[ " ${chosen[*]} " == *" $name "* ]]; then
    needed[$system]=1
  fi
done
bash scripts/install-deps.sh "${debian_packages[@]}"
trap unmount_all EXIT
[ -z "${needed[trixie]:-}" ] || use_root trixie "$trixie" "${trixie_packages[@]}"
[ -z "${needed[sid]:-}" ] || use_root sid "$sid" "${sid_packages[@]}"

failed=() summary=()
for row in "${matrix[@]}"; do
  read -r name system gcc llvm doors more <<<"$row"
  [ ${#chosen[@]} -eq 0 ] || [[ " ${chosen[*]} " == *" $name "* ]] || continue
  [ "$more" = - ] && more=
  log=$out/$name.log
  start=$SECONDS
  build=(bash scripts/test-compilers.sh --build "$name" "$gcc" "$llvm" "$doors" "$more")
  case $system in
    trixie) cmd=(chroot "$trixie" env -C "$PWD" "${build[@]}") ;;
    # sid's root has python3.15, python3-venv and python3-torch: there the
    # python suite runs on 3.14 and 3.15, and none of its tests may skip.
    sid) cmd=(chroot "$sid" env -C "$PWD" CW_TEST_PYTHON_ALL=ON "${build[@]}") ;;
    cross) cmd=(bash scripts/test-compilers.sh --build-cross "$name" "$gcc") ;;
    *) cmd=("${build[@]}") ;;
  esac
  if "${cmd[@]}" >"$log" 2>&1; then status=ok; else status=FAILED; failed+=("$name"); fi
  result=$(grep -E "tests passed" "$log" | tail -1 || true)
  summary+=("$(printf '%-14s %-7s GCC %-3s LLVM %-3s %-15s %-6s %s (%d s)' "$name" "$system" \
               "$gcc" "$llvm" "$doors" "$status" "${result:-no tests run}" $((SECONDS - start)))")
  echo "${summary[-1]}"
  [ "$status" = ok ] || tail -40 "$log"
done
# install_row NAME SYSTEM WHAT COMMAND...: a row that installs what was
# built into a Debian root, as a user would; its last line is its result.
install_row() {
  local name=$1 system=$2 what=$3 start=$SECONDS status; shift 3
  [ ${#chosen[@]} -eq 0 ] || [[ " ${chosen[*]} " == *" $name "* ]] || return 0
  if "$@" >"$out/$name.log" 2>&1; then status=ok; else status=FAILED; failed+=("$name"); fi
  echo "$(printf '%-14s %-7s %-31s %-6s %s (%d s)' "$name" "$system" "$what" \
          "$status" "$(tail -1 "$out/$name.log" | cut -c1-60)" $((SECONDS - start)))"
  [ "$status" = ok ] || tail -20 "$out/$name.log"
}
# The package, installed by apt into a clean Debian 12 root: from the
# build of scripts/test.sh, which runs first.
install_row deb-bookworm clean "the .deb, apt install" bash scripts/test-deb-install.sh build
# The release wheels, built in a Debian 11 root and pip installed there.
install_row wheel-bullseye debian11 "release wheels, pip install" \
  bash scripts/test-wheel-bullseye.sh
[ ${#failed[@]} -eq 0 ] || { echo "FAILED: ${failed[*]} (logs: $out/NAME.log)"; exit 1; }
