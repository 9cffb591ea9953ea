#!/usr/bin/env python3
"""Tests of the capture-window command (cli/capture-window) against fake-nsys,
a stand-in nsys that records its arguments and exports the SQLite fixtures
of make_fixtures.py (built when a report is exported, so no binary is
committed). Each case asserts the exact stdout (verdict lines, or the JSON
objects), the exit status and, where given, the exact nsys calls.

Usage: cli_test.py [CAPTURE_WINDOW_COMMAND]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../cli/capture-window"))
FAKE = os.path.join(HERE, "fake-nsys")
CLEAN = ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "CAPTURE_WINDOW",
         "CAPTURE_WINDOW_RANKS", "CAPTURE_WINDOW_SIGNAL", "CAPTURE_WINDOW_STEPS", "FAKE_NSYS_SIZE",
         "FAKE_NSYS_REPORTS")
failures = []


def run(args, env=None):
    """Runs capture-window ARGS: (status, stdout, stderr, the nsys calls)."""
    log = os.path.abspath("nsys.log")
    open(log, "w").close()
    environ = {k: v for k, v in os.environ.items() if k not in CLEAN}
    environ.update({"NSYS": FAKE, "FAKE_NSYS_LOG": log, **(env or {})})
    environ = {k: v for k, v in environ.items() if v is not None}
    p = subprocess.run([CW, *args], env=environ, capture_output=True, text=True)
    with open(log) as f:
        return p.returncode, p.stdout, p.stderr, f.read().splitlines()


def case(name, status, stdout, args, env=None, nsys=None):
    """STDOUT: the exact lines (a list), or a list of objects for --json."""
    got_status, out, err, calls = run(args, env)
    if stdout and not isinstance(stdout[0], str):
        try:
            got = [json.loads(line) for line in out.splitlines()]
        except ValueError:
            got = out.splitlines()
    else:
        got = out.splitlines()
    problems = []
    if got_status != status:
        problems.append(f"status {got_status}, expected {status}")
    if got != stdout:
        problems.append(f"stdout:\n    {got}\n  expected:\n    {stdout}")
    if nsys is not None and calls != nsys:
        problems.append(f"nsys calls:\n    {calls}\n  expected:\n    {nsys}")
    if problems:
        failures.append(name)
        print(f"FAIL: {name}\n  " + "\n  ".join(problems) + "\n  stderr: " + err.strip())
    else:
        print(f"PASS: {name}")


def report(fixture, path, size=None):
    """A report fake-nsys exports as FIXTURE (NAME or NAME@PID); SIZE bytes."""
    with open(path, "w") as f:
        f.write(f"fixture={fixture}\n")
    if size:
        os.truncate(path, size)


def export(path):
    return f"nsys export --type sqlite -f true -o {path[:-len('.nsys-rep')]}.sqlite {path}"


OK_TRAIN = "ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB"
NOT_STEADY = ("step#31 launched 1,512 kernels, steps 30 and 32 launched 497; step#31's kernels "
              "that differ, by time: Kernel2 2.00 ms (482 us in steps 30 and 32), "
              "vectorized_elementwise_kernel 1.02 ms (512 us in them): not steady state (eval? checkpoint?)")
# what the trainer's evaluation step adds, by time, against steps A and B
EVAL_KERNELS = ("vectorized_elementwise_kernel 3.47 ms (512 us in steps %d and %d), "
                "Kernel2 3.44 ms (482 us in them)")
GEMM = ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>"
        "(T1::Params)")
FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char *, 1>>(int, T2, T3)")


def check_cases():
    report("window", "train.nsys-rep", 4_200_000)
    case("check: ok", 0, [f"train.nsys-rep: {OK_TRAIN}"],
         ["check", "--expect", "30:3", "train.nsys-rep"], nsys=[export("train.nsys-rep")])
    case("check: ok without --expect", 0, [f"train.nsys-rep: {OK_TRAIN}"], ["check", "train.nsys-rep"])
    case("check: a window elsewhere", 1,
         ["train.nsys-rep: found 3 steps (step#30-32), expected 3 (step#45-47)"],
         ["check", "--expect", "45:3", "train.nsys-rep"])
    report("nokernels", "empty.nsys-rep", 65_000)
    case("check: no kernels", 1,
         ["empty.nsys-rep: no kernels captured: the window closed before any GPU work "
          "(or nsys ran without -t cuda); 65.0 kB"], ["check", "empty.nsys-rep"])
    report("window", "huge.nsys-rep", 2_100_000_000)
    case("check: a report of GBs", 1,
         ["huge.nsys-rep: report is 2.1 GB: the window never closed (nsys recorded until the "
          "program ended; is the loop shorter than the window, or nsys run without "
          "-c cudaProfilerApi / -c nvtx?)"], ["check", "huge.nsys-rep"], nsys=[])
    report("four", "four.nsys-rep", 64_000)
    case("check: one step too many", 1,
         ["four.nsys-rep: found 4 steps (step#30-33), expected 3 (step#30-32)"],
         ["check", "--expect", "30:3", "four.nsys-rep"])
    report("merged", "merged.nsys-rep", 70_000)
    case("check: two windows in one report", 1,
         ["merged.nsys-rep: found 5 steps (step#10-11,40-42): several windows in one report "
          "(use --capture-range-end=repeat for a report per window)"], ["check", "merged.nsys-rep"])
    report("noranges", "plain.nsys-rep", 64_000)
    case("check: no step ranges", 1,
         ["plain.nsys-rep: no step#i ranges: was the program built with the capture-window "
          "plugin, nsys run with -t nvtx, and is the loop's label 'step' (--label)? "
          "3 kernels, 64.0 kB"], ["check", "plain.nsys-rep"])
    report("stepsoff", "off.nsys-rep", 64_000)
    case("check: CAPTURE_WINDOW_STEPS=off: the window range alone", 0,
         ["off.nsys-rep: ok: window step (CAPTURE_WINDOW_STEPS=off: no step#i ranges), "
          "3 kernels, 64.0 kB"], ["check", "off.nsys-rep"], {"CAPTURE_WINDOW_STEPS": "off"})
    case("check: CAPTURE_WINDOW_STEPS=off judged by the report, not the checker's environment", 0,
         ["off.nsys-rep: ok: window step (CAPTURE_WINDOW_STEPS=off: no step#i ranges), "
          "3 kernels, 64.0 kB"], ["check", "off.nsys-rep"], {"CAPTURE_WINDOW_STEPS": "all"})
    report("eval", "eval.nsys-rep", 812)
    case("check: --label eval", 0, ["eval.nsys-rep: ok: 2 steps (eval#5-6), 8 kernels, 812 bytes"],
         ["check", "--label", "eval", "--expect", "5:2", "eval.nsys-rep"])
    report("threads", "threads.nsys-rep", 67_899)
    case("check: two threads, one closed first", 0,
         ["threads.nsys-rep: ok: 3 steps (step#30-32) in 2 threads, 26 kernels, 67.9 kB "
          "(also step#33-36 of threads whose window closed first)"],
         ["check", "--expect", "30:3", "threads.nsys-rep"])
    case("check: several reports, one missing", 1,
         [f"train.nsys-rep: {OK_TRAIN}", "gone.nsys-rep: no such report"],
         ["check", "train.nsys-rep", "gone.nsys-rep"])
    report("nosuchfixture", "bad.nsys-rep")
    case("check: nsys export fails", 1,
         ["bad.nsys-rep: nsys export failed: ERROR: Cannot open bad.nsys-rep: the file is not "
          "an Nsight Systems report."], ["check", "bad.nsys-rep"])
    case("check: bad --expect", 2, [], ["check", "--expect", "30", "train.nsys-rep"], nsys=[])
    case("check: --expect COUNT 0", 2, [], ["check", "--expect", "30:0", "train.nsys-rep"])


def steady_cases():
    """The kernels of each step: its thread's launches in its range."""
    report("eval_step", "eval.nsys-rep", 9_000)
    case("steady: one step launched many more kernels", 1, [f"eval.nsys-rep: {NOT_STEADY}"],
         ["check", "--expect", "30:3", "eval.nsys-rep"])
    report("other_kernels", "other.nsys-rep", 9_000)
    case("steady: as many kernels, other ones", 1,
         ["other.nsys-rep: step#32 launched 4 kernels (+2 vectorized_elementwise_kernel, "
          "-2 backward), steps 30-31 and 33 launched 4; step#32's kernels that differ, by time: "
          "vectorized_elementwise_kernel 4.00 us (not in steps 30-31 and 33): not steady state "
          "(eval? checkpoint?)"],
         ["check", "other.nsys-rep"])
    report("thread_step", "tstep.nsys-rep", 9_000)
    case("steady: each thread against its own steps", 1,
         ["tstep.nsys-rep: thread 102: step#30 launched 3 kernels, steps 31-32 launched 1; step#30's "
          "kernels that differ, by time: tag 6.00 us (2.00 us in steps 31-32): "
          "not steady state (eval? checkpoint?)"], ["check", "tstep.nsys-rep"])
    report("graph", "graph.nsys-rep", 9_000)
    case("steady: a graph launch's kernels belong to its step", 0,
         ["graph.nsys-rep: ok: 3 steps (step#30-32), 9 kernels, 9.0 kB"], ["check", "graph.nsys-rep"])

    report("child", "child.nsys-rep", 9_000)
    case("steady: a child process's kernels are not the parent's", 0,
         ["child.nsys-rep: ok: 3 steps (step#30-32), 5 kernels, 9.0 kB"], ["check", "child.nsys-rep"])


def purpose_cases():
    """What the odd step holds (the program's own ranges), and what the
    window was for (the runtime's mark L:aimed-every-N)."""
    report("validation", "val.nsys-rep", 90_000)
    case("purpose: a steady window holds the evaluation: its range named", 1,
         ["val.nsys-rep: step#20 launched 3,457 kernels and holds 'validation' (2,960 kernels), "
          f"steps 19 and 21 launched 497; step#20's kernels that differ, by time: {EVAL_KERNELS % (19, 21)}: "
          "not steady state"], ["check", "--expect", "19:3", "val.nsys-rep"])
    report("aimed", "aimed.nsys-rep", 90_000)
    case("purpose: a window aimed at every 20 steps holds the evaluation", 0,
         ["aimed.nsys-rep: ok: 3 steps (step#19-21), aimed at every 20 steps: step#20 launched "
          "3,457 kernels and holds 'validation' (2,960 kernels), steps 19 and 21 launched 497; "
          f"step#20's kernels that differ, by time: {EVAL_KERNELS % (19, 21)}; 4,451 kernels, 90.0 kB"], ["check", "aimed.nsys-rep"])
    report("aimed_missed", "missed.nsys-rep", 90_000)
    case("purpose: an aimed window whose steps are all alike", 1,
         ["missed.nsys-rep: found 3 steps (step#21-23), aimed at every 20 steps, but no step "
          "differs from the others, in its work or its time: the event fell outside the window; "
          "1,491 kernels, 90.0 kB"],
         ["check", "missed.nsys-rep"])
    report("checkpoint", "ckpt.nsys-rep", 90_000)
    case("purpose: a range of no kernel in another domain; numbered ranges are one range", 1,
         ["ckpt.nsys-rep: step#30 launched 497 kernels and holds 'checkpoint' (no kernels), "
          "steps 29 and 31 launched 497: not steady state"], ["check", "ckpt.nsys-rep"])
    report("coinciding", "both.nsys-rep", 90_000)
    case("purpose: the step where evaluation and checkpoint coincide", 0,
         ["both.nsys-rep: ok: 3 steps (step#59-61), aimed at every 20 steps: step#60 launched "
          "3,457 kernels and holds 'validation' (2,960 kernels) and 'checkpoint' (no kernels), "
          f"steps 59 and 61 launched 497; step#60's kernels that differ, by time: {EVAL_KERNELS % (59, 61)}; "
          "4,451 kernels, 90.0 kB"], ["check", "both.nsys-rep"])
    status, out, _, _ = run(["check", "--json", "both.nsys-rep"])
    got = json.loads(out)
    case_value("purpose --json: purpose and each step's own ranges",
               (status, got["purpose"], [s["ranges"] for s in got["step_kernels"]]),
               (0, {"aimed_every": 20},
                [{"train_step": 497}, {"checkpoint": 0, "forward": 2960, "train_step": 497,
                                       "validation": 2960}, {"train_step": 497}]))


def case_value(name, got, expected):
    if got != expected:
        failures.append(name)
        print(f"FAIL: {name}\n  got:      {got}\n  expected: {expected}")
    else:
        print(f"PASS: {name}")


def json_cases():
    # took_ns: each launch is 1.5 us of the fixture's clock; step 31 is 3x
    # longer and so host_work names it (the verdict does not: it launched more).
    steps = [{"step": s, "thread": 101, "kernels": 497, "names": {FILL: 256, GEMM: 241}, "ranges": {},
              "took_ns": 748_000, "graphs": 0} for s in (30, 32)]
    steps.insert(1, {"step": 31, "thread": 101, "kernels": 1512, "names": {FILL: 512, GEMM: 1000},
                     "ranges": {}, "took_ns": 2_270_500, "graphs": 0})
    slow = [{"thread": 101, "step": 31, "took_ns": 2_270_500, "gap_ns": 1000,
             "others_took_ns": [748_000, 748_000], "others_gap_ns": [1000], "between": False,
             "work": "1,512 kernels", "before": 30, "others": [30, 32], "calls": None}]
    odd = [{"thread": 101, "steps": [31], "others": [30, 32], "kernels": [
        {"name": GEMM, "ns": 2_000_000, "count": 1000, "others_ns": 482_000, "others_count": 241},
        {"name": FILL, "ns": 1_024_000, "count": 512, "others_ns": 512_000, "others_count": 256}]}]
    case("--json: a report not in steady state", 1,
         [{"report": "eval.nsys-rep", "ok": False, "problem": "not_steady", "verdict": NOT_STEADY,
           "bytes": 9000, "label": "step", "kernels": 2506, "threads": 1, "steps": [30, 31, 32],
           "pids": [4100], "purpose": None, "step_kernels": steps, "graph_launches": 0,
           "host_work": slow, "odd_kernels": odd, "slower_kernels": None, "window": None, "recorded": None}], ["check", "--json", "eval.nsys-rep"])
    case("--json: a missing report", 1,
         [{"report": "gone.nsys-rep", "ok": False, "problem": "missing", "verdict": "no such report",
           "bytes": None, "label": "eval", "kernels": None, "threads": None, "steps": None,
           "pids": None, "purpose": None, "step_kernels": None, "graph_launches": None,
           "host_work": None, "odd_kernels": None, "slower_kernels": None, "window": None, "recorded": None}],
         ["check", "--json", "--label=eval", "gone.nsys-rep"])


def rank_json(rank, pid, steps):
    """The --json object of fixture rank@PID or late@PID (2 kernels a step)."""
    return {"report": f"report.{rank}.nsys-rep", "ok": True, "problem": None,
            "verdict": f"ok: 3 steps (step#{steps[0]}-{steps[-1]}), 6 kernels, 60.0 kB",
            "bytes": 60000, "label": "step", "kernels": 6, "threads": 1, "steps": steps,
            "pids": [pid], "purpose": None,
            "step_kernels": [{"step": s, "thread": 101, "kernels": 2, "names": {"tag(int *)": 2},
                              "ranges": {}, "took_ns": 5500, "graphs": 0} for s in steps],
            "graph_launches": 0, "host_work": None, "odd_kernels": None, "slower_kernels": None, "window": None, "recorded": None}


def rank_cases():
    """Reports of several processes: every rank captured the same steps?"""
    for rank in range(3):
        report(f"rank@{5000 + rank}", f"report.{rank}.nsys-rep", 60_000)
    report("late@5003", "report.3.nsys-rep", 60_000)
    ok = "ok: 3 steps (step#30-32), 6 kernels, 60.0 kB"
    case("ranks: all captured the same steps", 0,
         [f"report.{r}.nsys-rep: {ok}" for r in range(3)] +
         [f"capture-window: rank {r} (report.{r}.nsys-rep): step#30-32" for r in range(3)] +
         ["capture-window: all 3 ranks captured the same steps (step#30-32)"],
         ["check", "report.0.nsys-rep", "report.1.nsys-rep", "report.2.nsys-rep"])
    case("ranks: one rank captured other steps", 1,
         [f"report.{r}.nsys-rep: {ok}" for r in range(3)] +
         ["report.3.nsys-rep: ok: 3 steps (step#31-33), 6 kernels, 60.0 kB"] +
         [f"capture-window: rank {r} (report.{r}.nsys-rep): step#30-32" for r in range(3)] +
         ["capture-window: rank 3 (report.3.nsys-rep): step#31-33",
          "capture-window: ranks differ: rank 3 captured step#31-33, ranks 0-2 step#30-32 "
          "(windows opened by a signal? set CAPTURE_WINDOW_ALIGN)"],
         ["check"] + [f"report.{r}.nsys-rep" for r in range(4)])
    ranks = [{"rank": 0, "pid": 5000, "reports": ["report.0.nsys-rep"], "steps": [30, 31, 32]},
             {"rank": 3, "pid": 5003, "reports": ["report.3.nsys-rep"], "steps": [31, 32, 33]}]
    case("ranks --json: the ranks object after the reports'", 1,
         [rank_json(0, 5000, [30, 31, 32]), rank_json(3, 5003, [31, 32, 33])] +
         [{"ranks": ranks, "same_steps": False,
           "verdict": "ranks differ: rank 3 captured step#31-33, rank 0 step#30-32 "
                      "(windows opened by a signal? set CAPTURE_WINDOW_ALIGN)"}],
         ["check", "--json", "report.0.nsys-rep", "report.3.nsys-rep"])
    for rank in (0, 1):   # two windows per rank: repeat reports NAME.RANK.W
        report(f"repeat1@{6000 + rank}", f"two.{rank}.1.nsys-rep", 60_000)
        report(f"repeat2@{6000 + rank}", f"two.{rank}.2.nsys-rep", 60_000)
    reports = [f"two.{r}.{w}.nsys-rep" for r in (0, 1) for w in (1, 2)]
    windows = ["ok: 2 steps (step#10-11), 2 kernels, 60.0 kB", "ok: 3 steps (step#40-42), 3 kernels, 60.0 kB"]
    case("ranks: two windows each, a line per rank", 0,
         [f"two.{r}.{w}.nsys-rep: {windows[w - 1]}" for r in (0, 1) for w in (1, 2)] +
         ["capture-window: rank 0 (two.0.1.nsys-rep, two.0.2.nsys-rep): step#10-11,40-42",
          "capture-window: rank 1 (two.1.1.nsys-rep, two.1.2.nsys-rep): step#10-11,40-42",
          "capture-window: all 2 ranks captured the same steps (step#10-11,40-42)"],
         ["check", *reports])
    # One repeat report of each rank (a signal-armed window, say): NAME.RANK.W
    # names rank RANK, not W.
    for rank in (0, 1):
        report(f"repeat1@{6100 + rank}", f"signal.{rank}.1.nsys-rep", 60_000)
    case("ranks: one repeat report each, NAME.RANK.1", 0,
         [f"signal.{r}.1.nsys-rep: {windows[0]}" for r in (0, 1)] +
         ["capture-window: rank 0 (signal.0.1.nsys-rep): step#10-11",
          "capture-window: rank 1 (signal.1.1.nsys-rep): step#10-11",
          "capture-window: all 2 ranks captured the same steps (step#10-11)"],
         ["check", "signal.0.1.nsys-rep", "signal.1.1.nsys-rep"])


def profile_cases():
    base = "nsys profile -t cuda,nvtx -c cudaProfilerApi"
    big = {"FAKE_NSYS_REPORTS": "window", "FAKE_NSYS_SIZE": "4200000"}
    case("profile: defaults, NAME from the program", 0, ["prog: a b c", f"prog.nsys-rep: {OK_TRAIN}"],
         ["profile", "./prog", "a", "b", "c"], big,
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o prog ./prog a b c", export("prog.nsys-rep")])
    case("profile: -o and nsys options before --", 0, ["prog: --flag", f"run.nsys-rep: {OK_TRAIN}"],
         ["profile", "-o", "run", "-c", "nvtx", "-p", "step", "--nsys-args", "--delay 5",
          "--sample=none", "--", "./prog", "--flag"], big,
         ["nsys profile -t cuda,nvtx --capture-range-end=stop -f true --cuda-graph-trace=node -o run -c nvtx -p step "
          "--delay 5 --sample=none ./prog --flag", export("run.nsys-rep")])
    case("profile: RANK names the report per rank", 0, ["prog: ", f"train.1.nsys-rep: {OK_TRAIN}"],
         ["profile", "-o", "train", "./prog"], dict(big, RANK="1"),
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o train.%q{{RANK}} ./prog",
          export("train.1.nsys-rep")])
    case("profile: SLURM_PROCID when it is the only rank variable", 0,
         ["prog: ", f"train.7.nsys-rep: {OK_TRAIN}"], ["profile", "-o", "train", "./prog"],
         dict(big, SLURM_PROCID="7"),
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o train.%q{{SLURM_PROCID}} ./prog",
          export("train.7.nsys-rep")])
    case("profile: CAPTURE_WINDOW of two windows: repeat:2, each report its window", 0,
         ["prog: ", "train.1.nsys-rep: ok: 2 steps (step#10-11), 2 kernels, 60.0 kB",
          "train.2.nsys-rep: ok: 3 steps (step#40-42), 3 kernels, 60.0 kB"],
         ["profile", "-o", "train", "./prog"],
         {"CAPTURE_WINDOW": "40:3,10:2", "FAKE_NSYS_REPORTS": "repeat1 repeat2",
          "FAKE_NSYS_SIZE": "60000"},
         [f"{base} --capture-range-end=repeat:2 -f true --cuda-graph-trace=node -o train ./prog",
          export("train.1.nsys-rep"), export("train.2.nsys-rep")])
    case("profile: a report that does not hold CAPTURE_WINDOW's window", 1,
         ["prog: ", "train.nsys-rep: found 3 steps (step#30-32), expected 2 (step#10-11)"],
         ["profile", "-o", "train", "./prog"], {"CAPTURE_WINDOW": "10:2", "FAKE_NSYS_REPORTS": "window"})
    case("profile: CAPTURE_WINDOW=auto:3 checks a 3-step window", 0,
         ["prog: ", f"train.nsys-rep: {OK_TRAIN}"], ["profile", "-o", "train", "./prog"],
         dict(big, CAPTURE_WINDOW="auto:3"),
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o train ./prog", export("train.nsys-rep")])
    case("profile: CAPTURE_WINDOW=10:2/30x2: repeat:2, windows 10-11 and 40-41", 1,
         ["prog: ", "train.1.nsys-rep: ok: 2 steps (step#10-11), 2 kernels, 60.0 kB",
          "train.2.nsys-rep: found 3 steps (step#40-42), expected 2 (step#40-41)"],
         ["profile", "-o", "train", "./prog"],
         {"CAPTURE_WINDOW": "10:2/30x2", "FAKE_NSYS_REPORTS": "repeat1 repeat2",
          "FAKE_NSYS_SIZE": "60000"},
         [f"{base} --capture-range-end=repeat:2 -f true --cuda-graph-trace=node -o train ./prog",
          export("train.1.nsys-rep"), export("train.2.nsys-rep")])
    case("profile: CAPTURE_WINDOW_SIGNAL: a report per signal", 0,
         ["prog: ", f"train.nsys-rep: {OK_TRAIN}"], ["profile", "-o", "train", "./prog"],
         dict(big, CAPTURE_WINDOW_SIGNAL="USR1"),
         [f"{base} --capture-range-end=repeat -f true --cuda-graph-trace=node -o train ./prog", export("train.nsys-rep")])
    case("profile: a step not like the others", 1,
         ["prog: ", f"prog.nsys-rep: {NOT_STEADY}"], ["profile", "./prog"],
         {"CAPTURE_WINDOW": "30:3", "FAKE_NSYS_REPORTS": "eval_step"})
    case("profile: CAPTURE_WINDOW=off: no report, as expected", 0,
         ["prog: ", "capture-window: no report, as expected: CAPTURE_WINDOW=off"],
         ["profile", "./prog"], {"CAPTURE_WINDOW": "off", "FAKE_NSYS_REPORTS": ""},
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o prog ./prog"])
    case("profile: a rank CAPTURE_WINDOW_RANKS leaves out", 0,
         ["prog: ", "capture-window: no report, as expected: rank 3 is not in "
          "CAPTURE_WINDOW_RANKS=0,4-7"], ["profile", "./prog"],
         {"RANK": "3", "CAPTURE_WINDOW_RANKS": "0,4-7", "FAKE_NSYS_REPORTS": ""})
    case("profile: a rank CAPTURE_WINDOW_RANKS selects", 0,
         ["prog: ", f"prog.5.nsys-rep: {OK_TRAIN}"], ["profile", "./prog"],
         dict(big, RANK="5", CAPTURE_WINDOW_RANKS="0,4-7"))
    case("profile: no report although a window was due", 1,
         ["prog: ", "capture-window: no report from nsys (exit status 0): the window never "
          "opened. Was the program built with the capture-window plugin, does the marked loop "
          "reach START, and did CAPTURE_WINDOW_LOOPS leave it active?"],
         ["profile", "./prog"], {"FAKE_NSYS_REPORTS": ""})
    case("profile: the program's exit status comes back", 3, ["prog: ", f"prog.nsys-rep: {OK_TRAIN}"],
         ["profile", "./prog"], dict(big, PROG_EXIT="3"))
    os.makedirs("bin")
    os.symlink(FAKE, "bin/nsys")
    case("profile: nsys from PATH", 0, ["prog: ", f"prog.nsys-rep: {OK_TRAIN}"], ["profile", "./prog"],
         dict(big, NSYS=None, PATH=os.path.abspath("bin") + os.pathsep + os.environ["PATH"]),
         [f"{base} --capture-range-end=stop -f true --cuda-graph-trace=node -o prog ./prog", export("prog.nsys-rep")])


def usage_cases():
    case("usage: no command", 2, [], [], nsys=[])
    case("usage: unknown command", 2, [], ["record", "./prog"], nsys=[])
    case("usage: profile without a program", 2, [], ["profile", "-o", "x"], nsys=[])
    case("usage: check: unknown option", 2, [], ["check", "--steps", "x.nsys-rep"], nsys=[])
    status, out, _, _ = run(["--help"])
    case("--help: the usage and the verdicts", 0, out.splitlines(), ["--help"])
    if "capture-window check [--label L] [--expect START:COUNT] [--json]" not in out:
        failures.append("--help lacks check's usage")


def run_all(prog, groups):
    """Runs each group of cases in a scratch folder holding ./prog, a shell
    script of text PROG; the exit status of the whole."""
    work = tempfile.mkdtemp(prefix="cw-cli-")
    try:
        os.chdir(work)
        with open("prog", "w") as f:
            f.write(prog)
        os.chmod("prog", 0o755)
        for cases in groups:
            cases()
    finally:
        os.chdir("/")
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} case(s) failed")
        return 1
    print("all cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(run_all('#!/bin/sh\necho "prog: $*"\nexit ${PROG_EXIT:-0}\n',
                     (check_cases, steady_cases, purpose_cases, json_cases, rank_cases, profile_cases, usage_cases)))
