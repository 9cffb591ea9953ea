#!/usr/bin/env python3
"""plan_from.py - what `capture-window plan --from` costs on a long run.

  python3 bench/plan_from.py [--steps N] [--rounds R] [--baseline-cli DIR]

Writes the step times of N steps (default 1,000,000) of a job with
logging every 10 steps, an evaluation every 100 and a checkpoint every 250
on 1 % noise, in format 2 (what the runtime writes, records of 256 steps)
and in format 1 (text), then, R rounds (default 3) taking turns, runs each
in its own process and reports the median CPU time (user + system: on a
busy machine what the process itself cost), wall time and peak memory
(max RSS):

  split     a floor: a Python loop that only reads and splits each text line
  plan      capture-window plan --from FILE --json (this tree), format 2
  plan-text the same on the text file (format 1)
  baseline  the text file with the CLI of --baseline-cli DIR (e.g. the seed's
            cli/, which read only text), when given

Ratios are against `baseline` when given, else `split`, in the same run,
so a busy machine slows all alike. The numbers of docs/performance.md
("plan --from") come from it.
"""
import argparse
import os
import random
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SPLIT = ("import sys\nn = 0\nfor line in open(sys.argv[1], 'rb'):\n"
         "    n += len(line.split())\nprint(n)\n")


def write_job(text_path, records_path, n, seed=1):
    r = random.Random(seed)
    loop = b"loop 1 T4242 step train.cu:88\n"
    steps = []
    for i in range(n):
        ms = (20 if i == 0 else 1) * (1 + r.uniform(-0.01, 0.01))
        ms += sum(extra for every, extra in ((10, 0.33), (100, 10), (250, 49)) if i and i % every == 0)
        steps.append((i, int(ms * 1e6)))
    with open(text_path, "w") as f:
        f.write("# capture-window step times 1\n" + loop.decode())
        f.writelines(f"1 {i} {ns}\n" for i, ns in steps)
    with open(records_path, "wb") as f:
        f.write(b"# capture-window step times 2\n" + struct.pack("<qq", 1, -len(loop)) + loop)
        for k in range(0, n, 256):
            chunk = steps[k:k + 256]
            f.write(struct.pack(f"<qq{2 * len(chunk)}q", 1, len(chunk),
                                *[v for step in chunk for v in step]))


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
    text, records = os.path.join(folder, "steps.txt"), os.path.join(folder, "steps")
    write_job(text, records, args.steps)
    cli = os.path.join(HERE, "..", "cli", "capture-window")
    configs = {"split": [sys.executable, "-c", SPLIT, text],
               "plan": [sys.executable, cli, "plan", "--json", "--from", records],
               "plan-text": [sys.executable, cli, "plan", "--json", "--from", text]}
    if args.baseline_cli:
        configs["baseline"] = [sys.executable, os.path.join(args.baseline_cli, "capture-window"),
                               "plan", "--json", "--from", text]
    walls = {name: [] for name in configs}
    cpus = {name: [] for name in configs}
    peaks = {name: peak_rss(command) for name, command in configs.items()}
    for _ in range(args.rounds):
        for name, command in configs.items():
            wall, cpu = measure(command)
            walls[name].append(wall)
            cpus[name].append(cpu)
    against = "baseline" if args.baseline_cli else "split"
    floor = statistics.median(cpus[against])
    print(f"{args.steps:,} steps: format 2 {os.path.getsize(records) / 1e6:.1f} MB, text "
          f"{os.path.getsize(text) / 1e6:.1f} MB; {args.rounds} rounds (median)")
    print(f"{'':10}{'CPU s':>8}{'x ' + against:>11}{'wall s':>8}{'peak MB':>9}")
    for name in configs:
        cpu = statistics.median(cpus[name])
        print(f"{name:10}{cpu:8.2f}{cpu / floor:11.2f}{statistics.median(walls[name]):8.2f}"
              f"{peaks[name]:9.0f}")
    shutil.rmtree(folder)


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
