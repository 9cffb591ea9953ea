#!/usr/bin/env python3
"""plan.py - `capture-window plan` on a Python program, in both forms:
`python train.py` (the wrapper) and `python -m capture_window --loop`
(Python 3.12+). plan times every step through the runtime
(CAPTURE_WINDOW_TIMES), so it must find the one loop with its 40 steps at
the site each form names, and name its nsys suggestions' report after the
script (train), not after the interpreter.
Run by the Python under test: plan.py --cli CLI --package DIR --runtime LIB."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

WRAPPED = """import time
import capture_window
for step in capture_window.loop(range(40), 30, 3):
    time.sleep(0.001)
"""
PLAIN = """import time
for step in range(40):
    time.sleep(0.001)
"""


def check(cli, env, folder, source, command, line):
    with open(os.path.join(folder, "train.py"), "w") as f:
        f.write(source)
    p = subprocess.run([sys.executable, os.path.abspath(cli), "plan", "--json", "--"] + command, cwd=folder,
                       env=env, capture_output=True, text=True)
    try:
        loops = json.loads(p.stdout)["loops"]
    except ValueError:
        return ["%s: exit status %d, no JSON; stderr:\n%s" % (command, p.returncode, p.stderr)]
    got = [(l["label"], os.path.basename(l["file"]), l["line"], l["iterations"]) for l in loops]
    problems = []
    if got != [("step", "train.py", line, 40)]:
        problems.append("%s: loops %r, expected [('step', 'train.py', %d, 40)]"
                        % (command, got, line))
    suggestions = [s["nsys"] for l in loops for s in l["suggest"]]
    if not suggestions or not all(" -o train " in s for s in suggestions):
        problems.append("%s: suggestions %r do not all write -o train" % (command, suggestions))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--package", required=True)
    ap.add_argument("--runtime", required=True)
    a = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAPTURE_WINDOW")}
    env.update(PYTHONPATH=os.path.abspath(a.package),
               CAPTURE_WINDOW_LIBRARY=os.path.abspath(a.runtime))
    with tempfile.TemporaryDirectory() as d:
        problems = check(a.cli, env, d, WRAPPED, [sys.executable, "train.py"], 3)
        if sys.version_info >= (3, 12):
            problems += check(a.cli, env, d, PLAIN, [sys.executable, "-m", "capture_window",
                                                    "--loop", "train.py:2:30:3", "train.py"], 2)
    for p in problems:
        print("FAIL: " + p)
    print("ok" if not problems else "%d failure(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
