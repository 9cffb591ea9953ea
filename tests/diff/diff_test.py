#!/usr/bin/env python3
"""Tests of `capture-window diff` (issue 42).

  diff_test.py fixtures CAPTURE_WINDOW_COMMAND
      seeded generated step-time files: the exact text and JSON, the gate's
      exit status, ranks pooled, loops matched by label, bad input (exit 2)
  diff_test.py reports CAPTURE_WINDOW_COMMAND
      SQLite exports built as tests/cli/make_fixtures.py builds them: the
      window step by step, kernels and the program's ranges compared, the
      kernel slower among the same kernels flagged, steps pooled where the
      numbers differ, kernels on one side only, exact text and JSON
  diff_test.py programs CAPTURE_WINDOW_COMMAND TRAIN_CPU
      samples/train_cpu built with the plugin, run with CAPTURE_WINDOW_TIMES:
      two runs with TRAIN_EXTRA_WORK=2000 are `same`, one with 3000 `slower`
"""
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expect import expect, verdict  # noqa: E402


def environ(**extra):
    """This environment less the runtime's and the samples' variables, plus EXTRA."""
    e = {k: v for k, v in os.environ.items() if not k.startswith(("CAPTURE_WINDOW", "TRAIN_"))}
    e.update(extra)
    return e


def diff(cw, *args):
    p = subprocess.run([cw, "diff", *args], env=environ(), capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


# ---- fixtures ---------------------------------------------------------------

def steps(seed, n, step_ms, warmup, events):
    """N step times (ns): WARMUP steps 4x the step, then the step on an AR(1)
    noise of 1 % (phi 0.5), EVENTS [(every, ms)] on their grids from 0."""
    r = random.Random(seed)
    x, out = 0.0, []
    for i in range(n):
        x = 0.5 * x + r.gauss(0, 0.01)
        t = step_ms * (4 if i < warmup else 1 + x)
        for every, ms in events:
            if i and i % every == 0:
                t = ms * (1 + x)
        out.append(round(t * 1e6))
    return out


def write(path, loops):
    """loops: [(label, place, times)] -> a file of format 1, one thread."""
    with open(path, "w") as f:
        f.write("# capture-window step times 1\n")
        for k, (label, place, _) in enumerate(loops, 1):
            f.write(f"loop {k} T{100 + k} {label} {place}\n")
        for k, (_, _, times) in enumerate(loops, 1):
            f.writelines(f"{k} {i} {ns}\n" for i, ns in enumerate(times))


TEXT = """\
loop 'step' (train.c:30 -> train.c:34): 300 steps -> 300 steps
  steady step: 50.1 ms -> 51.9 ms, +3.5% (95% interval +3.3% to +3.8%): slower
  warm-up: 8 steps -> 5 steps
  every 20: 182 ms -> 94.6 ms

loop 'eval' (train.c:50): in the base run only"""

RANKS = """\
loop 'step' (train.c:30): 600 steps in 2 series -> 600 steps in 2 series
  steady step: 50.1 ms -> 50.1 ms, +0.1% (95% interval -0.2% to +0.3%): same
  warm-up: 8 steps -> 8 steps
  every 20: 180 ms -> 180 ms"""


def fixtures(cw):
    with tempfile.TemporaryDirectory(prefix="cw-diff-") as d:
        base, new = os.path.join(d, "base.steps"), os.path.join(d, "new.steps")
        write(base, [("step", "train.c:30", steps(1, 300, 50, 8, [(20, 180)])),
                     ("eval", "train.c:50", steps(2, 40, 5, 0, []))])
        # the loop moved 4 lines down; 4 % slower (3.5 % as drawn), its evaluation faster, a shorter warm-up
        write(new, [("step", "train.c:34", steps(3, 300, 52, 5, [(20, 95)]))])
        rc, out, err = diff(cw, base, new)
        expect("text: steady step, warm-up, event matched, a loop in one run only",
               (rc, out, err), (0, TEXT + "\n", ""))
        rc, out, err = diff(cw, "--json", base, new)
        j = json.loads(out) if rc == 0 else {}
        expect("json: steady is the first loop's, fractions",
               (rc, {k: j.get("steady", {}).get(k) for k in ("change", "low", "high", "verdict")}),
               (0, {"change": 0.035433, "low": 0.032925, "high": 0.038445, "verdict": "slower"}))
        expect("json: the medians in ms, the events",
               (round(j["steady"]["base_ms"], 3), round(j["steady"]["new_ms"], 3),
                [(e["every"], round(e["base_ms"]), round(e["new_ms"])) for e in j["loops"][0]["periodic"]],
                j["loops"][0]["warmup"], j["only_base"]),
               (50.14, 51.916, [(20, 182, 95)], {"base": 8, "new": 5},
                [{"label": "eval", "place": "train.c:50"}]))
        expect("gate: 3.5 % slower, --fail-if-slower 3 fails with why",
               diff(cw, "--fail-if-slower", "3", base, new)[0::2],
               (1, "capture-window: diff: loop 'step' is +3.5% slower, at least +3.3% (95%): "
                   "more than --fail-if-slower 3%\n"))
        expect("gate: not confidently more than 4 %: passes",
               diff(cw, "--fail-if-slower=4", base, new)[0::2], (0, ""))
        expect("gate: the other way round (faster) passes",
               diff(cw, "--fail-if-slower", "0", new, base)[0::2], (0, ""))

        # ranks: a folder of a file per rank on each side, one distribution
        for side, seeds in (("a", (11, 12)), ("b", (13, 14))):
            os.mkdir(os.path.join(d, side))
            for rank, seed in enumerate(seeds):
                write(os.path.join(d, side, f"times.{rank}"),
                      [("step", "train.c:30", steps(seed, 300, 50, 8, [(20, 180)]))])
        rc, out, err = diff(cw, os.path.join(d, "a"), os.path.join(d, "b"))
        expect("ranks: a folder a side, the series pooled: same", (rc, out, err), (0, RANKS + "\n", ""))
        rc, out, err = diff(cw, os.path.join(d, "a", "times.*"), os.path.join(d, "b", "times.0"))
        expect("ranks: a quoted glob against one file", (rc, out.splitlines()[0]),
               (0, "loop 'step' (train.c:30): 600 steps in 2 series -> 300 steps"))

        # bad input: exit 2, what is wrong
        text_file = os.path.join(d, "notes.txt")
        with open(text_file, "w") as f:
            f.write("hello\n")
        other = os.path.join(d, "other.steps")
        write(other, [("train", "x.c:1", steps(5, 50, 1, 0, []))])
        for name, args, message in (
                ("one run", [base], "capture-window: diff: give two runs, BASE and NEW (each a "
                 f"step-time file, a folder of them or a quoted glob), got 1: {base}"),
                ("no such file", [base, os.path.join(d, "nope")],
                 f"no such file: {os.path.join(d, 'nope')}"),
                ("not a step-time file", [base, text_file],
                 f"{text_file}:1: not a step-times file: its first line is not "
                 "'# capture-window step times VERSION'"),
                ("no loop in both", [base, other],
                 "capture-window: diff: no marked loop is in both runs (base: eval, step; new: train)"),
                ("bad percentage", ["--fail-if-slower", "x", base, new],
                 "capture-window: diff: --fail-if-slower takes a percentage >= 0 (5 for 5 %), got 'x'"),
                ("unknown option", ["--fast", base, new],
                 "capture-window: diff: unknown option '--fast' (--help lists them)")):
            rc, out, err = diff(cw, *args)
            expect(f"bad input: {name}: exit 2, says what", (rc, out, message in err), (2, "", True))
            if message not in err:
                print("  stderr:", err)


# ---- reports ----------------------------------------------------------------

CLI_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli")
FAKE_NSYS = os.path.join(CLI_TESTS, "fake-nsys")
sys.path.insert(0, CLI_TESTS)
from make_fixtures import FILL, FORWARD, GEMM, TAG, Report  # noqa: E402


COPY_TABLES = {  # nsys's columns that gpuwork.py reads (make_fixtures.py has no copies)
    "CUPTI_ACTIVITY_KIND_MEMCPY": "start INTEGER NOT NULL, end INTEGER NOT NULL, "
                                  "correlationId INTEGER, globalPid INTEGER, copyKind INTEGER",
    "CUPTI_ACTIVITY_KIND_MEMSET": "start INTEGER NOT NULL, end INTEGER NOT NULL, "
                                  "correlationId INTEGER, globalPid INTEGER"}


def report(path, steps, gemm_ns, extra=None, seed=1, host_ns=1_000_000, copy_ns=10_000):
    """A window of STEPS, each: a 'forward' range launching 16 gemm kernels
    of about GEMM_NS (+-1 %), a 'backward' range launching 32 fill kernels
    of about 1 us; EXTRA(i, thread) adds to step i; HOST_NS of host work;
    then a copy to the host of COPY_NS and a memset of 2 us."""
    r, rep = random.Random(seed), Report(4100)
    t = rep.thread(101)
    copies = {"CUPTI_ACTIVITY_KIND_MEMCPY": [], "CUPTI_ACTIVITY_KIND_MEMSET": []}
    with t.range("step", registered=True):
        for i in steps:
            with t.range(f"step#{i}"):
                with t.range("forward"):
                    for _ in range(16):
                        t.launch(GEMM, 1, round(gemm_ns * r.uniform(0.99, 1.01)))
                with t.range(f"backward {i}"):
                    for _ in range(32):
                        t.launch(FILL, 1, round(1000 * r.uniform(0.99, 1.01)))
                if extra:
                    extra(i, t)
                t.tick(host_ns)
                for table, ns, kind in (("CUPTI_ACTIVITY_KIND_MEMCPY", copy_ns, [2]),
                                        ("CUPTI_ACTIVITY_KIND_MEMSET", 2000, [])):
                    correlation = t.call("cudaMemcpyAsync_v3020")
                    start = rep.gpu_clock + 1000
                    rep.gpu_clock = start + ns
                    copies[table].append((start, start + ns, correlation, 4100 << 24, *kind))
    rep.write(path)
    db = sqlite3.connect(path)
    for table, columns in COPY_TABLES.items():
        db.execute(f"CREATE TABLE {table} ({columns})")
        db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(copies[table][0]))})",
                       copies[table])
    db.commit()
    db.close()


REPORTS = """\
loop 'step': 3 steps (30-32) -> 3 steps (30-32): step k against step k
  step: 1.08 ms -> 1.08 ms, +0.0% (95% interval +0.0% to +0.0%): same
  kernels, by the time a step they gained or lost (the steps' kernels alike on both sides):
    Kernel2: 32.0 us -> 38.4 us a step (16 -> 16 a step), each +19.9% (95% interval +19.7% to +20.4%): slower: flagged, slower while the steps' kernels stayed the same
    vectorized_elementwise_kernel: 32.0 us -> 32.0 us a step (32 -> 32 a step), each +0.1% (95% interval -0.2% to +0.4%): same
  the program's own ranges:
    backward N: 49.0 us -> 49.0 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same
    forward: 25.0 us -> 25.0 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same
  memory copies, memsets and GPU idle time:
    GPU idle: 11.5 us -> 5.07 us a step (1 -> 1 a step), each -56.5% (95% interval -56.8% to -54.6%): faster
    memcpy DtoH: 10.0 us -> 12.0 us a step (1 -> 1 a step), each +20.0% (95% interval +20.0% to +20.0%): slower
    memset: 2.00 us -> 2.00 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same"""

POOLED = """\
loop 'step': 3 steps (30-32) -> 2 steps (40,42): the steady steps pooled
  step: 1.08 ms -> 1.18 ms, +9.4% (95% interval +9.4% to +9.4%): slower
  kernels, by the time a step they gained or lost:
    Kernel2: 32.0 us -> 38.4 us a step (16 -> 16 a step), each +20.0% (95% interval +19.7% to +20.3%): slower
    tag: in the new run only (1 a step, 3.00 us a step)
    vectorized_elementwise_kernel: 32.0 us -> 32.0 us a step (32 -> 32 a step), each +0.2% (95% interval -0.2% to +0.4%): same
  the program's own ranges:
    backward N: 49.0 us -> 49.0 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same
    forward: 25.0 us -> 25.0 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same
  memory copies, memsets and GPU idle time:
    GPU idle: 11.5 us -> 6.58 us a step (1 -> 1 a step), each -42.9% (95% interval -43.2% to -42.3%): faster
    memcpy DtoH: 10.0 us -> 10.0 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same
    memset: 2.00 us -> 2.00 us a step (1 -> 1 a step), each +0.0% (95% interval +0.0% to +0.0%): same"""


def reports(cw):
    with tempfile.TemporaryDirectory(prefix="cw-diff-reports-") as d:
        base, slower = os.path.join(d, "base.sqlite"), os.path.join(d, "slower.sqlite")
        report(base, range(30, 33), 2000, seed=1)
        report(slower, range(30, 33), 2400, seed=2, copy_ns=12_000)
        rc, out, err = diff(cw, base, slower)
        expect("reports: step by step, gemm 20 % slower among the same kernels: flagged",
               (rc, out, err), (0, REPORTS + "\n", ""))
        rc, out, err = diff(cw, "--json", base, slower)
        expect("reports: json gpu, the copies, memsets and GPU idle time a step",
               [(g["name"], g["base_step_ns"], g["new_step_ns"], g["verdict"])
                for g in json.loads(out)["gpu"]] if rc == 0 else err,
               [("GPU idle", 11514.666666666666, 5072.0, "faster"),
                ("memcpy DtoH", 10_000, 12_000, "slower"), ("memset", 2000, 2000, "same")])
        # steps 40-42 of another rank: a tag kernel each step, step 41 evaluates
        # (a forward kernel of 50 us), host work 10 % longer
        def evaluate(i, t):
            t.launch(TAG, 1, 3000)
            if i == 41:
                t.launch(FORWARD, 1, 50_000)
        other = os.path.join(d, "rank3.sqlite")
        report(other, range(40, 43), 2400, evaluate, seed=3, host_ns=1_100_000)
        rc, out, err = diff(cw, base, other)
        expect("reports: rank against rank, other step numbers: the steady steps pooled, "
               "a kernel of one side named, no flag", (rc, out, err), (0, POOLED + "\n", ""))
        rc, out, err = diff(cw, "--json", base, other)
        j = json.loads(out) if rc == 0 else {}
        keys = ("name", "base_ns", "new_ns", "change", "low", "high", "verdict", "flagged")
        expect("reports: json kernels, largest change first",
               [[k.get(key) for key in keys] for k in j.get("kernels", [])],
               [[GEMM[0], 2001.5, 2401.0, 0.1996, 0.196856, 0.202729, "slower", False],
                [TAG[0], None, 3000, None, None, None, None, False],
                [FILL[0], 999.0, 1000.5, 0.001502, -0.001998, 0.004008, "same", False]])
        expect("reports: json steady (the steps) and what was compared",
               (j["steady"]["change"], j["steady"]["verdict"], j["steps"], j["same_kernels"]),
               (0.093981, "slower", {"base": [30, 31, 32], "new": [40, 42], "aligned": False}, False))
        expect("reports: --fail-if-slower 5: every new step more than 9 % slower",
               diff(cw, "--fail-if-slower", "5", base, other)[0::2],
               (1, "capture-window: diff: loop 'step' is +9.4% slower, at least +9.4% (95%): "
                   "more than --fail-if-slower 5%\n"))
        expect("reports: --label names no loop in them: exit 2, why",
               diff(cw, "--label", "train", base, other)[0::2],
               (2, f"capture-window: diff: {base}: no train#i ranges (was the program built with "
                   "the capture-window plugin and nsys run with -t nvtx; is the loop's label "
                   "'train' (--label)?)\n"))
        # .nsys-rep: exported with NSYS (tests/cli's fake-nsys serves its fixtures by name)
        for name in ("kernel_slower@4100", "kernel_slower@4200"):
            with open(os.path.join(d, name.split("@")[1] + ".nsys-rep"), "w") as f:
                f.write(f"fixture={name}\n")
        p = subprocess.run([cw, "diff", "--json", os.path.join(d, "4100.nsys-rep"),
                            os.path.join(d, "4200.nsys-rep")], capture_output=True, text=True,
                           env=environ(NSYS=FAKE_NSYS), timeout=120)
        j = json.loads(p.stdout) if p.returncode == 0 else {}
        expect("reports: two .nsys-rep (two processes: rank against rank), exported with nsys",
               (p.returncode, j.get("steps"), [(k["name"], k["verdict"]) for k in j.get("kernels", [])]),
               (0, {"base": [30, 31, 32], "new": [30, 31, 32], "aligned": True},
                [("backward(float *, int)", "same"), (FORWARD[0], "same")]))
        # a side of several reports, one per rank (a quoted glob): pooled, named
        for rank in (0, 1):
            report(os.path.join(d, f"ranks.{rank}.sqlite"), range(30, 33), 2000, seed=4 + rank)
            report(os.path.join(d, f"ranks_slower.{rank}.sqlite"), range(30, 33), 2400, seed=6 + rank)
        both = [os.path.join(d, f"{name}.*.sqlite") for name in ("ranks", "ranks_slower")]
        rc, out, err = diff(cw, *both)
        expect("reports: a glob of two ranks' reports a side: step k against step k, all pooled",
               (rc, out.splitlines()[:1], err),
               (0, ["loop 'step': 3 steps (30-32) of 2 reports -> 3 steps (30-32) of 2 "
                    "reports: step k against step k"], ""))
        rc, out, err = diff(cw, "--json", *both)
        j = json.loads(out) if rc == 0 else {}
        expect("reports: json of two ranks a side: the files, 6 steps a side, the gemm flagged",
               (len(j.get("base", [])), len(j.get("new", [])), j.get("steady", {}).get("steps"),
                [(k["name"], k["verdict"], k["flagged"]) for k in j.get("kernels", [])]),
               (2, 2, [6, 6], [(GEMM[0], "slower", True), (FILL[0], "same", False)]))
        # three runs a side, their gemm 2 % apart, each run's own spread 1 %; the
        # new gemm is 1.5 % slower: the runs are resampled as runs, so `same`
        # (the instances pooled as one run, the interval was +1.3 % to +1.7 %: slower)
        for run, factor in enumerate((1.00, 1.02, 0.98)):
            for name, slower in (("runs", 1.0), ("runs_slower", 1.015)):
                report(os.path.join(d, f"{name}.{run}.sqlite"), range(30, 40),
                       2000 * factor * slower, seed=8 + run)
        rc, out, err = diff(cw, "--json", *[os.path.join(d, f"{name}.*.sqlite")
                                            for name in ("runs", "runs_slower")])
        j = json.loads(out) if rc == 0 else {}
        gemm = next((k for k in j.get("kernels", []) if k["name"] == GEMM[0]), {"error": err})
        expect("reports: three runs a side, 2 % apart, 1.5 % slower: resampled as runs, same",
               [gemm.get(key) for key in ("change", "low", "high", "verdict", "error")],
               [0.015, -0.01419, 0.049473, "same", None])
        steps_file = os.path.join(d, "times")
        write(steps_file, [("step", "train.c:30", steps(1, 20, 1, 0, []))])
        expect("a report against a step-time file: exit 2, why", diff(cw, base, steps_file)[0::2],
               (2, "capture-window: diff: compare reports with reports and step-time files with "
                   f"step-time files, got {base} and {steps_file}\n"))


# ---- real runs --------------------------------------------------------------

def programs(cw, train):
    """Five runs of each of three kinds, interleaved (each round in
    another order): two plain kinds, A and B, and one with twice the work
    a step (TRAIN_EXTRA_WORK=4000 against 2000: steps of about 60 us and
    120 us, 1,000 of them). A shared VM's speed can change by half between
    one second and the next, for every run then; interleaved, each kind
    sees the same, and with several runs a side diff resamples the runs
    too, so the interval holds the runs' differences: A against B is
    `same`, A against the extra work `slower`."""
    with tempfile.TemporaryDirectory(prefix="cw-diff-runs-") as d:
        outputs = set()

        def run(name, work):
            p = subprocess.run([train, "500"], env=environ(
                CAPTURE_WINDOW="none", CAPTURE_WINDOW_TIMES=os.path.join(d, name),
                TRAIN_EXTRA_WORK=str(work)), capture_output=True, text=True, timeout=120)
            outputs.add(p.stdout)
        kinds = [("a", 2000), ("b", 2000), ("extra", 4000)]
        for k in range(8):
            for name, work in kinds[k % 3:] + kinds[:k % 3]:
                run(f"{name}.{k}", work)
        verdicts = []
        for base, new in (("a", "b"), ("a", "extra")):
            rc, out, err = diff(cw, "--json", os.path.join(d, base + ".*"), os.path.join(d, new + ".*"))
            j = json.loads(out) if rc == 0 else {"steady": {}}
            verdicts.append(j["steady"].get("verdict"))
            print(f"  {base} -> {new}: {j['steady']}")
        expect("the knob leaves the output alone", len(outputs), 1)
        expect("five runs a side, interleaved: plain and plain same; twice the work slower",
               verdicts, ["same", "slower"])


if __name__ == "__main__":
    {"fixtures": fixtures, "reports": reports, "programs": programs}[sys.argv[1]](*sys.argv[2:])
    sys.exit(verdict())
