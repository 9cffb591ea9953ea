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
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

from plan_from import HERE, measure, write_job


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="cw-bench-diff-")
    runs = []
    for name, seed in (("base", 1), ("new", 2)):
        path = os.path.join(folder, name)
        write_job(path + ".txt", path, args.steps, seed)
        runs.append(path)
    cli = os.path.join(HERE, "..", "cli", "capture-window")
    configs = {"start": [sys.executable, cli, "--version"],
               "plan": [sys.executable, cli, "plan", "--json", "--from", runs[0]],
               "diff": [sys.executable, cli, "diff", *runs]}
    cpus = {name: [] for name in configs}
    walls = {name: [] for name in configs}
    for _ in range(args.rounds):
        for name, command in configs.items():
            wall, cpu = measure(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(f"two runs of {args.steps:,} steps (format 2); {args.rounds} rounds (median)")
    print(f"{'':8}{'CPU s':>8}{'wall s':>8}")
    for name in configs:
        print(f"{name:8}{statistics.median(cpus[name]):8.2f}{statistics.median(walls[name]):8.2f}")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
