#!/usr/bin/env python3
"""Tests of `capture-window plan` and the step times it reads.

  plan_test.py analysis CAPTURE_WINDOW_COMMAND
      the analysis on synthetic step-time files: exact text and JSON
  plan_test.py programs CAPTURE_WINDOW_COMMAND SHAPES RECORDER FAKECUDA_DIR
      shapes.c (its step times have known shapes): what plan finds on the
      shapes' model (no noise), exactly, and on real runs, which must agree
      on the program's events; each suggestion (and each spike window) run
      under the NVTX recorder must capture what it claims; --from, --steps,
      the file CAPTURE_WINDOW_TIMES writes, a path that cannot be written
"""
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expect import expect, verdict  # noqa: E402
from tools import settings_line  # noqa: E402
CLEAN = ("CAPTURE_WINDOW", "CAPTURE_WINDOW_TIMES", "CAPTURE_WINDOW_LOOPS", "CAPTURE_WINDOW_STEPS",
         "CAPTURE_WINDOW_VERBOSE", "CAPTURE_WINDOW_SELFCHECK", "NVTX_INJECTION64_PATH", "RANK")


def environ(**extra):
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    env.update(extra)
    return env


def plan(cw, args, **env):
    p = subprocess.run([cw, "plan", *args], env=environ(**env), capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


# ---- synthetic files --------------------------------------------------------

def steps_file(path, loops):
    """loops: [(thread, label, place, [ns, ...])] -> a file of format 1 (text)."""
    with open(path, "w") as f:
        f.write("# capture-window step times 1\n")
        for k, (thread, label, place, times) in enumerate(loops, 1):
            f.write(f"loop {k} T{thread} {label} {place}\n")
        for k, (_, _, _, times) in enumerate(loops, 1):
            f.writelines(f"{k} {i} {ns}\n" for i, ns in enumerate(times))


def shape(n, warmup=0, slow=(), base=1_000_000):
    """Step times: warm-up steps of 10x..., a deterministic +-0.3 % ripple,
    slow: {index: factor}."""
    out = []
    for i in range(n):
        ns = base * (10 - 9 * i / warmup) if i < warmup else base * (1 + 0.003 * ((i * 7) % 3 - 1))
        out.append(int(ns * dict(slow).get(i, 1)))
    return out


def job(n, events, noise=0.003, seed=1):
    """Step times of a job: step 0 a 20x warm-up, 1 ms steps with a
    uniform noise of +-noise (seeded), and events [(every, extra ms)]: step
    i > 0 with i % every == 0 takes extra ms more (one step may hold
    several)."""
    r = random.Random(seed)
    out = []
    for i in range(n):
        ms = (20 if i == 0 else 1) * (1 + r.uniform(-noise, noise))
        out.append(int(1e6 * (ms + sum(extra for every, extra in events if i and i % every == 0))))
    return out


def job_cases(cw, f):
    """The shapes of issue 21: events that coincide, the last step, a
    small regular slowdown, a large event seen three times; and the
    guards: a burst of noise, sporadic outliers."""
    # Evaluation every 20 (+4.2 ms), a checkpoint every 30 (+121.9 ms), 101
    # steps; the last one evaluates and checkpoints.
    steps = job(101, [(20, 4.2), (30, 121.9)])
    steps[100] += 121_900_000
    steps_file(f, [(7, "step", "gpt2.cu:88", steps)])
    rc, out, err = plan(cw, ["--from", f])
    expect("jobs: evaluation every 20, checkpoint every 30, 100 steps (text)", (rc, out.splitlines()), (0, [
        "loop 'step' (gpt2.cu:88) thread 7: 101 iterations",
        "  warm-up: iteration 0 (steady from 1)",
        "  steady: median 1.00 ms, spread 0.1%: steady"
        " (a spread within 10%, no drift, no levels)",
        "  periodic: every 30 steps from 30: 122.9x slower (eval? checkpoint?); the last step too",
        "  periodic: every 20 steps from 20: 5.2x slower (eval? checkpoint?)",
        "  steps holding several events: 60 (every 30 and every 20), 100 (every 30 and every 20; "
        "the last step)",
        "  outliers: none",
        "  suggestions:",
        "    steady state: 3 steps after the warm-up, none slow: CAPTURE_WINDOW=1:3",
        "      CAPTURE_WINDOW=1:3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
        "--capture-range-end=stop -o report PROGRAM",
        "    every 30 steps from 30 (122.9x slower): the slow step and one on either side, 3 times, "
        "some holding another event too: CAPTURE_WINDOW=29:3/30x3",
        "      CAPTURE_WINDOW=29:3/30x3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
        "--capture-range-end=repeat:3 -o report PROGRAM",
        "    every 20 steps from 20 (5.2x slower): the slow step and one on either side, 3 times, "
        "some holding another event too: CAPTURE_WINDOW=19:3/20x3",
        "      CAPTURE_WINDOW=19:3/20x3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
        "--capture-range-end=repeat:3 -o report PROGRAM"]))
    rc, out, err = plan(cw, ["--json", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("jobs: the same, --json", (loop.get("periodic"), loop.get("coinciding"), loop.get("outliers")),
           ([{"every": 30, "phase": 0, "ratio": 122.9, "first": 30, "occurrences": 4, "last_step": True},
             {"every": 20, "phase": 0, "ratio": 5.2, "first": 20, "occurrences": 5, "last_step": False}],
            [{"step": 60, "every": [30, 20]}, {"step": 100, "every": [30, 20]}], []))

    def found(name, steps, want_periodic, want_coinciding, want_outliers=()):
        steps_file(f, [(7, "step", "gpt2.cu:88", steps)])
        rc, out, err = plan(cw, ["--json", "--from", f])
        loop = json.loads(out)["loops"][0] if rc == 0 else {"error": err}
        expect(f"jobs: {name}",
               ([(e["every"], e["phase"], e["ratio"], e["occurrences"]) for e in loop.get("periodic", [])],
                [c["step"] for c in loop.get("coinciding", [])], loop.get("outliers")),
               (want_periodic, want_coinciding, list(want_outliers)))
        return loop

    found("the same over 300 steps: every 30 and every 20, no 'every 60'",
          job(301, [(20, 4.2), (30, 121.9)]),
          [(30, 0, 122.9, 10), (20, 0, 5.2, 15)], [60, 120, 180, 240, 300])
    loop = found("1000 steps: logging every 10 (1.33x), evaluation every 100, checkpoint every 250",
                 job(1000, [(10, 0.33), (100, 10), (250, 49)], noise=0.01),
                 [(250, 0, 50.3, 3), (100, 0, 11.3, 9), (10, 0, 1.3, 99)],
                 sorted(set(range(100, 1000, 100)) | {250, 750}))
    expect("jobs: 1000 steps: step 500 holds all three",
           [c["every"] for c in loop.get("coinciding", []) if c["step"] == 500], [[250, 100, 10]])
    found("a 1.3x slowdown every 7 on 1% noise", job(200, [(7, 0.3)], noise=0.01), [(7, 0, 1.3, 28)], [])
    found("a 40x event seen three times", job(100, [(25, 39)], noise=0.01), [(25, 0, 40.0, 3)], [])
    burst = job(200, [], noise=0.01)
    r = random.Random(5)
    for i in range(80, 100):
        burst[i] = int(burst[i] * r.uniform(1.6, 6))
    found("guard: a burst of noise is no period", burst, [], [], range(80, 100))
    # A real run of samples/train_eval.c on a loaded 2-core machine: time
    # slices of 7x every few steps, in the evaluation's band; only the
    # evaluation (every 25) is a period.
    busy = os.path.join(os.path.dirname(os.path.abspath(__file__)), "busy_train_eval.steps")
    rc, out, err = plan(cw, ["--json", "--from", busy])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("guard: a busy machine's time slices lend no steps to a period",
           [(e["every"], e["phase"]) for e in loop.get("periodic", [])], [(25, 0)])
    sporadic = job(300, [], noise=0.01)
    for i in (17, 41, 58, 99, 133, 170, 204, 251, 263, 290):
        sporadic[i] = int(sporadic[i] * r.uniform(3, 9))
    found("guard: sporadic outliers are no period", sporadic, [], [],
          (17, 41, 58, 99, 133, 170, 204, 251, 263, 290))


def drifting(n, start_ms, end_ms, seed):
    """n steps whose time moves linearly from start_ms to end_ms, +-1 % (seeded)."""
    r = random.Random(seed)
    return [int(1e6 * (start_ms + (end_ms - start_ms) * i / (n - 1)) * r.uniform(0.99, 1.01))
            for i in range(n)]


def levelled(n, levels, seed, events=()):
    """n steps, each at a level (ms) drawn at random, +-1 % (seeded), and
    events [(every, extra ms)] as job() has them."""
    r = random.Random(seed)
    return [int(1e6 * (r.choice(levels) * r.uniform(0.99, 1.01)
                       + sum(extra for every, extra in events if i and i % every == 0)))
            for i in range(n)]


RULE = "steady is a spread within 10%, no drift, no levels"


def stopped(window):
    """The nsys line under a suggestion of one window, WINDOW (START:COUNT)."""
    return (f"      CAPTURE_WINDOW={window} nsys profile -t cuda,nvtx -c cudaProfilerApi "
            "--capture-range-end=stop -o report PROGRAM")


def steady_cases(cw, f):
    """Issue 31 item 3: no steady state, said so. Steps that drift have a
    slope; steps that jump among levels have the levels named; neither gets
    a steady window, but a window per level, or one at each end of the
    drift; steady is a stated spread."""
    def text(steps, n, steady):
        """plan's text on steps, and the lines it must begin with."""
        steps_file(f, [(7, "step", "train.c:42", steps)])
        rc, out, err = plan(cw, ["--from", f])
        return (rc, out.splitlines()), [f"loop 'step' (train.c:42) thread 7: {n} iterations",
                                        "  warm-up: none (steady from 0)",
                                        f"  steady: {steady}: not steady ({RULE})"]

    got, head = text(drifting(100, 10, 30, 1), 100, "median 20.0 ms, spread 26.0%")
    expect("steady: a drift from 10 to 30 ms over 100 steps (text)", got, (0, head + [
        "  drift: +203 us a step over the run (9.97 to 30.1 ms, steps 0-99): no steady state; "
        "a window at each end, to compare",
        "  outliers: none",
        "  suggestions:",
        "    the drift's start (10.3 ms steps): 3 steps, none slow, to compare: CAPTURE_WINDOW=0:3",
        stopped("0:3"),
        "    the drift's end (29.6 ms steps): 3 steps, none slow, to compare: CAPTURE_WINDOW=96:3",
        stopped("96:3")]))
    rc, out, err = plan(cw, ["--json", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("steady: the drift, --json",
           (loop.get("steady"), loop.get("drift"), loop.get("levels"),
            [s["env"] for s in loop.get("suggest", [])]),
           ({"median_ns": 19994364, "spread_pct": 26.0, "steady": False},
            {"ns_per_step": 202840.2, "from_ns": 9970292, "to_ns": 30051470}, None,
            ["CAPTURE_WINDOW=0:3", "CAPTURE_WINDOW=96:3"]))

    got, head = text(levelled(200, (6, 9, 14, 21), 2), 200, "median 9.08 ms, spread 34.5%")
    expect("steady: steps among 6, 9, 14 and 21 ms (text)", got, (0, head + [
        "  4 levels: 5.99, 9.00, 14.0, 21.0 ms: shapes change? no steady state; a window per level, "
        "and one that holds them all",
        "  outliers: none",
        "  suggestions:"] + [line for start, ms in ((49, "5.99"), (12, "9.00"), (132, "14.0"), (21, "21.0"))
                             for line in (
        f"    level {ms} ms: 3 steps in a row at it: CAPTURE_WINDOW={start}:3",
        stopped(f"{start}:3"))] + [
        "    every level in one window: the shortest run after the warm-up that holds all 4: "
        "CAPTURE_WINDOW=34:4",
        stopped("34:4")]))
    rc, out, err = plan(cw, ["--json", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("steady: the levels, --json (the 21 ms steps are a level, no outliers)",
           (loop.get("steady", {}).get("steady"), loop.get("drift"), loop.get("levels"),
            loop.get("outliers")),
           (False, None, [{"median_ns": 5986798, "steps": 53}, {"median_ns": 9004993, "steps": 54},
                          {"median_ns": 13976744, "steps": 40}, {"median_ns": 21000353, "steps": 53}],
            []))

    def verdict(name, steps, want):
        steps_file(f, [(7, "step", "train.c:42", steps)])
        rc, out, err = plan(cw, ["--json", "--from", f])
        loop = json.loads(out)["loops"][0] if rc == 0 else {}
        expect(f"steady: {name}",
               (loop.get("steady", {}).get("steady"), bool(loop.get("drift")),
                [round(lv["median_ns"] / 1e6, 1) for lv in loop.get("levels") or []],
                [(e["every"], e["phase"]) for e in loop.get("periodic", [])],
                [s["env"] for s in loop.get("suggest", [])]), want)

    verdict("levels and an evaluation every 50: both", levelled(300, (6, 9, 14, 21), 5, [(50, 200)]),
            (False, False, [6.0, 9.0, 14.0, 21.0], [(50, 0)],
             ["CAPTURE_WINDOW=173:3", "CAPTURE_WINDOW=6:3", "CAPTURE_WINDOW=73:3",
              "CAPTURE_WINDOW=155:3", "CAPTURE_WINDOW=51:4", "CAPTURE_WINDOW=49:3/50x3"]))
    verdict("a jump from 10 to 20 ms halfway: two levels",
            [int(x * (2 if i >= 100 else 1)) for i, x in enumerate(drifting(200, 10, 10, 6))],
            (False, False, [10.0, 20.0], [], ["CAPTURE_WINDOW=0:3", "CAPTURE_WINDOW=100:3",
                                              "CAPTURE_WINDOW=99:2"]))
    # Its first 46 steps are slow (25 ms over a median of 15 ms and a MAD
    # of 2.5 ms: 8 MADs are more than the slow margin, and they are slow
    # all the same): a warm-up.
    verdict("a drift down from 30 to 10 ms: its slow start a warm-up", drifting(200, 30, 10, 3),
            (False, True, [], [], ["CAPTURE_WINDOW=46:3", "CAPTURE_WINDOW=196:3"]))
    verdict("a drift of 10 % (10 to 11 ms): steady", drifting(200, 10, 11, 4),
            (True, False, [], [], ["CAPTURE_WINDOW=0:3"]))
    verdict("an evaluation every 25 on 1 ms steps: steady, with its period",
            job(200, [(25, 5)], noise=0.01), (True, False, [], [(25, 0)],
                                              ["CAPTURE_WINDOW=1:3", "CAPTURE_WINDOW=24:3/25x3"]))
    r = random.Random(7)
    verdict("noise of 20 % (lognormal), no shape: not steady, a longer window",
            [int(1e6 * r.lognormvariate(0, 0.2)) for i in range(200)],
            (False, False, [], [], ["CAPTURE_WINDOW=0:10"]))


def reader_cases(cw, tmp):
    """Every malformed line of a step-time file: FILE:LINE: the reason,
    exit 2; several files, a folder, a glob, --from repeated."""
    f = os.path.join(tmp, "bad")
    head = ["# capture-window step times 1", "loop 1 T7 step a.c:1", "1 0 1000", "1 1 1000"]
    for lines, line, reason in [
            (head + ["1 2 abc"], 5, "duration 'abc' is not a whole number >= 0"),
            (head + ["1 2 1.5"], 5, "duration '1.5' is not a whole number >= 0"),
            (head + ["1 2 1e6"], 5, "duration '1e6' is not a whole number >= 0"),
            (head + ["1 2 -100"], 5, "duration '-100' is not a whole number >= 0"),
            (head + ["1 2 123456789012345678901"], 5,
             "duration '123456789012345678901' has more than 18 digits"),
            (head + ["1 x 100"], 5, "step index 'x' is not a whole number >= 0"),
            (head + ["1 -1 100"], 5, "step index '-1' is not a whole number >= 0"),
            (head + ["1 1 1000"], 5, "step 1 of loop 1 again"),
            (head + ["1 0 1000"], 5, "step 0 of loop 1 after step 1"),
            (head + ["2 2 1000"], 5, "a step of loop 2, which no 'loop 2 ...' line before it defines"),
            (head + ["1 2"], 5, "not a step-times line: '1 2' (a step is 'ID INDEX NS', a loop "
                                "'loop ID T<THREAD> LABEL FILE:LINE')"),
            (head[:1] + ["loop 1 Tabc step a.c:1"], 2, "thread 'Tabc' is not T<NUMBER>"),
            (head[:1] + ["loop 1 T1 step a.c:xyz"], 2, "'a.c:xyz' is not FILE:LINE[@INSTANCE]"),
            (head[:1] + ["loop 1 T1 step"], 2, "a loop line is 'loop ID T<THREAD> LABEL FILE:LINE'"),
            (head[:2] + ["loop 1 T8 step a.c:1"], 3, "loop 1 is defined twice"),
            (["# capture-window step times 3"] + head[1:], 1,
             "step-times format version '3' is not known (capture-window reads versions 1 and 2)"),
            (head[1:], 1, "not a step-times file: its first line is not "
                          "'# capture-window step times VERSION'")]:
        with open(f, "w") as out:
            out.write("\n".join(lines) + "\n")
        expect(f"reader: {lines[line - 1]!r}", plan(cw, ["--from", f]),
               (2, "", f"capture-window: plan: {f}:{line}: {reason}\n"))
    # The same in a block of a thousand good lines: the bulk reader finds it too.
    with open(f, "w") as out:
        out.write("\n".join(head[:2] + [f"1 {i} 1000" for i in range(1000)] + ["1 999 1000"]) + "\n")
    expect("reader: a repeated step after 1000 good ones", plan(cw, ["--from", f]),
           (2, "", f"capture-window: plan: {f}:1003: step 999 of loop 1 again\n"))
    format2_cases(cw, f)
    open(f, "w").close()
    expect("reader: an empty file", plan(cw, ["--from", f]),
           (2, "", f"capture-window: plan: {f}:1: empty: not a step-times file\n"))

    # The per-process files of one run: each loop its own section, named.
    run = os.path.join(tmp, "run")
    os.makedirs(run)
    for pid, thread in ((101, 7), (102, 8)):
        steps_file(os.path.join(run, f"steps.{pid}"), [(thread, "step", "train.c:42", shape(30))])
    with open(os.path.join(run, "notes.txt"), "w") as out:
        out.write("not step times\n")
    files = [os.path.join(run, "steps.101"), os.path.join(run, "steps.102")]
    rc, out, err = plan(cw, ["--json", "--from", *files])
    want = (0, [(files[0], 7, 30), (files[1], 8, 30)])
    sections = lambda out: [(l["source"], l["thread"], l["iterations"]) for l in json.loads(out)["loops"]]
    expect("--from two files", (rc, sections(out) if rc == 0 else err), want)
    for name, args in [("--from twice", ["--from", files[0], "--from", files[1]]),
                       ("--from a quoted glob", ["--from", os.path.join(run, "steps.*")]),
                       ("--from a folder (its step-time files only)", ["--from", run])]:
        rc, out, err = plan(cw, ["--json", *args])
        expect(name, (rc, sections(out) if rc == 0 else err), want)
    rc, out, err = plan(cw, ["--from", *files])
    expect("--from two files: text names each file",
           [l for l in out.splitlines() if l.startswith("loop")],
           [f"loop 'step' (train.c:42) thread 7 in {files[0]}: 30 iterations",
            f"loop 'step' (train.c:42) thread 8 in {files[1]}: 30 iterations"])
    empty = os.path.join(tmp, "empty-dir")
    os.makedirs(empty)
    expect("--from a folder without step times", plan(cw, ["--from", empty]),
           (2, "", f"capture-window: plan: {empty}: a folder with no step-time file in it (no file "
                   "whose first line is '# capture-window step times ...')\n"))
    rc, out, err = plan(cw, ["--help"])
    expect("plan --help", (rc, out.splitlines()[0], err),
           (0, "usage: capture-window plan [OPTIONS] -- PROGRAM [ARG...]", ""))


def ranks_cases(cw, tmp):
    """plan over several ranks' files (issue 41 item 4): every file named,
    why one holds no step, the loop across the ranks with the ranks that
    differ (10 % slower, stopped early); one file of the header alone is
    not blamed on the build."""
    run = os.path.join(tmp, "ranks")
    os.makedirs(run)
    every25 = {i: 6 for i in range(25, 240, 25)}
    for rank, n, base in ((0, 240, 1_000_000), (1, 240, 1_100_000), (2, 175, 1_000_000), (3, 240, 1_000_000)):
        steps_file(os.path.join(run, f"steps.{rank}"), [(100 + rank, "step", "train.c:40",
                                                         shape(n, 2, every25, base))])
    with open(os.path.join(run, "steps.4"), "w") as out:
        out.write("# capture-window step times 2\n")   # a rank killed before its first flush
    open(os.path.join(run, "steps.5"), "w").close()
    with open(os.path.join(run, "steps.6"), "w") as out:
        out.write("rank 6's log\n")
    header_only = ("no steps, only the header: the process started the runtime but wrote no step (it "
                   "never completed a step of a marked loop, or it crashed or was killed before its "
                   "steps were written)")
    rc, out, err = plan(cw, ["--from", os.path.join(run, "steps.*")])
    f = lambda rank: os.path.join(run, f"steps.{rank}")  # noqa: E731
    expect("ranks: every file named, and the loop across the ranks", (rc, out.split("\n\n")[-2:], err), (0, [
        "\n".join([
            "step-time files: 7",
            f"  {f(0)}: 240 steps (1 loop)",
            f"  {f(1)}: 240 steps (1 loop)",
            f"  {f(2)}: 175 steps (1 loop)",
            f"  {f(3)}: 240 steps (1 loop)",
            f"  {f(4)}: {header_only}",
            f"  {f(5)}: empty: no header, so the runtime never wrote to it (a process killed as it "
            "started, or a file of something else)",
            f"  {f(6)}: not a step-times file: its first line is not '# capture-window step times VERSION'"]),
        "\n".join([
            "ranks of loop 'step' (train.c:40): 4 files",
            "  file" + " " * (len(f(0)) - 4) + "  iterations  steady median  warm-up end  periods",
            f"  {f(0)}  240         1.00 ms        2            every 25 (6.0x)",
            f"  {f(1)}  240         1.10 ms        2            every 25 (6.0x)",
            f"  {f(2)}  175         1.00 ms        2            every 25 (6.0x)",
            f"  {f(3)}  240         1.00 ms        2            every 25 (6.0x)",
            f"  {f(1)} is 10% slower (1.10 ms a step, the ranks' median 1.00 ms); {f(2)} stopped "
            "early, at step 174 (the others ran to 239)\n"])], ""))
    rc, out, err = plan(cw, ["--json", "--from", f(0), f(2), f(4)])
    found = json.loads(out) if rc == 0 else {}
    expect("ranks: --json", (rc, found.get("files"), found.get("ranks")), (0, [
        {"path": f(0), "loops": 1, "steps": 240, "why": None},
        {"path": f(2), "loops": 1, "steps": 175, "why": None},
        {"path": f(4), "loops": 0, "steps": 0, "why": "header_only"}], [
        {"label": "step", "place": "train.c:40", "median_ns": 1000000, "last": 239,
         "ranks": [{"source": f(0), "thread": 100, "iterations": 240, "last": 239, "median_ns": 1000000,
                    "warmup_end": 2, "periodic": [{"every": 25, "ratio": 6.0}]},
                   {"source": f(2), "thread": 102, "iterations": 175, "last": 174, "median_ns": 1000000,
                    "warmup_end": 2, "periodic": [{"every": 25, "ratio": 6.0}]}],
         "slower": [], "stopped_early": [{"source": f(2), "thread": 102, "last": 174}]}]))
    rc, out, err = plan(cw, ["--from", f(0), f(3)])
    expect("ranks: alike", out.split("\n\n")[-1].splitlines()[-1],
           "  alike: steady medians within 5% of 1.00 ms, every rank ran to step 239")
    threads = os.path.join(run, "threads")   # a rank whose loop ran in two threads
    steps_file(threads, [(1, "step", "train.c:40", shape(240, 2, every25)),
                         (2, "step", "train.c:40", shape(240, 2, every25, 1_200_000))])
    rc, out, err = plan(cw, ["--from", f(0), threads])
    expect("ranks: a file of two threads, each a row", (rc, out.split("\n\n")[-1].splitlines()[0:1]
                                                        + out.splitlines()[-1:]),
           (0, ["ranks of loop 'step' (train.c:40): 2 files, 3 threads",
                f"  {threads} thread 2 is 20% slower (1.20 ms a step, the ranks' median 1.00 ms)"]))
    # plan's own run: a file the runtime has created but not yet written is no error.
    late = ('f="${CAPTURE_WINDOW_TIMES%/*}/times.1"; : > "$f"; sleep 0.5; '
            'printf "# capture-window step times 1\\nloop 1 T1 step a.c:1\\n1 0 1000\\n" >> "$f"')
    rc, out, err = plan(cw, ["--steps", "5", "--", "sh", "-c", late])
    expect("run: a step file still empty while plan polls it", (rc, out.splitlines()[:1]),
           (0, ["loop 'step' (a.c:1) thread 1: 1 iteration"]))
    expect("ranks: one file of the header alone: why, not the build", plan(cw, ["--from", f(4)]),
           (1, "", f"capture-window: plan: {f(4)}: {header_only}\n"
                   "capture-window: plan: no step times in 1 file: nothing to plan\n"))


def format2(records):
    """records: [(ID, b"loop line\\n") or (ID, [(INDEX, NS), ...]) or raw bytes]."""
    out = [b"# capture-window step times 2\n"]
    for r in records:
        if isinstance(r, bytes):
            out.append(r)
        elif isinstance(r[1], bytes):
            out.append(struct.pack("<qq", r[0], -len(r[1])) + r[1])
        else:
            out.append(struct.pack(f"<qq{2 * len(r[1])}q", r[0], len(r[1]),
                                   *[v for step in r[1] for v in step]))
    return b"".join(out)


def format2_cases(cw, f):
    """Format 2 (what the runtime writes): what reads, the record cut short
    at the end, and each malformed record: FILE: byte N: the reason."""
    loop = (1, b"loop 1 T7 step a.c:1\n")
    steps = [(i, 1000 + i) for i in range(40)]
    start = 30 + 16 + len(loop[1])  # the second record's byte
    whole = format2([loop, (1, steps[:30]), (1, steps[30:])])
    killed = "as a run killed while writing leaves it"
    for name, tail, where in [
            ("in a steps record", struct.pack("<qq", 1, 5) + b"\0" * 24,
             "in record 4 (5 steps of loop 1: 40 of its 96 bytes)"),
            ("in a record's head", struct.pack("<q", 1) + b"\0\0",
             "in record 4 (its head: 10 of 16 bytes)"),
            ("in a loop record", struct.pack("<qq", 2, -21) + b"loop 2",
             "in record 4 (the text of loop 2: 22 of its 37 bytes)")]:
        with open(f, "wb") as out:
            out.write(whole + tail)
        rc, out, err = plan(cw, ["--json", "--from", f])
        expect(f"format 2: cut short {name}: the two records before it read, where it is cut said",
               (rc, json.loads(out)["loops"][0]["iterations"] if rc == 0 else None, err),
               (0, 40, f"capture-window: plan: {f}: cut short at byte {len(whole)}, {where}, {killed}; "
                       "the 40 steps before it (1 loop) are read\n"))
    with open(f, "wb") as out:
        out.write(format2([loop]) + struct.pack("<qq", 1, 30) + b"\0" * 100)
    expect("format 2: cut short in its first steps record: nothing to plan, and why",
           plan(cw, ["--from", f]),
           (1, "", f"capture-window: plan: {f}: cut short at byte {start}, in record 2 (30 steps of "
                   f"loop 1: 116 of its 496 bytes), {killed}; no whole step comes before it\n"
                   "capture-window: plan: no step times before the cut: nothing to plan\n"))
    for records, at, reason in [
            ([loop, (1, [])], start, "not a record: loop 1, 0 (a loop line of at most 65536 bytes, "
                                     "or 1 to 65536 steps)"),
            ([loop, (2, steps)], start, "steps of loop 2, which no loop record before them defines"),
            ([loop, (1, steps), (1, steps[39:])], start + 16 + 640, "step 39 of loop 1 again"),
            ([loop, (1, steps[:3] + steps[:1])], start, "step 0 of loop 1 after step 2"),
            ([loop, (1, [(0, -5)])], start, "a duration of loop 1 outside 0 to 10^18 ns: -5"),
            ([(1, b"loop 2 T7 step a.c:1\n")], 30, "loop 1's record does not hold "
                                                 "'loop 1 T<THREAD> LABEL FILE:LINE'"),
            ([(1, b"loop 1 T7 step a.c:1")], 30, "a loop record's text is one line, ended by a newline"),
            ([(1, b"loop 1 T7 step a.c:x\n")], 30, "'a.c:x' is not FILE:LINE[@INSTANCE]")]:
        with open(f, "wb") as out:
            out.write(format2(records))
        expect(f"format 2: {reason}", plan(cw, ["--from", f]),
               (2, "", f"capture-window: plan: {f}: byte {at}: {reason}\n"))


def entry_cases(cw, f):
    """Where the loop was left ('left ID INDEX', both formats): every
    suggested window fits inside one entry (the runtime closes a window
    whose loop is left: `window closed early, loop left`)."""
    slow = {i: 6 for i in range(25, 200, 25)}
    left = [49, 99, 149, 199]

    def write(times, ends, fmt=1):
        if fmt == 2:
            steps = [(i, ns) for i, ns in enumerate(times)]
            records = [(1, b"loop 1 T7 step inner.c:9\n")] + [
                r for k in range(0, len(steps), 50)
                for r in ((1, steps[k:k + 50]), (1, f"left 1 {k + 49}\n".encode()))
                if isinstance(r[1], list) or k + 49 in ends]
            with open(f, "wb") as out:
                out.write(format2(records))
            return
        steps_file(f, [(7, "step", "inner.c:9", times)])
        with open(f, "a") as out:
            out.writelines(f"left 1 {i}\n" for i in ends)

    def suggested():
        rc, out, err = plan(cw, ["--json", "--from", f])
        return rc, [(s["env"], s["why"]) for s in json.loads(out)["loops"][0]["suggest"]] if rc == 0 else err

    periodic = "every 25 steps from 25 (6.0x slower): the slow step and one on either side, 3 times"
    write(shape(200, 0, slow), [])
    expect("entries: none said: windows 25 apart", suggested(),
           (0, [("CAPTURE_WINDOW=0:3", "steady state: 3 steps after the warm-up, none slow"),
                ("CAPTURE_WINDOW=24:3/25x3", periodic)]))
    for fmt in (1, 2):
        write(shape(200, 0, slow), left, fmt)
        expect(f"entries of 50 (format {fmt}): the windows 50 apart, none across an entry's end",
               suggested(),
               (0, [("CAPTURE_WINDOW=0:3", "steady state: 3 steps after the warm-up, none slow"),
                    ("CAPTURE_WINDOW=24:3/50x3", periodic + ", 50 steps apart (each inside one "
                     "entry of the loop)")]))
    # A steady window that would span the end of an entry moves past it.
    write(shape(200, 50), left)
    expect("entries: the steady window moved inside one entry", suggested(),
           (0, [("CAPTURE_WINDOW=50:3", "steady state: 3 steps after the warm-up, none slow "
                 "(inside one entry: the loop was left after step 49)")]))
    steps_file(f, [(7, "step", "inner.c:9", [1000] * 5)])
    with open(f, "a") as out:
        out.write("left 2 3\n")
    expect("entries: a loop left that no line defines", plan(cw, ["--from", f]),
           (2, "", f"capture-window: plan: {f}:8: loop 2 left, which no loop line before it defines\n"))
    with open(f, "wb") as out:
        out.write(format2([(1, b"loop 1 T7 step a.c:1\n"), (1, b"left 2 3\n")]))
    expect("entries: format 2, a left record of another loop", plan(cw, ["--from", f]),
           (2, "", f"capture-window: plan: {f}: byte 67: loop 1's left record does not hold "
                   "'left 1 INDEX'\n"))


def analysis_cases(cw):
    tmp = tempfile.mkdtemp(prefix="cw-plan-test-")
    f = os.path.join(tmp, "steps")
    ranks_cases(cw, tmp)

    steps_file(f, [(7, "step", "train.c:42", shape(110, 10, {i: 6 for i in range(25, 110, 25)} | {37: 3}))])
    rc, out, err = plan(cw, ["--from", f])
    expect("analysis: warm-up, periodic, sporadic (text)", (rc, out.splitlines()), (0, [
        "loop 'step' (train.c:42) thread 7: 110 iterations",
        "  warm-up: iterations 0-9 (steady from 10)",
        "  steady: median 1.00 ms, spread 0.3%: steady"
        " (a spread within 10%, no drift, no levels)",
        "  periodic: every 25 steps from 25: 6.0x slower (eval? checkpoint?)",
        "  outliers: 37 (3.0x)",
        "  suggestions:",
        "    steady state: 3 steps after the warm-up, none slow: CAPTURE_WINDOW=10:3",
        "      CAPTURE_WINDOW=10:3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
        "--capture-range-end=stop -o report PROGRAM",
        "    every 25 steps from 25 (6.0x slower): the slow step and one on either side, 3 times: "
        "CAPTURE_WINDOW=24:3/25x3",
        "      CAPTURE_WINDOW=24:3/25x3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
        "--capture-range-end=repeat:3 -o report PROGRAM"]))

    rc, out, err = plan(cw, ["--json", "--from", f])
    expect("analysis: the same, --json", (rc, json.loads(out)), (0, {"loops": [{
        "label": "step", "file": "train.c", "line": 42, "instance": "", "thread": 7, "iterations": 110,
        "source": f, "warmup_end": 10, "steady": {"median_ns": 1000000, "spread_pct": 0.3, "steady": True},
        "drift": None, "levels": None,
        "periodic": [{"every": 25, "phase": 0, "ratio": 6.0, "first": 25, "occurrences": 4,
                      "last_step": False}],
        "coinciding": [], "outliers": [37],
        "suggest": [
            {"why": "steady state: 3 steps after the warm-up, none slow", "env": "CAPTURE_WINDOW=10:3",
             "nsys": "CAPTURE_WINDOW=10:3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
                     "--capture-range-end=stop -o report PROGRAM"},
            {"why": "every 25 steps from 25 (6.0x slower): the slow step and one on either side, "
                    "3 times", "env": "CAPTURE_WINDOW=24:3/25x3",
             "nsys": "CAPTURE_WINDOW=24:3/25x3 nsys profile -t cuda,nvtx -c cudaProfilerApi "
                     "--capture-range-end=repeat:3 -o report PROGRAM"}]}]}))

    # Two events of other periods and phases; a missed occurrence (step 90
    # not slow) still leaves 4 of 5 (80 %); the flat start has no warm-up.
    slow = {i: 4 for i in range(30, 200, 20) if i != 90} | {i: 2.5 for i in range(45, 200, 50)}
    steps_file(f, [(9, "step", "src/a b.c:7", shape(200, 0, slow))])
    rc, out, err = plan(cw, ["--json", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("analysis: two periodic events, a file name with a space",
           (loop.get("file"), loop.get("warmup_end"), loop.get("periodic"), loop.get("outliers"),
            [s["env"] for s in loop.get("suggest", [])]),
           ("src/a b.c", 0, [{"every": 20, "phase": 10, "ratio": 4.0, "first": 30, "occurrences": 8,
                              "last_step": False},
                             {"every": 50, "phase": 45, "ratio": 2.5, "first": 45, "occurrences": 4,
                              "last_step": False}], [],
            ["CAPTURE_WINDOW=0:3", "CAPTURE_WINDOW=29:3/20x3", "CAPTURE_WINDOW=44:3/50x3"]))

    job_cases(cw, f)
    steady_cases(cw, f)
    reader_cases(cw, tmp)
    entry_cases(cw, f)

    # --count 8: the steady window steps over the sporadic slow step at 16.
    steps_file(f, [(7, "step", "train.c:42", shape(60, 10, {16: 5}))])
    rc, out, err = plan(cw, ["--json", "--count", "8", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("analysis: --count 8 skips a slow step", (loop.get("outliers"), loop.get("suggest", [{}])[0]),
           ([16], {"why": "steady state: 8 steps after the warm-up, none slow",
                   "env": "CAPTURE_WINDOW=17:8",
                   "nsys": "CAPTURE_WINDOW=17:8 nsys profile -t cuda,nvtx -c cudaProfilerApi "
                           "--capture-range-end=stop -o report PROGRAM"}))

    # Every third step slow: windows back to back.
    steps_file(f, [(7, "step", "train.c:42", shape(40, 0, {i: 3 for i in range(2, 40, 3)}))])
    rc, out, err = plan(cw, ["--json", "--from", f])
    loop = json.loads(out)["loops"][0] if rc == 0 else {}
    expect("analysis: period 3", (loop.get("periodic"), [s["env"] for s in loop.get("suggest", [])]),
           ([{"every": 3, "phase": 2, "ratio": 3.0, "first": 2, "occurrences": 13, "last_step": False}],
            ["CAPTURE_WINDOW=1:3/3x3"]))
    expect("analysis: period 3, no steady state", plan(cw, ["--from", f])[1].splitlines()[-1],
           "  no steady state: no 3 steps in a row after the warm-up without a slow one")

    # Two loops (two threads of one, and another): each its own entry; the
    # suggestions name the loop.
    steps_file(f, [(7, "step", "train.c:42", shape(30)), (8, "step", "train.c:42", shape(30)),
                   (7, "eval", "/src/eval.c:9", shape(12, 2))])
    rc, out, err = plan(cw, ["--json", "--from", f])
    loops = json.loads(out)["loops"] if rc == 0 else []
    expect("analysis: several loops and threads",
           [(l["label"], l["thread"], l["iterations"], l["warmup_end"], l["suggest"][0]["nsys"])
            for l in loops],
           [("step", 7, 30, 0, "CAPTURE_WINDOW=0:3 CAPTURE_WINDOW_LOOPS=train.c:42 nsys profile -t "
             "cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -o report PROGRAM"),
            ("step", 8, 30, 0, "CAPTURE_WINDOW=0:3 CAPTURE_WINDOW_LOOPS=train.c:42 nsys profile -t "
             "cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -o report PROGRAM"),
            ("eval", 7, 12, 2, "CAPTURE_WINDOW=2:3 CAPTURE_WINDOW_LOOPS=eval.c:9 nsys profile -t "
             "cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -o report PROGRAM")])

    # Two instantiations of a template: one loop line, two names
    # (FILE:LINE@INSTANCE); the suggestions pick one, quoted for the shell.
    steps_file(f, [(7, "tmpl", "lt.cpp:10@tmpl<int>", shape(30)),
                   (7, "tmpl", "src/lt.cpp:10@pair<std::map<int,int>,long>", shape(30))])
    rc, out, err = plan(cw, ["--json", "--from", f])
    loops = json.loads(out)["loops"] if rc == 0 else []
    expect("analysis: template instantiations",
           [(l["file"], l["line"], l["instance"], l["suggest"][0]["nsys"].split(" nsys ")[0])
            for l in loops],
           [("lt.cpp", 10, "tmpl<int>", "CAPTURE_WINDOW=0:3 CAPTURE_WINDOW_LOOPS='lt.cpp:10@tmpl<int>'"),
            ("src/lt.cpp", 10, "pair<std::map<int,int>,long>",
             "CAPTURE_WINDOW=0:3 CAPTURE_WINDOW_LOOPS='lt.cpp:10@pair<std::map<int,int>,long>'")])
    expect("analysis: template instantiations, text",
           [l for l in plan(cw, ["--from", f])[1].splitlines() if l.startswith("loop")],
           ["loop 'tmpl' (lt.cpp:10@tmpl<int>) thread 7: 30 iterations",
            "loop 'tmpl' (src/lt.cpp:10@pair<std::map<int,int>,long>) thread 7: 30 iterations"])

    steps_file(f, [(7, "step", "train.c:42", [1000])])
    expect("analysis: one iteration, singular", plan(cw, ["--from", f])[:2], (0, "\n".join([
        "loop 'step' (train.c:42) thread 7: 1 iteration",
        "  warm-up: none (steady from 0)",
        "  steady: median 1.00 us, spread 0.0%: too few steps to judge, 12 needed (steady is a spread "
        "within 10%, no drift, no levels)",
        "  outliers: none",
        "  no steady state: no 3 steps in a row after the warm-up without a slow one"]) + "\n"))

    steps_file(f, [(7, "step", "train.c:42", [1000] * 20)])
    expect("analysis: --count 1, singular", plan(cw, ["--count", "1", "--from", f])[1].splitlines()[5],
           "    steady state: 1 step after the warm-up, none slow: CAPTURE_WINDOW=0:1")

    # A run killed mid-write leaves a cut last line: read up to it.
    steps_file(f, [(7, "step", "train.c:42", shape(30))])
    with open(f, "a") as out_file:
        out_file.write("1 30 10")
    rc, out, err = plan(cw, ["--json", "--from", f])
    expect("analysis: a cut last line", (rc, json.loads(out)["loops"][0]["iterations"] if rc == 0 else None, err),
           (0, 30, f"capture-window: plan: {f}: cut short at line 33 (no newline), as a run killed "
                   "while writing leaves it; the 30 steps before it (1 loop) are read\n"))
    with open(f, "a") as out_file:
        out_file.write("\nsomething else\n")
    expect("analysis: a line that is not a step", plan(cw, ["--from", f]),
           (2, "", f"capture-window: plan: {f}:34: not a step-times line: 'something else' (a step is "
            "'ID INDEX NS', a loop 'loop ID T<THREAD> LABEL FILE:LINE')\n"))
    steps_file(f, [])
    expect("analysis: no steps", plan(cw, ["--from", f])[:2], (1, ""))
    expect("analysis: no such file", plan(cw, ["--from", f + ".gone"]),
           (2, "", f"capture-window: plan: no such file: {f}.gone\n"))
    # --plot: the picture when matplotlib is there; without it (a
    # matplotlib that fails to import stands in for none installed) the
    # hint, and the report all the same.
    steps_file(f, [(7, "step", "train.c:42", shape(60, 10, {i: 6 for i in range(15, 60, 10)}))])
    picture = os.path.join(tmp, "steps.svg")
    rc, out, err = plan(cw, ["--plot", picture, "--from", f])
    try:
        import matplotlib  # noqa: F401
        expect("--plot writes an SVG", (rc, open(picture).read(200).startswith("<?xml"), out.count("\n")),
               (0, True, 10))
    except ImportError:
        print("SKIP: --plot writes an SVG (no matplotlib here)")
    # The log axis's labels: 1-2-5 of each decade, every digit's when
    # fewer than two of those fall inside, else matplotlib's own.
    sys.path.insert(0, os.path.dirname(cw))
    from capture_window_cli.plot import log_ticks
    for low, high, ticks in ((0.3, 30, [0.5, 1, 2, 5, 10, 20]), (0.9, 11, [1, 2, 5, 10]),
                             (0.9, 3.5, [1, 2]), (1.1, 4.5, [2, 3, 4]), (0.95, 1.6, None)):
        expect(f"--plot: the labels of a log axis from {low} to {high}", log_ticks(low, high), ticks)
    missing = os.path.join(tmp, "no-matplotlib")
    os.makedirs(missing, exist_ok=True)
    with open(os.path.join(missing, "matplotlib.py"), "w") as m:
        m.write("raise ImportError('no matplotlib')\n")
    # The hint names the Python that runs and what reaches it: apt's
    # package never shows in a venv made without --system-site-packages.
    base = os.path.realpath(sys.executable)
    for name, options, hint in (
            ("the system's Python", None, "{} has none: apt install python3-matplotlib (Debian, "
             "Ubuntu; for /usr/bin/python3) or pip install matplotlib"),
            ("a venv with the system's packages", ["--system-site-packages"], "{} has none: apt "
             "install python3-matplotlib (Debian, Ubuntu; for /usr/bin/python3) or pip install "
             "matplotlib"),
            ("a venv", [], "{} is a venv without the system's site-packages, where apt's "
             "python3-matplotlib never shows: pip install matplotlib in it, or run with a venv made "
             "with --system-site-packages, or with /usr/bin/python3 (apt install python3-matplotlib)")):
        python = base
        if options is not None:
            venv = os.path.join(tmp, "venv" + "".join(options))
            subprocess.run([base, "-m", "venv", "--without-pip", *options, venv], check=True)
            python = os.path.join(venv, "bin", "python")
        p = subprocess.run([python, cw, "plan", "--plot", os.path.join(tmp, "none.png"), "--from", f],
                           env=environ(PYTHONPATH=missing), capture_output=True, text=True, timeout=120)
        expect(f"--plot without matplotlib, {name}: the hint, the report, exit 0",
               (p.returncode, p.stdout == out, p.stderr, os.path.exists(os.path.join(tmp, "none.png"))),
               (0, True, "capture-window: plan: --plot needs matplotlib: " + hint.format(python) +
                "; no plot written\n", False))
    expect("usage: --plot FILE.pdf", plan(cw, ["--plot", "x.pdf", "--from", f])[:2], (2, ""))
    expect("usage: both --from and a program", plan(cw, ["--from", f, "--", "true"])[:2], (2, ""))
    expect("usage: --steps 0", plan(cw, ["--steps", "0", "--", "true"])[:2], (2, ""))


# ---- real programs ----------------------------------------------------------

def format2_records(path):
    """A file of format 2 (docs/environment.md), read here by its own words:
    -> (the first line, [(ID, loop line bytes) or (ID, [(INDEX, NS), ...])])."""
    data = open(path, "rb").read()
    first = data[:data.index(b"\n") + 1]
    pos, records = len(first), []
    while pos < len(data):
        ident, n = struct.unpack_from("<qq", data, pos)
        pos += 16
        if n < 0:
            records.append((ident, data[pos:pos - n]))
            pos -= n
        else:
            values = struct.unpack_from(f"<{2 * n}q", data, pos)
            records.append((ident, list(zip(values[0::2], values[1::2]))))
            pos += 16 * n
    return first, records


def slow_steps(name, n):
    """shapes.c's own slow steps after its warm-up (the program's truth)."""
    if name == "periodic":
        return {i for i in range(25, n, 25)}
    if name == "two":
        return {i for i in range(30, n, 20)} | {i for i in range(45, n, 50)}
    if name == "sporadic":
        return {37, 81} & set(range(n))
    if name == "coincide":
        return set(range(20, n, 20)) | set(range(30, n, 30)) | {n - 1}
    return set()


def captured(shapes, recorder, fakecuda, env, args):
    """The windows a run captures: the L#i indexes between each profiler
    start and stop of the NVTX recorder's record."""
    record = tempfile.mktemp(prefix="cw-plan-record-")
    subprocess.run([shapes, *args], env=environ(
        NVTX_INJECTION64_PATH=recorder, CW_RECORD=record, CAPTURE_WINDOW_STEPS="window",
        LD_LIBRARY_PATH=fakecuda, **env), capture_output=True, check=True, timeout=120)
    windows, current = [], None
    with open(record) as f:
        for line in f:
            if line.split()[1:] == ["profiler", "start"]:
                current = []
            elif line.split()[1:] == ["profiler", "stop"]:
                windows.append(current)
                current = None
            m = re.search(r" push ascii step#(\d+)$", line.rstrip())
            if m and current is not None:
                current.append(int(m.group(1)))
    os.unlink(record)
    return windows


def claims_hold(suggestion, windows, slow, warmup_end):
    """A steady suggestion: one window of consecutive steps after the
    warm-up, none slow. A periodic one: windows of three whose middle step
    is slow and whose sides are not."""
    count = int(re.match(r"CAPTURE_WINDOW=\d+:(\d+)", suggestion["env"]).group(1))
    if suggestion["why"].startswith("steady"):
        return (len(windows) == 1 and windows[0] == list(range(windows[0][0], windows[0][0] + count))
                and windows[0][0] >= warmup_end and not slow & set(windows[0]))
    times = sum(int(spec.rsplit("x", 1)[1]) if "x" in spec else 1
                for spec in suggestion["env"].split("=", 1)[1].split(","))
    return len(windows) == times and all(
        len(w) == 3 and w[1] in slow and w[0] not in slow and w[2] not in slow for w in windows)


def program_cases(cw, shapes, recorder, fakecuda):
    """What plan finds is decided on the shapes' own step times (shapes ...
    model: a file with no noise), exactly. The runs of the program, on a
    machine however busy, must then agree where the program decides: every
    event is 25 ms or more over 1 ms steps, so that a step the machine
    delays cannot join an event's band (a factor of 3) nor make an event's
    step faster. Events of the machine's own (far weaker) are its, not the
    program's, and are left aside by their ratio; no run is retried."""
    want = {"flat": [], "warmup": [], "sporadic": [],
            "periodic": [(25, 0)], "two": [(20, 10), (50, 45)], "coincide": [(30, 0), (20, 0)]}

    def model(name, n):
        with tempfile.NamedTemporaryFile("w", prefix="cw-plan-model-", delete=False) as f:
            subprocess.run([shapes, name, str(n), "model"], stdout=f, check=True, timeout=60)
        rc, out, err = plan(cw, ["--json", "--from", f.name])
        os.unlink(f.name)
        return json.loads(out)["loops"][0] if rc == 0 else {}

    def strong(loop, floor):
        """The loop's events in the program's bands: (every, phase)."""
        return [(e["every"], e["phase"]) for e in loop.get("periodic", []) if e["ratio"] >= floor]

    def shape_case(name, events):
        n = {"two": 220, "coincide": 101}.get(name, 120)
        m = model(name, n)
        want_w = 0 if name == "flat" else 10
        expect(f"programs: {name}: the model: periodic {events}, warm-up ends at {want_w}, outliers",
               ([(e["every"], e["phase"]) for e in m.get("periodic", [])], m.get("warmup_end"),
                m.get("outliers")), (events, want_w, [37, 81] if name == "sporadic" else []))
        if name == "coincide":
            expect("programs: coincide: the model: step 60 and the last step hold both events",
                   [(c["step"], c["every"]) for c in m.get("coinciding", [])],
                   [(60, [30, 20]), (100, [30, 20])])
        ratios = {(e["every"], e["phase"]): e["ratio"] for e in m.get("periodic", [])}
        floor = min(ratios.values(), default=40) / 3
        rc, out, err = plan(cw, ["--json", "--", shapes, name, str(n)])
        loop = json.loads(out)["loops"][0] if rc == 0 else {}
        w = loop.get("warmup_end", -1)
        expect(f"programs: {name}: the run: {n} iterations, the program's events {events}, warm-up "
               f"ends at {want_w} or a little later, every slow step reported",
               (rc, loop.get("iterations"), strong(loop, floor), want_w <= w <= want_w + 10,
                {i for i in slow_steps(name, n) if i >= w} - set(
                    i for e in loop.get("periodic", []) for i in range(e["phase"], n, e["every"]))
                <= set(loop.get("outliers", []))),
               (0, n, events, True, True))
        expect(f"programs: {name}: the run: ratios as slept (the model's, within a factor 1.5)",
               [ratios[k] / 1.5 <= e["ratio"] <= ratios[k] * 1.5 for e in loop.get("periodic", [])
                for k in [(e["every"], e["phase"])] if k in ratios], [True] * len(events))
        for s in m.get("suggest", []):
            env = dict([s["env"].split("=", 1)])
            windows = captured(shapes, recorder, fakecuda, env, [name, str(n)])
            expect(f"programs: {name}: {s['env']} captures what it claims ({s['why']})",
                   (claims_hold(s, windows, slow_steps(name, n), m["warmup_end"]), windows[:1]),
                   (True, windows[:1]))

    for name, events in want.items():
        shape_case(name, events)

    def spike_case(expect):
        # spike: each window three steps around a slow step, TIMES of them.
        windows = captured(shapes, recorder, fakecuda, {"CAPTURE_WINDOW": "spike:3x2"},
                           ["periodic", "250"])
        expect("programs: spike:3x2 opens two windows around slow steps",
               claims_hold({"why": "every", "env": "CAPTURE_WINDOW=0:3/25x2"}, windows,
                           slow_steps("periodic", 250), 0), True)
        # An evaluation every 20 and a checkpoint every 30: step 60 holds both,
        # and counts for the evaluation (it is at least as slow); at 80 the
        # evaluation has recurred three times, the window opens at 99 around
        # step 100 (the last, which evaluates and checkpoints).
        expect("programs: spike:3 on coinciding events opens before step 100",
               captured(shapes, recorder, fakecuda, {"CAPTURE_WINDOW": "spike:3"}, ["coincide", "101"]),
               [[99, 100]])
        p = subprocess.run([shapes, "coincide", "101"], capture_output=True, text=True, timeout=120,
                           env=environ(CAPTURE_WINDOW="spike:3", CAPTURE_WINDOW_VERBOSE="1"))
        spike_lines = [l for l in settings_line.without(p.stderr.splitlines(), True)
                       if "spike" in l]
        expect("programs: spike:3 on coinciding events: its verbose lines",
               [bool(re.fullmatch(want, line)) for want, line in zip([
                   r"capture_window: spike: loop 'step' \(\S*shapes\.c:\d+\) slow steps 20, 40, 60, 80: "
                   r"every 20 steps; window 99:3 armed, thread \d+",
                   r"capture_window: window opened \(spike\): loop 'step' \(\S*shapes\.c:\d+\) iteration 99, "
                   r"window 99:3, thread \d+"], spike_lines)] + [len(spike_lines)], [True, True, 2])
        expect("programs: spike:3 opens no window on sporadic steps",
               captured(shapes, recorder, fakecuda, {"CAPTURE_WINDOW": "spike:3"}, ["sporadic"]), [])

    spike_case(expect)

    def times_case(expect):
        # The file CAPTURE_WINDOW_TIMES writes, and plan --from reading it.
        tmp = tempfile.mkdtemp(prefix="cw-plan-times-")
        p = subprocess.run([shapes, "periodic", "110"], capture_output=True, text=True, env=environ(
            CAPTURE_WINDOW="none", CAPTURE_WINDOW_TIMES=os.path.join(tmp, "t.%r.%p"), RANK="3"))
        files = os.listdir(tmp)
        expect("times: one file, named after rank and pid", (p.returncode, p.stderr, files),
               (0, "", [f"t.3.{files[0].split('.')[-1]}"] if files else ["t.3.PID"]))
        first, records = format2_records(os.path.join(tmp, files[0])) if files else (b"", [])
        texts = [body for ident, body in records if isinstance(body, bytes)]
        loop_lines = [body for body in texts if body.startswith(b"loop ")]
        steps = [(ident, i) for ident, body in records if not isinstance(body, bytes) for i, _ in body]
        expect("times: format 2, its loop record, every step once in order (in records of 256), "
               "and where the loop was left",
               (first, len(loop_lines) == 1 and bool(re.fullmatch(
                   rb"loop 1 T\d+ step \S*shapes\.c:\d+\n", loop_lines[0])), steps,
                [len(body) for _, body in records[1:] if not isinstance(body, bytes)],
                [body for body in texts if not body.startswith(b"loop ")]),
               (b"# capture-window step times 2\n", True, [(1, i) for i in range(110)], [110],
                [b"left 1 109\n"]))
        # Nanoseconds, whatever the step clock: a step that sleeps 1 ms (40 ms)
        # takes at least that (less 1 %: the TSC's rate is measured), and a
        # 1 ms step's median is not 5 ms even on a busy machine.
        ns = {i: t for _, body in records[1:] if not isinstance(body, bytes) for i, t in body}
        plain = sorted(t for i, t in ns.items() if i >= 10 and i % 25)
        expect("times: in nanoseconds (sleeps of 1 ms and 40 ms)",
               (bool(plain) and plain[0] >= 990_000 and plain[len(plain) // 2] < 5_000_000,
                all(ns.get(i, 0) >= 39_600_000 for i in (25, 50, 75, 100))), (True, True))
        rc, out, err = plan(cw, ["--json", "--from", os.path.join(tmp, files[0])] if files else [])
        loop = json.loads(out)["loops"][0] if rc == 0 else {}
        expect("times: plan --from reads it (the program's event; the machine's, far weaker, aside)",
               [(e["every"], e["phase"]) for e in loop.get("periodic", []) if e["ratio"] >= 40 / 3],
               [(25, 0)])

    times_case(expect)

    def entries_case(expect):
        # A marked loop left every 50 steps: the step file says where, and
        # plan's window for the event every 25 steps fits inside one entry.
        tmp = tempfile.mkdtemp(prefix="cw-plan-entries-")
        path = os.path.join(tmp, "nested.steps")
        p = subprocess.run([shapes, "nested", "200"], capture_output=True, text=True,
                           env=environ(CAPTURE_WINDOW="none", CAPTURE_WINDOW_TIMES=path))
        _, records = format2_records(path) if p.returncode == 0 else (b"", [])
        expect("entries: the step file says the loop was left after steps 49, 99, 149 and 199",
               [body for _, body in records if isinstance(body, bytes) and body.startswith(b"left")],
               [b"left 1 %d\n" % i for i in (49, 99, 149, 199)])
        rc, out, err = plan(cw, ["--json", "--from", path])
        periodic = [s for s in (json.loads(out)["loops"][0]["suggest"] if rc == 0 else [])
                    if not s["why"].startswith("steady")]
        expect("entries: plan's windows for every 25 steps fit inside one entry",
               [s["env"] for s in periodic], ["CAPTURE_WINDOW=24:3/50x3"])
        if periodic:
            expect("entries: CAPTURE_WINDOW=24:3/50x3 captures three whole windows",
                   captured(shapes, recorder, fakecuda, {"CAPTURE_WINDOW": "24:3/50x3"},
                            ["nested", "200"]), [[24, 25, 26], [74, 75, 76], [124, 125, 126]])

    entries_case(expect)

    p = subprocess.run([shapes, "flat", "20"], capture_output=True, text=True, env=environ(
        CAPTURE_WINDOW_TIMES="/nonexistent/dir/steps"))
    expect("times: a path that cannot be written: one line, the run goes on",
           (p.returncode, p.stdout, p.stderr),
           (0, "shapes flat: 190\n", "capture_window: CAPTURE_WINDOW_TIMES: cannot write "
            "'/nonexistent/dir/steps' (No such file or directory); step times are not recorded\n"))

    # --steps: a program that never ends is stopped once 40 steps are in.
    def endless_case(expect):
        rc, out, err = plan(cw, ["--json", "--steps", "40", "--", shapes, "periodic", "0"])
        loop = json.loads(out)["loops"][0] if rc == 0 else {}
        expect("plan --steps 40 stops an endless loop",
               (rc, loop.get("iterations"),
                [(e["every"], e["phase"]) for e in loop.get("periodic", []) if e["ratio"] >= 40 / 3]),
               (0, 40, []))

    endless_case(expect)
    rc, out, err = plan(cw, ["--", shapes, "flat", "5"])
    expect("plan: the program's output goes to stderr", (rc, "shapes flat: 10" in err,
                                                         out.startswith("loop 'step'")), (0, True, True))


def main():
    if sys.argv[1] == "analysis":
        analysis_cases(sys.argv[2])
    else:
        program_cases(*sys.argv[2:6])
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
