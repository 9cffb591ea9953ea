#!/usr/bin/env python3
"""errors.py - `python -m capture_window` refuses a spec that marks no loop
before the script runs: one line on stderr, exit status 2, nothing of the
script's own output. Below Python 3.12 a good spec gets the same treatment,
with the reason. Run by the Python under test."""
import argparse
import os
import subprocess
import sys
import tempfile

SCRIPT = """print("the script ran")
for i in range(3):
    pass
x = [i for i in range(3)]
while x: x.pop()
"""
GRAMMAR = "(expected FILE:LINE[:START:COUNT[:LABEL]], e.g. train.py:42:30:3)"
CASES = [
    (["--loop", "train.py:3"], "train.py:3: --loop train.py:3: no for or while loop starts "
                               "on this line of train.py"),
    (["--loop", "train.py:4"], "train.py:4: --loop train.py:4: no for or while loop starts "
                               "on this line of train.py"),
    (["--loop", "train.py:5"], "train.py:5: --loop train.py:5: the loop's body starts on its "
                               "header line; put it on lines of its own"),
    (["--loop", "model.py:2"], "model.py:2: --loop model.py:2: FILE names no file the script "
                               "is (train.py); the Python door marks loops of the script it runs"),
    (["--loop", "train.py"], "capture_window: bad value 'train.py' for --loop: FILE must be "
                             "followed by :LINE " + GRAMMAR),
    (["--loop", "train.py:2:30"], "capture_window: bad value 'train.py:2:30' for --loop: START "
                                  "must be followed by :COUNT " + GRAMMAR),
    (["--loop", "train.py:2:30:0"], "capture_window: bad value 'train.py:2:30:0' for --loop: "
                                    "COUNT must be a decimal number from 1 to 2^62 " + GRAMMAR),
    (["--loop", "train.py:2:1:1:a b"], "capture_window: bad value 'train.py:2:1:1:a b' for "
                                       "--loop: LABEL must match [A-Za-z0-9_.-]{1,63} " + GRAMMAR),
    (["--loop", "fit:30:3"], "capture_window: bad value 'fit:30:3' for --loop: the Python door "
                             "takes FILE:LINE specs only (a FILE holds a '.' or a '/') " + GRAMMAR),
    (["--loop", "train.py:x"], "capture_window: bad value 'train.py:x' for --loop: LINE must "
                               "be a decimal number from 1 " + GRAMMAR),
    (["--lop", "train.py:2"], "capture_window: unknown option '--lop'\nusage: python -m "
                              "capture_window --loop FILE:LINE[:START:COUNT[:LABEL]] ... "
                              "SCRIPT ARGS..."),
]
OLD = ("capture_window: --loop needs Python 3.12 or newer (sys.monitoring); this is "
       "Python %d.%d: mark the loop with capture_window.loop() instead" % sys.version_info[:2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--runtime", required=True)
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.abspath(a.package),
               CAPTURE_WINDOW_LIBRARY=os.path.abspath(a.runtime))
    cases = CASES
    if sys.version_info < (3, 12):
        cases = cases + [(["--loop", "train.py:2:30:3"], OLD)]
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(SCRIPT)
        for args, want in cases:
            p = subprocess.run([sys.executable, "-m", "capture_window"] + args + ["train.py"],
                               cwd=d, env=env, capture_output=True, text=True)
            got = (p.returncode, p.stdout, p.stderr)
            if got != (2, "", want + "\n"):
                failures += 1
                print("FAIL: %s\n  expected: (2, '', %r)\n  actual:   %r" % (args, want, got))
    print("%d of %d cases failed" % (failures, len(cases)) if failures else
          "ok: %d cases" % len(cases))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
