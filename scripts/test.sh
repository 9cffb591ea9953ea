#!/usr/bin/env bash
# The test command of README.md: install what is missing, build, run every
# CTest suite, then list the tests that did not run with their reasons and
# close on one line `N passed, N failed, N skipped`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build=${CW_BUILD_DIR:-build}
junit=$PWD/$build/ctest-junit.xml
rm -f "$junit"
status=0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --output-junit "$junit" || status=$?
[ -f "$junit" ] && python3 scripts/ctest-summary.py "$junit"
exit "$status"
