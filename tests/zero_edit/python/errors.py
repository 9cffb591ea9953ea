#!/usr/bin/env python3
"""errors.py - `python -m capture_window` refuses a spec that marks no loop
before the script runs: one line on stderr, exit status 2, nothing of the
script's own output. A spec that parses but finds no loop while the script
runs is named on stderr, and the script runs as usual. Run by the Python
under test."""
import argparse
import os
import subprocess
import sys
import tempfile

SCRIPT = """print("the script ran")
for i in range(3):
    pass
x = [i for i in range(3)]
async def f():
    async for i in g():
        pass
"""
GRAMMAR = ("(expected FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]], "
           "e.g. train.py:42:30:3 or Trainer.fit:30:3)")
NO_FILE = ("in the script's folder, the current folder or sys.path; name a module's file from "
           "its package's folder, e.g. transformers/trainer.py")
# %(d)s: the folder of train.py.
CASES = [
    (["--loop", "train.py:3"], "train.py:3: --loop train.py:3: no for or while loop starts "
                               "on this line of %(d)s/train.py"),
    (["--loop", "train.py:4"], "train.py:4: --loop train.py:4: no for or while loop starts "
                               "on this line of %(d)s/train.py"),
    (["--loop", "train.py:6"], "train.py:6: --loop train.py:6: an async for loop cannot be "
                               "marked"),
    (["--loop", "model.py:2"], "capture_window: --loop model.py:2: no file model.py " + NO_FILE),
    (["--loop", "mytrain/trainer.py:8:30:3"],
     "capture_window: --loop mytrain/trainer.py:8:30:3: no file mytrain/trainer.py " + NO_FILE),
    (["--loop", "train.py"], "capture_window: bad value 'train.py' for --loop: FILE must be "
                             "followed by :LINE " + GRAMMAR),
    (["--loop", "train.py:2:30"], "capture_window: bad value 'train.py:2:30' for --loop: START "
                                  "must be followed by :COUNT " + GRAMMAR),
    (["--loop", "train.py:2:30:0"], "capture_window: bad value 'train.py:2:30:0' for --loop: "
                                    "COUNT must be a decimal number from 1 to 2^62 " + GRAMMAR),
    (["--loop", "train.py:2:1:1:a b"], "capture_window: bad value 'train.py:2:1:1:a b' for "
                                       "--loop: LABEL must match [A-Za-z0-9_.-]{1,63} " + GRAMMAR),
    (["--loop", "Trainer..fit:30:3"], "capture_window: bad value 'Trainer..fit:30:3' for --loop: "
                                      "FUNCTION must be a Python qualified name such as "
                                      "Trainer.fit or pkg.mod.Trainer.fit (a FILE ends in .py or "
                                      "holds a '/') " + GRAMMAR),
    (["--loop", "fit:30"], "capture_window: bad value 'fit:30' for --loop: START must be "
                           "followed by :COUNT " + GRAMMAR),
    (["--loop", "train.py:x"], "capture_window: bad value 'train.py:x' for --loop: LINE must "
                               "be a decimal number from 1 " + GRAMMAR),
    (["--lop", "train.py:2"], "capture_window: unknown option '--lop'\nusage: python -m "
                              "capture_window --loop SPEC ... SCRIPT ARGS... (SPEC: "
                              "FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]])"),
]
# Specs that parse but mark nothing where the script runs: named at the end
# (or where the function is compiled), the script runs as usual.
RUNS = [
    (["--loop", "fit:30:3"], "capture_window: --loop fit:30:3 matched no loop in this run"),
    (["--loop", "f"], "capture_window: %(d)s/train.py:6: --loop f: an async for loop cannot be "
                      "marked; nothing marked there\n"
                      "capture_window: --loop f matched no loop in this run"),
]
TWO_LOOPS = """def fit():
    for i in range(2):
        pass
    while False:
        pass
fit()
print("the script ran")
"""


def check(cases, d, env, status, stdout):
    failures = 0
    for args, want in cases:
        want = want % {"d": d}
        p = subprocess.run([sys.executable, "-m", "capture_window"] + args + ["train.py"],
                           cwd=d, env=env, capture_output=True, text=True)
        got = (p.returncode, p.stdout, p.stderr)
        if got != (status, stdout, want + "\n"):
            failures += 1
            print("FAIL: %s\n  expected: %r\n  actual:   %r"
                  % (args, (status, stdout, want + "\n"), got))
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--runtime", required=True)
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.abspath(a.package),
               CAPTURE_WINDOW_LIBRARY=os.path.abspath(a.runtime), CAPTURE_WINDOW_SELFCHECK="0")
    with tempfile.TemporaryDirectory() as d:
        d = os.path.realpath(d)
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(SCRIPT)
        failures = check(CASES, d, env, 2, "")
        failures += check(RUNS, d, env, 0, "the script ran\n")
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(TWO_LOOPS)
        failures += check([(["--loop", "fit"], "capture_window: %(d)s/train.py:1: --loop fit: fit has 2 "
                            "outermost loops (lines 2, 4); name the loop by FILE:LINE, e.g. "
                            "--loop train.py:2\ncapture_window: --loop fit matched no loop in "
                            "this run")], d, env, 0, "the script ran\n")
    n = len(CASES) + len(RUNS) + 1
    print("%d of %d cases failed" % (failures, n) if failures else "ok: %d cases" % n)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
