#!/usr/bin/env bash
# The GPU machine as a user's machine (docs/compilers.md): Ubuntu 24.04 with
# GCC 13.3.0 but no plugin headers. Builds the GCC plugin there with the
# host's own g++ against GCC 13.3.0's headers carried from Debian 13
# (gcc-13-plugin-dev), compiles tests/gpu and the samples with the host's
# gcc and nvcc, and runs tests/gpu/gpu_checks.py.
#
#   bash scripts/device-gcc13.sh prepare    here: .device/gcc13-plugin from
#                                           the trixie root of test-compilers.sh
#   bash scripts/device-gcc13.sh run        on the GPU machine (needs cmake,
#                                           .device/nsys)
#   bash scripts/device-gcc13.sh plugin     on the GPU machine: only the plugin,
#                                           build-gcc13/plugin/gcc/capture_window.so
#
# GCC refuses a plugin whose headers' version record (plugin-version.h:
# release, datestamp, phase, revision, configure arguments) differs from its
# own. `run` first builds against the carried headers as they are and
# records GCC's answer; if GCC refuses, it builds again with the host GCC's
# own record in a copy of plugin-version.h (read by a probe plugin), which
# is what the headers of the host's own package would hold.
set -euo pipefail
cd "$(dirname "$0")/.."
carried=.device/gcc13-plugin
trixie=${CW_TRIXIE_ROOT:-/var/cache/capture-window/trixie}

prepare() {
  local from=$trixie/usr/lib/gcc/x86_64-linux-gnu/13/plugin
  [ -f "$from/include/plugin-version.h" ] ||
    { echo "no $from: run scripts/test-compilers.sh gcc13-llvm17 first"; exit 1; }
  rm -rf "$carried" && mkdir -p "$carried"
  cp -r "$from/include" "$carried/"
  # The headers include <gmp.h> (gcc-13-plugin-dev depends on libgmp-dev),
  # which the GPU machine lacks.
  cp "$trixie/usr/include/x86_64-linux-gnu/gmp.h" "$carried/include/"
  chroot "$trixie" dpkg-query -W gcc-13-plugin-dev >"$carried/PACKAGE"
  echo "$carried: $(cat "$carried/PACKAGE"), $(du -sh "$carried" | cut -f1)"
}

# build DIR PLUGIN_DIR: the plugin, the runtime, tests/gpu and the samples.
build() {
  mkdir -p "$1"
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=gcc \
        -DCMAKE_CXX_COMPILER=g++ -DCW_GCC_PLUGIN_DIR="$PWD/$2" -DCW_BUILD_CLANG_PLUGIN=OFF \
        -DCW_BUILD_REWRITER=OFF -DCW_BUILD_BENCH=OFF -DCW_TEST_SUITES=gpu >"$1/configure.log"
  cmake --build "$1" -j "$(nproc)" --target cw_gcc_plugin
}

# GCC's answer to the plugin of DIR: empty when it loads it.
load_error() {
  echo 'int main (void) { return 0; }' |
    gcc -fplugin="$1/plugin/gcc/capture_window.so" -x c -c -o /dev/null - 2>&1 || true
}

# The host GCC's own version record, through a probe plugin built
# against the carried headers, written into a copy of them.
host_record_headers() {
  local out=.device/gcc13-plugin-host probe
  rm -rf "$out" && cp -r "$carried" "$out"
  probe=$(mktemp -d)
  cat >"$probe/probe.cc" <<'EOF'
#include "gcc-plugin.h"
#include <cstdio>
int plugin_is_GPL_compatible;
int plugin_init (plugin_name_args *, plugin_gcc_version *v)
{
  printf ("%s\n%s\n%s\n%s\n%s\n", v->basever, v->datestamp, v->devphase,
	  v->revision, v->configuration_arguments);
  return 0;
}
EOF
  g++ -shared -fPIC -fno-rtti -I"$carried/include" "$probe/probe.cc" -o "$probe/probe.so"
  echo 'int x;' | gcc -fplugin="$probe/probe.so" -x c -c -o /dev/null - >"$probe/record"
  # plugin-version.h holds four fields, configargs.h the configure line.
  python3 - "$out/include" "$probe/record" <<'EOF'
import re, sys
folder, record = sys.argv[1], open(sys.argv[2]).read().split("\n")
names = ["basever", "datestamp", "devphase", "revision", "configuration_arguments"]
for header in ("plugin-version.h", "configargs.h"):
    path = f"{folder}/{header}"
    text = open(path).read()
    for name, value in zip(names, record):
        quoted = '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')
        text = re.sub(r'(static (?:const )?char %s\[\] = )".*";' % name,
                      lambda m: m.group(1) + quoted + ";", text)
    open(path, "w").write(text)
EOF
  rm -rf "$probe"
  echo "$out"
}

# The plugin, built so that the host's gcc loads it.
plugin() {
  [ -f "$carried/include/plugin-version.h" ] ||
    { echo "no $carried: run 'bash scripts/device-gcc13.sh prepare' on the build machine"; exit 1; }
  echo "host: $(gcc --version | head -1); headers: $(cat "$carried/PACKAGE")"
  build build-gcc13 "$carried"
  local refused headers=$carried
  refused=$(load_error build-gcc13)
  if [ -n "$refused" ]; then
    echo "the host's gcc refuses the plugin built against the carried headers:"
    echo "$refused"
    headers=$(host_record_headers)
    echo "again with the host GCC's version record in a copy of the headers ($headers):"
    rm -rf build-gcc13
    build build-gcc13 "$headers"
    refused=$(load_error build-gcc13)
    [ -z "$refused" ] || { echo "$refused"; exit 1; }
  fi
  echo "the host's gcc loads build-gcc13/plugin/gcc/capture_window.so (headers: $headers)"
}

run() {
  plugin
  cmake --build build-gcc13 -j "$(nproc)"
  LD_LIBRARY_PATH=$PWD/build-gcc13/runtime \
    python3 tests/gpu/gpu_checks.py --build build-gcc13 --nsys "$PWD/.device/nsys" \
    --out "${CW_GPU_OUT:-/tmp/gr-gcc13}" --parts "${CW_GPU_PARTS:-static,shared,samples,cli}"
}

case ${1:-} in
  prepare) prepare ;;
  run) run ;;
  plugin) plugin ;;
  *) echo "usage: $0 prepare|run|plugin"; exit 2 ;;
esac
