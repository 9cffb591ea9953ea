#!/usr/bin/env python3
"""wheel_tag.py - the wheel's platform tag is its library's need (issue 43
item 10): manylinux_X_Y_ARCH where X.Y is the newest GLIBC_X.Y[.Z]
symbol version that `objdump -T` lists for the library inside the wheel
(at least 2.5 on x86, 2.17 elsewhere, the oldest pip tags), and ARCH its
ELF machine's, not the glibc of the machine that built it. objdump reads
the ELF apart from make_wheel.py's own reader of .gnu.version_r.

Usage: wheel_tag.py --dist DIR   (the build's dist/)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wheel import built_wheel  # noqa: E402

# ELF e_machine -> the tag's ARCH, and the oldest glibc pip tags there.
MACHINES = {62: ("x86_64", (2, 5)), 183: ("aarch64", (2, 17))}


def main():
    p = argparse.ArgumentParser(description="The wheel's tag is its library's need (docstring).")
    p.add_argument("--dist", required=True, help="the build's dist/")
    args = p.parse_args()
    wheel = built_wheel(args.dist)
    with zipfile.ZipFile(wheel) as z:
        data = z.read("capture_window/libcapture_window.so.1")
    with tempfile.NamedTemporaryFile(suffix=".so") as library:
        library.write(data)
        library.flush()
        symbols = subprocess.run(["objdump", "-T", library.name], capture_output=True,
                                 text=True, check=True).stdout
    arch, oldest = MACHINES[int.from_bytes(data[18:20], "little")]
    needs = {tuple(map(int, m)) for m in re.findall(r"\bGLIBC_(\d+)\.(\d+)(?:\.\d+)?\b", symbols)}
    if not needs:
        sys.exit("FAIL: objdump -T lists no GLIBC_ version for the wheel's library")
    want = "capture_window-%s-py3-none-manylinux_%d_%d_%s.whl" % (
        os.path.basename(wheel).split("-")[1], *max(needs | {oldest}), arch)
    if os.path.basename(wheel) != want:
        sys.exit("FAIL: the wheel is %s; its library needs GLIBC_%d.%d at most, so it is %s"
                 % (os.path.basename(wheel), *max(needs), want))
    print("PASS: %s: its library's newest need is GLIBC_%d.%d" % (want, *max(needs)))


if __name__ == "__main__":
    main()
