#!/usr/bin/env bash
# Configures and builds everything into build/ (or $CW_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build=${CW_BUILD_DIR:-build}
# The LLVM whose packages install-deps.sh installs (others: test-compilers.sh).
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCW_LLVM_ROOT=/usr/lib/llvm-14 "$@" >/dev/null
cmake --build "$build"
