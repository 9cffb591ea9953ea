#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those that are missing.
# With arguments: those packages instead (scripts/test-compilers.sh).
set -euo pipefail
# libclang-rt-14-dev: the sanitizer and libFuzzer runtimes (tests/fuzz, tests/sanitize);
# gdb: tests/hostile (backtrace); openmpi-bin, libopenmpi-dev: tests/ranks;
# clang-format-14: tests/style (the version whose output .clang-format pins);
# slurmctld slurmd slurm-client munge python3-torch: tests/launchers (Slurm
# and torchrun; the suite starts its own daemons, never the packages' services);
# iproute2: its nodes.* cases give each slurmd a network namespace (ip).
packages=(gcc-12-plugin-dev libclang-14-dev clang-14 libclang-rt-14-dev cmake ninja-build
          pkg-config python3 gdb openmpi-bin libopenmpi-dev clang-format-14
          slurmctld slurmd slurm-client munge python3-torch iproute2)
[ $# -gt 0 ] && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# npm fetches the sqlite amalgamation (tests/robustness, bench/). Machines
# that have Node.js from elsewhere have npm already; Debian's would clash.
[ $# -gt 0 ] || command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
# No postinst starts a service (munge, slurmd, slurmctld): a policy-rc.d that
# refuses every start while installing, removed afterwards if it was ours.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get install -y -q "${missing[@]}" >/dev/null ||
  { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "${missing[@]}" >/dev/null; }
