#!/usr/bin/env bash
# The test command of README.md: install what is missing, build, run every
# CTest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir "${CW_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
