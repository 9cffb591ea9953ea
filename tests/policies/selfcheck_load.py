#!/usr/bin/env python3
"""The self-check's verdict does not flip on a loaded machine: with two CPU
hogs beside it (busy loops, one per core of a 2-core machine), the demo's
train_cpu is judged steady run after run, and selfcheck_verdict.c's
windows keep their verdicts: steady, a slow step, a window faster than the
steps before it.

Usage: selfcheck_load.py TRAIN_CPU SELFCHECK_VERDICT
"""
import os
import re
import subprocess
import sys

TRAIN_RUNS, VERDICT_RUNS = 20, 3
VERDICTS = [  # (environment, what the window's verdict must say)
    ({}, r": steady \(the 15 steps before: "),
    ({"CW_SLOW_STEP": "1", "CAPTURE_WINDOW": "20:3"},
     r": step 21 is [2-3]\.\dx slower than the 15 steps before .*: not steady state"),
    ({"CW_FAST_WINDOW": "1", "CAPTURE_WINDOW": "20:3"},
     r": its steps are [3-4]\.\dx faster than the 15 steps before .*: not steady state"),
]


def self_check_line(program, env):
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("CAPTURE_WINDOW") and k != "NVTX_INJECTION64_PATH"}
    environ.update({"CAPTURE_WINDOW_SELFCHECK": "1", **env})
    p = subprocess.run([program], env=environ, capture_output=True, text=True, timeout=120)
    return next((l for l in p.stderr.splitlines() if " ran " in l), p.stderr.strip())


def main():
    train_cpu, verdict = sys.argv[1], sys.argv[2]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 2)]
    failures = 0
    try:
        cases = [(train_cpu, {}, r"window 30-32: .*: steady \(the 15 steps before: ", TRAIN_RUNS)]
        cases += [(verdict, env, want, VERDICT_RUNS) for env, want in VERDICTS]
        for program, env, want, runs in cases:
            name = " ".join([*(f"{k}={v}" for k, v in env.items()), os.path.basename(program)])
            for run in range(runs):
                line = self_check_line(program, env)
                if not re.search(want, line):
                    failures += 1
                    print(f"FAIL: {name}, run {run + 1} of {runs} under load:\n  {line}")
            print(f"{name}: {runs} runs under load")
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f"{failures} verdict(s) flipped" if failures else "no verdict flipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
