#!/usr/bin/env python3
"""report.py - the table of bench/run.sh from loop_bench's raw lines.

Reads lines "CONFIG PROCESS BODY VARIANT ROUND NS_PER_ITER" (timings) and
"CONFIG - BODY VARIANT ir INSTRUCTIONS_PER_ITER" (callgrind) on stdin and
prints, per configuration and body, the medians of:

  plain, marked, hand   ns per iteration
  marked - plain        overhead of the marked loop, median of the
                        per-round differences (same process, same round)
  hand - plain          overhead of the hand-written loop, likewise
  ratio                 (marked - plain) / (hand - plain)
  marked / plain        the median of the per-round ratios: what the
                        marked loop costs against the plain one measured
                        beside it (configurations compare by it)

and the same from instruction counts, which have no noise.
"""
import collections
import statistics
import sys

CONFIGS = {
    "off": "CAPTURE_WINDOW=off",
    "default": "default window, no tool",
    "tool": "default window, null NVTX tool",
    "window": "null NVTX tool, CAPTURE_WINDOW_STEPS=window",
    "times": "CAPTURE_WINDOW_TIMES=/dev/null, no tool",
    "watch": "CAPTURE_WINDOW_WATCH (no request), no tool",
    "signal": "CAPTURE_WINDOW_SIGNAL=USR1 (no signal), no tool",
}
TARGETS = {  # contract section 5, on the marked loop's overhead
    "off": ("<= 1 ns", lambda ov, hand: ov <= 1.0),
    "default": ("<= 5 ns", lambda ov, hand: ov <= 5.0),
    "tool": ("<= 2x hand", lambda ov, hand: ov <= 2.0 * hand),
    "window": ("<= 2x hand", lambda ov, hand: ov <= 2.0 * hand),
    "times": ("none (issue 18: one clock read)", None),
    "watch": ("as default (issue 41)", None),
    "signal": ("none", None),
}


def main():
    times = collections.defaultdict(dict)   # (config, body) -> {(proc, round): {variant: ns}}
    instructions = collections.defaultdict(dict)  # (config, body) -> {variant: ir}
    for line in sys.stdin:
        f = line.split()
        if len(f) != 6:
            continue
        config, proc, body, variant = f[:4]
        if f[4] == "ir":
            instructions[config, body][variant] = float(f[5])
        else:
            times[config, body].setdefault((proc, f[4]), {})[variant] = float(f[5])

    keys = [(c, b) for c in CONFIGS for b in ("small", "empty") if (c, b) in times]
    if keys:
        rounds = {k: len(times[k]) for k in keys}
        print(f"ns per iteration, medians over {min(rounds.values())}-"
              f"{max(rounds.values())} interleaved rounds")
        print("| configuration | body | plain | marked | hand | marked - plain "
              "| hand - plain | ratio to hand | marked / plain | target |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for k in keys:
            rows = [r for r in times[k].values() if {"plain", "marked", "hand"} <= r.keys()]
            med = {v: statistics.median(r[v] for r in rows) for v in ("plain", "marked", "hand")}
            ov = statistics.median(r["marked"] - r["plain"] for r in rows)
            hand = statistics.median(r["hand"] - r["plain"] for r in rows)
            to_plain = statistics.median(r["marked"] / r["plain"] for r in rows)
            goal, met = TARGETS[k[0]]
            print(f"| {CONFIGS[k[0]]} | {k[1]} | {med['plain']:.2f} | {med['marked']:.2f} "
                  f"| {med['hand']:.2f} | {ov:.2f} | {hand:.2f} | {ov / hand:.3f} | {to_plain:.3f} "
                  f"| {goal}{'' if met is None else ': met' if met(ov, hand) else ': MISSED'} |")

    keys = [(c, b) for c in CONFIGS for b in ("small", "empty") if (c, b) in instructions]
    if keys:
        print("\ninstructions per iteration (callgrind)")
        print("| configuration | body | plain | marked | hand | marked - plain "
              "| hand - plain | ratio to hand |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for k in keys:
            ir = instructions[k]
            ov, hand = ir["marked"] - ir["plain"], ir["hand"] - ir["plain"]
            print(f"| {CONFIGS[k[0]]} | {k[1]} | {ir['plain']:.1f} | {ir['marked']:.1f} "
                  f"| {ir['hand']:.1f} | {ov:.1f} | {hand:.1f} | {ov / hand:.3f} |")


if __name__ == "__main__":
    main()
