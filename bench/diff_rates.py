#!/usr/bin/env python3
"""diff_rates.py - the error rates of `capture-window diff` on generated
step-time files (issue 42; docs/where-to-cut.md, "Did my change help?").

  python3 bench/diff_rates.py [--pairs P] [--steps N] [--spread S]
                              [--effect E] [--seed K] [--check]
  python3 bench/diff_rates.py --program TRAIN_CPU [--pairs P] [--steps N]
                              [--extra PCT] [--runs K]

Writes P pairs of runs of N steps (default 100 pairs of 500 steps) as
step-time files and diffs each pair with diff's own code (steptimes'
reader, diffsteps, change), in this process:

  same     both runs drawn from one distribution: a verdict other than
           `same` is a false alarm
  slower   the new run E slower (default 0.03: 3 %), every step and event
           alike: `slower` is a find (the power)

A run: a warm-up of 10 steps (8x the step down to 1.5x), then steps whose
noise is an AR(1) series (phi 0.6: a slow stretch lasts) of Student-t
innovations (3 degrees of freedom: heavy tails), scaled so that the
steady spread (MAD over median, as plan states it) is S (default 0.01);
one step in a hundred 1.5-4x slower (sporadic); an evaluation every 20
steps (3x) and a checkpoint every 50 (6x). It prints the rates and how
often the 95 % interval holds the true change (its coverage). --check
exits 1 unless false alarms are at most 5 % and the power at least 95 %
(tests/diff's diff.rates runs it so).

--program TRAIN_CPU: the same rates on a real program, samples/train_cpu
built with the plugin: P pairs of plain runs of N steps (default 3000)
with CAPTURE_WINDOW_TIMES, and P pairs of a plain run against one with
TRAIN_EXTRA_WORK=PCT (default 3); each pair's runs one after the other,
or with --runs K, K runs a side interleaved (base, new, new, base, ...)
and diffed as two sets of files.
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
from capture_window_cli.diffsteps import steps_diff  # noqa: E402
from capture_window_cli.steptimes import read_times  # noqa: E402

STEP_NS = 10e6
PHI, DOF = 0.6, 3
EVENTS = ((20, 3.0), (50, 6.0))
WARMUP = 10
SPORADIC = 0.01


def student_t(r):
    return r.gauss(0, 1) / math.sqrt(r.gammavariate(DOF / 2, 2) / DOF)


def noise(r, n):
    x, out = 0.0, []
    for _ in range(n + 50):          # 50 steps to forget the start
        x = PHI * x + student_t(r)
        out.append(x)
    return out[50:]


def noise_scale(spread):
    """The factor that gives the AR(1) noise a MAD of SPREAD (of a step)."""
    xs = noise(random.Random(0), 50_000)
    m = sorted(xs)[len(xs) // 2]
    mad = sorted(abs(x - m) for x in xs)[len(xs) // 2]
    return spread / mad


def run(r, n, scale, factor):
    steps = []
    for i, z in enumerate(noise(r, n)):
        t = STEP_NS * (1 + scale * z)
        if i < WARMUP:
            t *= 8 - 6.5 * i / (WARMUP - 1)
        elif r.random() < SPORADIC:
            t *= r.uniform(1.5, 4)
        t *= max((x for every, x in EVENTS if i and i % every == 0), default=1)
        steps.append(max(1, round(t * factor)))
    return steps


def write(path, steps):
    with open(path, "w") as f:
        f.write("# capture-window step times 1\nloop 1 T1 step train.c:30\n")
        f.writelines(f"1 {i} {ns}\n" for i, ns in enumerate(steps))


def diff_pair(folder, k, base, new):
    paths = [os.path.join(folder, f"{k}.{side}") for side in ("base", "new")]
    write(paths[0], base)
    write(paths[1], new)
    found = steps_diff(read_times([paths[0]]), read_times([paths[1]]))
    return found.loops[0].steady


def program_pair(folder, program, steps, extra, runs):
    """Runs PROGRAM plain and with TRAIN_EXTRA_WORK=EXTRA (0: plain
    again), RUNS times each, interleaved (each round in the other order
    than the one before), and diffs the two sides: the steady change."""
    paths = {0: [], 1: []}
    for k in range(runs):
        for side in ((0, 1) if k % 2 == 0 else (1, 0)):
            path = os.path.join(folder, f"run{side}.{k}")
            env = {key: v for key, v in os.environ.items() if not key.startswith(("CAPTURE_WINDOW", "TRAIN_"))}
            env.update(CAPTURE_WINDOW="none", CAPTURE_WINDOW_TIMES=path)
            if side and extra:
                env["TRAIN_EXTRA_WORK"] = str(extra)
            subprocess.run([program, str(steps)], env=env, check=True, stdout=subprocess.DEVNULL)
            paths[side].append(path)
    found = steps_diff(read_times(paths[0]), read_times(paths[1]))
    return found.loops[0].steady


def programs(opts):
    verdicts = {"same": [], "slower": []}
    changes = {"same": [], "slower": []}
    with tempfile.TemporaryDirectory(prefix="cw-diff-runs-") as folder:
        for _ in range(opts.pairs):
            for kind, extra in (("same", 0), ("slower", opts.extra)):
                c = program_pair(folder, opts.program, opts.steps or 3000, extra, opts.runs)
                verdicts[kind].append(c.verdict)
                changes[kind].append(c.change)
    p = opts.pairs
    print(f"{os.path.basename(opts.program)}: {p} pairs of {opts.runs} run(s) a side of "
          f"{opts.steps or 3000} steps")
    print(f"false alarms: {sum(v != 'same' for v in verdicts['same'])} of {p} pairs of plain runs "
          f"not 'same' (changes {100 * min(changes['same']):+.1f}% to {100 * max(changes['same']):+.1f}%)")
    print(f"power: {sum(v == 'slower' for v in verdicts['slower'])} of {p} pairs with "
          f"TRAIN_EXTRA_WORK={opts.extra} found 'slower' (changes {100 * min(changes['slower']):+.1f}% "
          f"to {100 * max(changes['slower']):+.1f}%)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program")
    ap.add_argument("--extra", type=int, default=3)
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--steps", type=int)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--spread", type=float, default=0.01)
    ap.add_argument("--effect", type=float, default=0.03)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    opts = ap.parse_args()
    if opts.program:
        return programs(opts)
    opts.steps = opts.steps or 500
    r = random.Random(opts.seed)
    scale = noise_scale(opts.spread)
    verdicts = {"same": [], "slower": []}
    covered = {"same": 0, "slower": 0}
    started = time.process_time()
    with tempfile.TemporaryDirectory(prefix="cw-diff-rates-") as folder:
        for k in range(opts.pairs):
            base = run(r, opts.steps, scale, 1.0)
            for kind, factor in (("same", 1.0), ("slower", 1 + opts.effect)):
                c = diff_pair(folder, k, base, run(r, opts.steps, scale, factor))
                verdicts[kind].append(c.verdict)
                covered[kind] += c.low <= factor - 1 <= c.high
    cpu = time.process_time() - started
    p = opts.pairs
    alarms = sum(v != "same" for v in verdicts["same"])
    found = sum(v == "slower" for v in verdicts["slower"])
    print(f"runs of {opts.steps} steps, steady spread {100 * opts.spread:g}%, {p} pairs, seed {opts.seed}")
    print(f"false alarms: {alarms} of {p} pairs of one distribution not 'same'")
    print(f"power: {found} of {p} pairs {100 * opts.effect:g}% slower found 'slower'")
    print(f"coverage: the 95% interval holds the true change in {covered['same']} of {p} "
          f"(same) and {covered['slower']} of {p} ({100 * opts.effect:g}% slower) pairs")
    print(f"cpu: {cpu:.2f} s, {1000 * cpu / (2 * p):.1f} ms a diff")
    if opts.check and (alarms > 0.05 * p or found < 0.95 * p):
        print("FAIL: more than 5% false alarms or less than 95% power")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
