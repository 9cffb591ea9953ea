#!/usr/bin/env python3
"""wheel_old_glibc.py - the release wheels on the oldest glibc they are
for (issue 43 item 10), run by the python3 of that system (Debian 11's
3.9, in the root scripts/test-wheel-bullseye.sh makes):

- every wheel in DIST is tagged manylinux_X_Y with X.Y no newer than this
  system's glibc;
- the one for this machine installs with this system's pip (no index,
  into a folder), and its library, loaded from beside the package, marks
  a loop() (install.py's script and verbose lines);
- that library's libm calls, bound to their oldest versions
  (cmake/old-glibc-symbols.h: exp, log, lgamma), give the runtime's
  period chance as plan computes it (tests/plan/rules_test.py).

Usage: wheel_old_glibc.py --dist DIR
"""
import argparse
import glob
import os
import platform
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from install import SCRIPT, WANT  # noqa: E402
from wheel import MAPPED, clean_env  # noqa: E402


def main():
    p = argparse.ArgumentParser(description="The release wheels on an old glibc (docstring).")
    p.add_argument("--dist", required=True, help="the folder of the release wheels")
    args = p.parse_args()
    glibc = tuple(map(int, platform.libc_ver()[1].split(".")[:2]))
    wheels = sorted(glob.glob(os.path.join(args.dist, "capture_window-*.whl")))
    if not wheels:
        sys.exit("FAIL: no wheel in %s" % args.dist)
    mine = None
    for wheel in wheels:
        tag = re.search(r"-manylinux_(\d+)_(\d+)_(\w+)\.whl$", wheel)
        if not tag or (int(tag.group(1)), int(tag.group(2))) > glibc:
            sys.exit("FAIL: %s is not for glibc %d.%d or older" % (os.path.basename(wheel), *glibc))
        if tag.group(3) == platform.machine():
            mine = wheel
    if not mine:
        sys.exit("FAIL: no wheel for %s in %s" % (platform.machine(), wheels))
    with tempfile.TemporaryDirectory() as folder:
        pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index",
                              "--target", os.path.join(folder, "site"), mine],
                             capture_output=True, text=True, env=clean_env())
        if pip.returncode:
            sys.exit("FAIL: pip %s did not install %s:\n%s" % (
                platform.python_version(), os.path.basename(mine), pip.stderr))
        with open(os.path.join(folder, "train.py"), "w") as f:
            f.write(SCRIPT + MAPPED)
        run = subprocess.run([sys.executable, "train.py"], cwd=folder, capture_output=True,
                             text=True, env=clean_env(PYTHONPATH=os.path.join(folder, "site"),
                                                      CAPTURE_WINDOW_VERBOSE="1",
                                                      CAPTURE_WINDOW_SELFCHECK="0"))
        beside = os.path.join(folder, "site", "capture_window", "libcapture_window.so.1")
        lines = [l for l in run.stderr.splitlines() if "profiler" not in l]
        if run.returncode or len(lines) != len(WANT) or not all(
                re.fullmatch(w, l) for w, l in zip(WANT, lines)) or run.stdout.split() != [beside]:
            sys.exit("FAIL: exit status %d, stdout %r (want the wheel's %s), stderr:\n%s\n"
                     "expected (profiler lines aside):\n%s" % (
                         run.returncode, run.stdout, beside, run.stderr, "\n".join(WANT)))
        rules = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "plan", "rules_test.py"),
                                os.path.join(ROOT, "cli"), beside], capture_output=True, text=True)
        if rules.returncode:
            sys.exit("FAIL: the wheel's library computes other rules than plan:\n" + rules.stdout)
    print("PASS: %s on glibc %d.%d, Python %s: pip installed %s, whose library marked loop() "
          "and computed plan's period chances"
          % (", ".join(os.path.basename(w) for w in wheels), *glibc,
             platform.python_version(), os.path.basename(mine)))


if __name__ == "__main__":
    main()
