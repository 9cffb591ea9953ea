#!/usr/bin/env python3
"""A GCC of another release loads the GCC plugin: GCC leaves the version
check to the plugin, whose error must name both releases and the way out.

  other_release.py --plugin capture_window.so --built-for 12.2.0 --cc gcc-11
"""
import argparse
import subprocess
import sys

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--plugin", required=True)
ap.add_argument("--built-for", required=True, help="the plugin's GCC release")
ap.add_argument("--cc", required=True, help="a gcc of another release")
a = ap.parse_args()

other = subprocess.run([a.cc, "-dumpfullversion"], capture_output=True,
                       text=True, check=True).stdout.strip()
p = subprocess.run([a.cc, "-fplugin=" + a.plugin, "-x", "c", "-c", "-o", "/dev/null", "-"],
                   input="int main (void) { return 0; }\n", capture_output=True, text=True)
want = ["cc1: error: %s was built for GCC %s, this is GCC %s; rebuild it with this "
        "GCC's g++ (docs/compilers.md)" % (a.plugin, a.built_for, other),
        "cc1: error: failed to initialize plugin %s" % a.plugin]
got = p.stderr.splitlines()
if p.returncode != 1 or got != want:
    print("FAIL: %s -fplugin=%s exits %d and prints:\n%s\nexpected exit 1 and:\n%s"
          % (a.cc, a.plugin, p.returncode, p.stderr, "\n".join(want)))
    sys.exit(1)
print("ok: GCC %s refuses the plugin for GCC %s with its reason" % (other, a.built_for))
