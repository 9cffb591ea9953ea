#!/usr/bin/env python3
"""python_loop_bench.py - the per-iteration cost of the Python door's
forms against a bare Python loop timed in the same process.

    python3 bench/python_loop_bench.py [--build build] [--python PY]... [--procs 3]

Configurations, each its own process (the runtime reads the environment
once), taking turns --procs times:
  off      CAPTURE_WINDOW=off
  default  the loops' own windows (far away: never open), no NVTX tool
  tool     the same with NVTX_INJECTION64_PATH=libcw_nvtx_null.so, a
           do-nothing tool: every iteration gets its L#i range
  watch    CAPTURE_WINDOW_WATCH, no request written: loop()'s runs of
           iterations also test the watcher's word (capture_window/watch.h)
Forms: loop() over range(n), steps() in a while loop, and the zero edit,
`python -m capture_window --loop` of an unmarked loop ("n/a" and the
reason where that command fails on the Python timed). The
zero edit's process also times the bare loop, a function it does not
mark: the cost of the zero edit on the rest of the program is that
bare loop's time against the bare loop of a process without it.
Each number is the best of --rounds rounds of --n iterations (the forms
of a process take turns in each round), then the median over the
processes; "over bare" is the difference. Each --python
(default: every pyenv Python 3.10 or newer) gets its table, in one run.
The numbers: docs/python.md, "Cost".
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

FAR = 10 ** 9       # a window that never opens: the cost outside windows


def bare(n):
    x = 0
    for i in range(n):
        x += i
    return x


def unmarked(n):      # the loop the zero edit marks (same body as bare)
    x = 0
    for i in range(n):
        x += i
    return x


def wrapped(n):
    import capture_window
    x = 0
    for i in capture_window.loop(range(n), FAR, 1):
        x += i
    return x


def bare_while(n):
    x = i = 0
    while i < n:
        x += i
        i += 1
    return x


def stepped(n):
    import capture_window
    x = i = 0
    with capture_window.steps(FAR, 1) as step:
        while i < n:
            step()
            x += i
            i += 1
    return x


def child(forms, n, rounds):
    """Each form's best round; the forms take turns within each round, so
    a change of load on the machine meets them all."""
    table = dict(bare=bare, unmarked=unmarked, wrapped=wrapped, bare_while=bare_while,
                 stepped=stepped)
    best = {}
    for f in forms:
        table[f](100)               # first entry: the runtime reads its settings
    for _ in range(rounds):
        for f in forms:
            t = time.perf_counter_ns()
            table[f](n)
            ns = (time.perf_counter_ns() - t) / n
            best[f] = min(best.get(f, ns), ns)
    print(json.dumps(best))


def zero_edit_line():
    with open(__file__) as f:
        lines = f.read().splitlines()
    start = lines.index("def unmarked(n):      # the loop the zero edit marks (same body as bare)")
    return start + 3


def pythons():
    """Every pyenv Python 3.10 or newer, or this one."""
    try:
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
    except OSError:
        root = ""
    found = sorted(glob.glob(os.path.join(root, "versions", "3.1[0-9].*", "bin", "python3")),
                   key=lambda p: [int(x) for x in re.findall(r"\d+", p.split("/")[-3])])
    return found or [sys.executable]


def run_child(cmd, env):
    """The child's numbers, or the reason it gave none (its last stderr line)."""
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode:
        lines = p.stderr.strip().splitlines() or ["exit status %d" % p.returncode]
        return lines[-1]
    return json.loads(p.stdout)


def bench(python, a, env, configs):
    me = os.path.abspath(__file__)
    args = ["--n", str(a.n), "--rounds", str(a.rounds), "--child"]
    commands = {"": [python, me] + args + ["bare", "wrapped", "bare_while", "stepped"],
                "zero": [python, "-m", "capture_window", "--loop",
                         "%s:%d:%d:1" % (me, zero_edit_line(), FAR), me] + args + [
                         "bare", "unmarked"]}
    runs, failed = {}, {}
    for _ in range(a.procs):
        for name, extra in configs.items():
            for key, cmd in commands.items():
                if (name, key) in failed:
                    continue
                out = run_child(cmd, dict(env, **extra))
                if isinstance(out, str):
                    failed[(name, key)] = out
                    continue
                for form, ns in out.items():
                    runs.setdefault((name, key, form), []).append(ns)
    med = {k: statistics.median(v) for k, v in runs.items()}
    version = subprocess.run([python, "-c", "import platform; print(platform.python_version())"],
                             capture_output=True, text=True).stdout.strip()
    print("Python %s, %d processes per configuration, best of %d x %d iterations"
          % (version, a.procs, a.rounds, a.n))
    print("%-8s %-22s %9s %9s %9s %7s" % ("config", "form", "ns/iter", "bare", "over bare",
                                          "ratio"))
    for name in configs:
        rows = [("loop()", "", "wrapped", "", "bare"), ("steps()", "", "stepped", "", "bare_while"),
                ("zero edit", "zero", "unmarked", "zero", "bare"),
                ("zero edit: other code", "zero", "bare", "", "bare")]
        for form, key, f, base_key, base in rows:
            if (name, key) in failed or (name, base_key) in failed:
                print("%-8s %-22s n/a (%s)" % (name, form, failed.get((name, key))
                                               or failed[(name, base_key)]))
                continue
            ns, b = med[(name, key, f)], med[(name, base_key, base)]
            print("%-8s %-22s %9.1f %9.1f %9.1f %6.2fx" % (name, form, ns, b, ns - b, ns / b))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--python", action="append",
                    help="the Python to time (repeat it; default: every pyenv 3.10+)")
    ap.add_argument("--procs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--child", nargs="+")
    a = ap.parse_args()
    if a.child:
        return child(a.child, a.n, a.rounds)
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.path.join(here, "..", "python"),
               CAPTURE_WINDOW_LIBRARY=os.path.join(a.build, "runtime", "libcapture_window.so.1"))
    for var in ("CAPTURE_WINDOW", "NVTX_INJECTION64_PATH", "CAPTURE_WINDOW_WATCH"):
        env.pop(var, None)
    watched = tempfile.mkdtemp(prefix="cw-bench-watch-")
    configs = {"off": {"CAPTURE_WINDOW": "off"}, "default": {},
               "tool": {"NVTX_INJECTION64_PATH": os.path.join(a.build, "bench", "libcw_nvtx_null.so")},
               "watch": {"CAPTURE_WINDOW_WATCH": os.path.join(watched, "cw.watch")}}
    for k, python in enumerate(a.python or pythons()):
        if k:
            print()
        bench(python, a, env, configs)


if __name__ == "__main__":
    main()
