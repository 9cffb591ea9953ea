#!/usr/bin/env python3
"""versions_test.py - the compiler releases the manual names are the tested ones.

The tested releases: each row of the matrix in scripts/test-compilers.sh
(its GCC and LLVM columns) and the default build of scripts/test.sh (the
GCC of scripts/install-deps.sh's gcc-N-plugin-dev, the LLVM of
scripts/build.sh's llvm-N). Every list of the form `GCC A-B` or
`Clang A-B[ and C-D...]` in docs/*.md and README.md must be exactly
those releases (`Clang 14-19 and 21-23`): one list on every page, never a
span that covers a release no row tests (docs/compilers.md says how such
a release is built all the same). Every `Python 3.A-3.B` is the span of
the Pythons tests/python/wheel.py installs into (VERSIONS), those the
python suite runs on (pyenv's on Debian 12, Debian 13's and sid's).

Usage: versions_test.py SOURCE_DIR
"""
import glob
import os
import re
import sys

LIST = re.compile(r"\b(GCC|Clang) ([0-9]+-[0-9]+(?:(?:, | and )[0-9]+-[0-9]+)*)\b"
                  r"|\b(Python) (3\.[0-9]+-3\.[0-9]+)\b")


def tested(source):
    """{"GCC": {11, ...}, "Clang": {14, ...}} from the scripts."""
    def read(name):
        with open(os.path.join(source, "scripts", name)) as f:
            return f.read()
    rows = re.search(r"^matrix=\((.*?)^\)", read("test-compilers.sh"), re.S | re.M).group(1)
    gcc, llvm = set(), set()
    for row in re.findall(r'"([^"]+)"', rows):
        words = row.split()
        gcc |= {int(words[2])} if words[2].isdigit() else set()
        llvm |= {int(words[3])} if words[3].isdigit() else set()
    gcc |= {int(n) for n in re.findall(r"\bgcc-([0-9]+)-plugin-dev\b", read("install-deps.sh"))}
    llvm |= {int(n) for n in re.findall(r"/usr/lib/llvm-([0-9]+)\b", read("build.sh"))}
    return {"GCC": gcc, "Clang": llvm}


def tested_pythons(source):
    """'3.10-3.15': the span of tests/python/wheel.py's VERSIONS."""
    with open(os.path.join(source, "tests", "python", "wheel.py")) as f:
        versions = re.search(r"^VERSIONS = \((.*?)\)", f.read(), re.M).group(1)
    minors = sorted(int(v) for v in re.findall(r'"3\.([0-9]+)"', versions))
    return f"3.{minors[0]}-3.{minors[-1]}"


def runs(releases):
    """{11, 12, 13, 15} -> '11-13 and 15-15'."""
    out, ordered = [], sorted(releases)
    for n in ordered:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return " and ".join(f"{a}-{b}" for a, b in out)


def main(source):
    releases = tested(source)
    exact = {name: runs(r) for name, r in releases.items()}
    exact["Python"] = tested_pythons(source)
    print(f"tested: GCC {exact['GCC']}, Clang {exact['Clang']}, Python {exact['Python']}")
    pages = sorted(glob.glob(os.path.join(source, "docs", "*.md"))) + [os.path.join(source, "README.md")]
    failures = checked = 0
    for page in pages:
        with open(page) as f:
            for n, line in enumerate(f, 1):
                for m in LIST.finditer(line):
                    name = m.group(1) or m.group(3)
                    said = (m.group(2) or m.group(4)).replace(", ", " and ")
                    checked += 1
                    if said != exact[name]:
                        failures += 1
                        print(f"FAIL: {os.path.relpath(page, source)}:{n}: '{m.group(0)}': the tested "
                              f"releases are {name} {exact[name]}")
    print(f"{checked} lists checked, {failures} wrong")
    return 1 if failures or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
