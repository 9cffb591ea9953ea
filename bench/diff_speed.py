#!/usr/bin/env python3
"""diff_speed.py - what `capture-window diff` costs (issue 42 item 7;
docs/performance.md, "capture-window diff").

  python3 bench/diff_speed.py [--steps N] [--rounds R]

Writes two runs of N steps (default 1,000,000) of plan_from.py's job
(logging every 10 steps, an evaluation every 100, a checkpoint every 250
on 1 % noise; the second run's seed differs) in format 2, then, R rounds
(default 3) taking turns, runs in a process each and reports the median
CPU time (user + system) and wall time of

  start    a floor: the command's start and imports (capture-window --version)
  plan     capture-window plan --from BASE --json (one run's analysis)
  diff     capture-window diff BASE NEW (the goal: within 1 s)
  reports  capture-window diff of two SQLite exports of a 3-step window
           of KERNELS kernels a step (--kernels, default 500, llm.c's
           size: 40 kernel names, each step in 12 NVTX ranges of the
           program's; built as tests/cli/make_fixtures.py builds them)
           (the goal: within 2 s)
"""
import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile

from plan_from import HERE, measure, write_job

sys.path.insert(0, os.path.join(HERE, "..", "tests", "cli"))
from make_fixtures import Report  # noqa: E402

NAMES, RANGES = 40, 12


def write_report(path, kernels, seed):
    """A window of steps 30-32, each KERNELS kernels of NAMES names in
    RANGES ranges of the program's own, each kernel 5-200 us +-2 %."""
    r, rep = random.Random(seed), Report(4100)
    t = rep.thread(101)
    base = {k: 5000 + 5000 * k for k in range(NAMES)}
    with t.range("step", registered=True):
        for i in range(30, 33):
            with t.range(f"step#{i}"):
                for g in range(RANGES):
                    with t.range(f"layer {g}"):
                        for k in range(g * kernels // RANGES, (g + 1) * kernels // RANGES):
                            name = k % NAMES
                            t.launch((f"kernel_{name}(float *, int)", f"kernel_{name}"), 1,
                                     round(base[name] * r.uniform(0.98, 1.02)))
    rep.write(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kernels", type=int, default=500)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="cw-bench-diff-")
    runs = []
    for name, seed in (("base", 1), ("new", 2)):
        path = os.path.join(folder, name)
        write_job(path + ".txt", path, args.steps, seed)
        runs.append(path)
    reports = [os.path.join(folder, f"{name}.sqlite") for name in ("base", "new")]
    for path, seed in zip(reports, (1, 2)):
        write_report(path, args.kernels, seed)
    cli = os.path.join(HERE, "..", "cli", "capture-window")
    configs = {"start": [sys.executable, cli, "--version"],
               "plan": [sys.executable, cli, "plan", "--json", "--from", runs[0]],
               "diff": [sys.executable, cli, "diff", *runs],
               "reports": [sys.executable, cli, "diff", *reports]}
    cpus = {name: [] for name in configs}
    walls = {name: [] for name in configs}
    for _ in range(args.rounds):
        for name, command in configs.items():
            wall, cpu = measure(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(f"two runs of {args.steps:,} steps (format 2), two reports of 3 steps of "
          f"{args.kernels} kernels; {args.rounds} rounds (median)")
    print(f"{'':8}{'CPU s':>8}{'wall s':>8}")
    for name in configs:
        print(f"{name:8}{statistics.median(cpus[name]):8.2f}{statistics.median(walls[name]):8.2f}")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
