#!/usr/bin/env python3
"""library_search.py - where the package looks for libcapture_window
(docs/python.md, "Install"), on a copy of the package with a file beside
it as the wheel puts the library:

- a beside file that does not load: one stderr line names it and each
  name the dynamic loader was asked for, with the loader's reason; the
  loop runs unmarked;
- CAPTURE_WINDOW_LIBRARY overrides: a file that does not load is the only
  one named though the real library lies beside the package, and the real
  library named by it loads though a bad file lies beside.

Usage: library_search.py --package DIR --runtime LIB
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from install import SCRIPT, WANT  # noqa: E402 (the marked loop and its verbose lines)

UNMARKED = ("capture_window: cannot load libcapture_window, tried %s; the marked loops run "
            "unmarked (set CAPTURE_WINDOW_LIBRARY to the library's path)")
NOT_FOUND = "cannot open shared object file: No such file or directory"


def run(folder, **env):
    """The stderr lines of train.py in FOLDER, profiler lines aside, or a
    failure's description."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("CAPTURE_WINDOW", "NVTX_", "PYTHON", "LD_LIBRARY"))}
    clean.update(PYTHONPATH=folder, PYTHONDONTWRITEBYTECODE="1", CAPTURE_WINDOW_VERBOSE="1",
                 CAPTURE_WINDOW_SELFCHECK="0", **env)
    p = subprocess.run([sys.executable, "train.py"], cwd=folder, env=clean,
                       capture_output=True, text=True)
    if p.returncode or p.stdout != "4 iterations\n":
        return ["exit status %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr)]
    return [line for line in p.stderr.splitlines() if "profiler" not in line]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--package", required=True, help="the folder that holds capture_window/")
    p.add_argument("--runtime", required=True)
    args = p.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        package = os.path.join(folder, "capture_window")
        shutil.copytree(os.path.join(args.package, "capture_window"), package,
                        ignore=shutil.ignore_patterns("__pycache__"))
        with open(os.path.join(folder, "train.py"), "w") as f:
            f.write(SCRIPT + "print(i + 1, 'iterations')\n")
        beside = os.path.join(package, "libcapture_window.so.1")
        bad = os.path.join(folder, "bad.so")
        with open(bad, "w") as f:
            f.write("not a library\n")
        runtime = os.path.abspath(args.runtime)
        cases = [  # (what, the beside file, the variable, expected stderr lines)
            ("a bad file beside, no variable", bad, None,
             [re.escape(UNMARKED % "%s (file too short), libcapture_window.so.1 (%s), "
                        "libcapture_window.so (%s)" % (beside, NOT_FOUND, NOT_FOUND))]),
            ("a bad CAPTURE_WINDOW_LIBRARY, the library beside", runtime, bad,
             [re.escape(UNMARKED % "%s (file too short)" % bad)]),
            ("CAPTURE_WINDOW_LIBRARY, a bad file beside", bad, runtime, WANT),
        ]
        for what, put_beside, variable, want in cases:
            shutil.copyfile(put_beside, beside)
            lines = run(folder, **({"CAPTURE_WINDOW_LIBRARY": variable} if variable else {}))
            ok = len(lines) == len(want) and all(re.fullmatch(w, l) for w, l in zip(want, lines))
            print("%s: %s%s" % ("ok" if ok else "FAIL", what, "" if ok else
                  ":\n%s\nexpected:\n%s" % ("\n".join(lines), "\n".join(want))))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
