#!/usr/bin/env python3
"""plan_from.py - what `capture-window plan --from` costs on a long run.

  python3 bench/plan_from.py [--steps N] [--rounds R] [--baseline-cli DIR]

Writes a step-time file of N steps (default 1,000,000) of a job with
logging every 10 steps, an evaluation every 100 and a checkpoint every 250
on 1 % noise, then, R rounds (default 3) taking turns, runs each in its
own process and reports the median CPU time (user + system: on a busy
machine what the process itself cost), wall time and peak memory (max RSS):

  split     the floor: a Python loop that only reads and splits each line
  plan      capture-window plan --from FILE --json (this tree)
  baseline  the same with the CLI of --baseline-cli DIR (e.g. an older
            checkout's cli/), when given

Ratios are against `split`, in the same run, so a busy machine slows all
alike. The numbers of docs/performance.md ("plan --from") come from it.
"""
import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPLIT = ("import sys\nn = 0\nfor line in open(sys.argv[1], 'rb'):\n"
         "    n += len(line.split())\nprint(n)\n")


def write_job(path, n):
    r = random.Random(1)
    with open(path, "w") as f:
        f.write("# capture-window step times 1\nloop 1 T4242 step train.cu:88\n")
        for i in range(n):
            ms = (20 if i == 0 else 1) * (1 + r.uniform(-0.01, 0.01))
            ms += sum(extra for every, extra in ((10, 0.33), (100, 10), (250, 49)) if i and i % every == 0)
            f.write(f"1 {i} {int(ms * 1e6)}\n")


def measure(command):
    """(wall seconds, CPU seconds) of one process: on a busy machine the
    CPU time (user + system) is what the process itself cost."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--baseline-cli")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="cw-bench-plan-")
    path = os.path.join(folder, "steps")
    write_job(path, args.steps)
    configs = {"split": [sys.executable, "-c", SPLIT, path],
               "plan": [sys.executable, os.path.join(HERE, "..", "cli", "capture-window"),
                        "plan", "--json", "--from", path]}
    if args.baseline_cli:
        configs["baseline"] = [sys.executable, os.path.join(args.baseline_cli, "capture-window"),
                               "plan", "--json", "--from", path]
    walls = {name: [] for name in configs}
    cpus = {name: [] for name in configs}
    peaks = {name: peak_rss(command) for name, command in configs.items()}
    for _ in range(args.rounds):
        for name, command in configs.items():
            wall, cpu = measure(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    floor = statistics.median(cpus["split"])
    print(f"{args.steps:,} steps, {os.path.getsize(path) / 1e6:.1f} MB, {args.rounds} rounds (median)")
    print(f"{'':10}{'CPU s':>8}{'x split':>9}{'wall s':>8}{'peak MB':>9}")
    for name in configs:
        cpu = statistics.median(cpus[name])
        print(f"{name:10}{cpu:8.2f}{cpu / floor:9.2f}{statistics.median(walls[name]):8.2f}"
              f"{peaks[name]:9.0f}")


def peak_rss(command):
    """Peak RSS (MB) of the command, measured in a fresh child of its own."""
    probe = ("import resource, subprocess, sys\n"
             "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", probe, *command], check=True,
                         capture_output=True, text=True).stdout
    return int(out) / 1024


if __name__ == "__main__":
    main()
