#!/usr/bin/env python3
"""plan's periods pass a significance test (issue 31 item 2), measured on
generated step files (seeded, so every count is decided by the code):

  noise      N loops of 1 ms steps (lognormal, sigma 5 %, 2 % heavy-tailed
             Pareto slowdowns), 8 % of steps 1.5-13x slower at random, no
             event: how many get a period (the false alarms);
  eval       the same with 6 % random slowdowns and an evaluation: every
             10 steps at 10x (300 steps), every 25 at 6x (200 steps): how
             many find exactly it (every 10) or it among others (every 25);
  steady     none of them drifts or has levels (issue 31 item 3): all steady.

Prints the rates (docs/where-to-cut.md quotes them) and checks them
exactly. Usage: significance.py CLI_DIR [--measure N]
"""
import random
import sys
from array import array

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from capture_window_cli import plan  # noqa: E402


def loop(n, seed, rate, period=None, factor=10.0):
    r = random.Random(seed)
    out = []
    for i in range(n):
        t = 1e6 * r.lognormvariate(0, 0.05)
        if r.random() < 0.02:
            t *= 1 + 0.2 * r.paretovariate(2.5)   # a heavy tail
        if i == 0:
            t *= 20                                # the warm-up
        if period and i and i % period == 0:
            t *= factor
        if r.random() < rate:
            t *= r.uniform(1.5, 13)                # another process took the CPU
        out.append(int(t))
    return out


def analysed(ns):
    return plan.analyse(array("q", range(len(ns))), array("q", ns))


def periods(ns):
    return [(e.every, e.phase) for e in analysed(ns).periodic]


def measure(n):
    loops = {"noise, 300 steps": [analysed(loop(300, s, 0.08)) for s in range(n)],
             "noise, 1000 steps": [analysed(loop(1000, 10_000 + s, 0.08)) for s in range(n)],
             "every 10 at 10x, 300 steps": [analysed(loop(300, s, 0.06, 10)) for s in range(n)],
             "every 25 at 6x, 200 steps": [analysed(loop(200, s, 0.06, 25, 6.0)) for s in range(n)]}

    def found(a):
        return [(e.every, e.phase) for e in a.periodic]
    got = {
        "noise, 300 steps": sum(1 for a in loops["noise, 300 steps"] if found(a)),
        "noise, 1000 steps": sum(1 for a in loops["noise, 1000 steps"] if found(a)),
        "every 10 at 10x, 300 steps": sum(1 for a in loops["every 10 at 10x, 300 steps"]
                                          if found(a) == [(10, 0)]),
        "every 25 at 6x, 200 steps": sum(1 for a in loops["every 25 at 6x, 200 steps"]
                                         if (25, 0) in found(a)),
    }
    # Issue 31 item 3: the same noise is no drift nor levels: every loop steady.
    got["not steady, all four kinds (x4 loops)"] = sum(1 for kind in loops.values() for a in kind
                                      if a.steady is not True)
    return got


def main():
    if sys.argv[2:3] == ["--measure"]:
        n = int(sys.argv[3])
        for name, count in measure(n).items():
            print(f"{name}: {count} of {n}")
        return 0
    n = 100
    want = {"noise, 300 steps": 0, "noise, 1000 steps": 2, "every 10 at 10x, 300 steps": 99,
            "every 25 at 6x, 200 steps": 100, "not steady, all four kinds (x4 loops)": 0}
    got = measure(n)
    failures = [k for k in want if got[k] != want[k]]
    for k in want:
        print(f"{'PASS' if k not in failures else 'FAIL'}: {k}: {got[k]} of {n} (expected {want[k]})")
    # The loop: 300 steps, 8 % random 1.5-13x slowdowns: outliers, no period.
    r = random.Random(31)
    ns = [int(1e6 * (r.uniform(1.5, 13) if r.random() < 0.08 else 1) * r.uniform(0.99, 1.01))
          for _ in range(300)]
    a = plan.analyse(array("q", range(300)), array("q", ns))
    ok = not a.periodic and len(a.outliers) > 10
    print(f"{'PASS' if ok else 'FAIL'}: random slowdowns alone: no period, "
          f"{len(a.outliers)} outliers, periods {periods(ns)}")
    return 1 if failures or not ok else 0


if __name__ == "__main__":
    sys.exit(main())
