#!/usr/bin/env python3
"""python_loop_bench.py - the per-iteration cost of the Python door's
forms against a bare Python loop timed in the same process.

    python3 bench/python_loop_bench.py [--build build] [--python PY] [--procs 3]

Configurations, each its own process (the runtime reads the environment
once), taking turns --procs times:
  off      CAPTURE_WINDOW=off
  default  the loops' own windows (far away: never open), no NVTX tool
  tool     the same with NVTX_INJECTION64_PATH=libcw_nvtx_null.so, a
           do-nothing tool: every iteration gets its L#i range
Forms: loop() over range(n), steps() in a while loop, and (Python 3.12+)
the zero edit, `python -m capture_window --loop` of an unmarked loop. The
zero edit's process also times the bare loop, a function it does not
mark: the cost of the zero edit on the rest of the program is that
bare loop's time against the bare loop of a process without it.
Each number is the best of --rounds rounds of --n iterations, then the
median over the processes. The numbers: docs/python.md, "Cost".
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
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


def best(f, n, rounds):
    f(100)                          # first entry: the runtime reads its settings
    times = []
    for _ in range(rounds):
        t = time.perf_counter_ns()
        f(n)
        times.append(time.perf_counter_ns() - t)
    return min(times) / n


def child(forms, n, rounds):
    table = dict(bare=bare, unmarked=unmarked, wrapped=wrapped, bare_while=bare_while,
                 stepped=stepped)
    print(json.dumps({f: best(table[f], n, rounds) for f in forms}))


def zero_edit_line():
    with open(__file__) as f:
        lines = f.read().splitlines()
    start = lines.index("def unmarked(n):      # the loop the zero edit marks (same body as bare)")
    return start + 3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    ap.add_argument("--python", default=sys.executable)
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
    for var in ("CAPTURE_WINDOW", "NVTX_INJECTION64_PATH"):
        env.pop(var, None)
    configs = {"off": {"CAPTURE_WINDOW": "off"}, "default": {},
               "tool": {"NVTX_INJECTION64_PATH": os.path.join(a.build, "bench", "libcw_nvtx_null.so")}}
    version = subprocess.run([a.python, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                             capture_output=True, text=True).stdout.strip() == "True"
    me = os.path.abspath(__file__)
    args = ["--n", str(a.n), "--rounds", str(a.rounds), "--child"]
    runs = {}
    for _ in range(a.procs):
        for name, extra in configs.items():
            commands = {"": [a.python, me] + args + ["bare", "wrapped", "bare_while", "stepped"]}
            if version:
                commands["zero"] = [a.python, "-m", "capture_window", "--loop",
                                    "%s:%d:%d:1" % (me, zero_edit_line(), FAR), me] + args + [
                                    "bare", "unmarked"]
            for key, cmd in commands.items():
                out = subprocess.run(cmd, env=dict(env, **extra), capture_output=True,
                                     text=True, check=True).stdout
                for form, ns in json.loads(out).items():
                    runs.setdefault((name, key, form), []).append(ns)
    med = {k: statistics.median(v) for k, v in runs.items()}
    print("Python %s, %d processes per configuration, best of %d x %d iterations"
          % (subprocess.run([a.python, "-c", "import platform; print(platform.python_version())"],
                            capture_output=True, text=True).stdout.strip(),
             a.procs, a.rounds, a.n))
    print("%-8s %-22s %9s %9s %7s" % ("config", "form", "ns/iter", "bare", "ratio"))
    for name in configs:
        rows = [("loop()", med[(name, "", "wrapped")], med[(name, "", "bare")]),
                ("steps()", med[(name, "", "stepped")], med[(name, "", "bare_while")])]
        if version:
            rows += [("zero edit", med[(name, "zero", "unmarked")], med[(name, "zero", "bare")]),
                     ("zero edit: other code", med[(name, "zero", "bare")], med[(name, "", "bare")])]
        for form, ns, base in rows:
            print("%-8s %-22s %9.1f %9.1f %6.2fx" % (name, form, ns, base, ns / base))


if __name__ == "__main__":
    main()
