#!/usr/bin/env python3
"""Tests of `capture-window profile --auto` (issue 31 item 4): plan's run (or
--from a step-time file), one nsys run with every suggested window in one
CAPTURE_WINDOW value, and the table of the reports' checks. nsys is
fake-nsys (its reports are make_fixtures' placed fixtures); the program is
fake-train, which writes the step times the runtime would. Each case asserts
the exact stdout, the exit status and the nsys calls.

Usage: auto_test.py [CAPTURE_WINDOW_COMMAND]
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CW = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../cli/capture-window"))
FAKE, TRAIN = os.path.join(HERE, "fake-nsys"), os.path.join(HERE, "fake-train")
CLEAN = ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "CAPTURE_WINDOW",
         "CAPTURE_WINDOW_RANKS", "CAPTURE_WINDOW_SIGNAL", "CAPTURE_WINDOW_STEPS",
         "CAPTURE_WINDOW_TIMES", "CAPTURE_WINDOW_LOOPS", "FAKE_NSYS_SIZE", "FAKE_NSYS_REPORTS")
# The windows plan suggests for fake-train's 100 steps, by start, and their reports.
ALL_OK = "steady:1 eval:19:20 host:24:25 eval:39:20 host:49:25 eval:59:20 host:74:25"
POLICY = "CAPTURE_WINDOW=1:3,24:3/25x3,19:3/20x3"
EVAL = "every 20 steps from 20 (9.9x slower)"
HOST = "every 25 steps from 25 (99.4x slower)"
failures = []


def evaluates(i):
    return (f"step#{i} launched 3,457 kernels and holds 'validation' (2,960 kernels), "
            f"steps {i - 1} and {i + 1} launched 497; step#{i}'s kernels that differ, by time: "
            f"vectorized_elementwise_kernel 3.47 ms (512 us in steps {i - 1} and {i + 1}), "
            "Kernel2 3.44 ms (482 us in them)")


def hosts(i):
    return (f"step#{i} took 2.10 s, steps {i - 1} and {i + 1} took 19.0 ms, with the same 497 "
            "kernels: host work (a checkpoint, a data-loader stall)")


def run(args, env):
    log, trained = os.path.abspath("nsys.log"), os.path.abspath("train.log")
    for path in (log, trained):
        open(path, "w").close()
    environ = {k: v for k, v in os.environ.items() if k not in CLEAN}
    environ.update({"NSYS": FAKE, "FAKE_NSYS_LOG": log, "FAKE_TRAIN_LOG": trained, **env})
    began = time.monotonic()
    p = subprocess.run([CW, *args], env=environ, capture_output=True, text=True, timeout=50)
    took = time.monotonic() - began
    with open(log) as f, open(trained) as g:
        return p.returncode, p.stdout.splitlines(), p.stderr, f.read().splitlines(), \
            g.read().splitlines(), took


def case(name, status, stdout, args, env=None, nsys=None, program_saw=None, within=None):
    got, out, err, calls, saw, took = run(args, env or {})
    problems = []
    if got != status:
        problems.append(f"status {got}, expected {status}")
    if out != stdout:
        problems.append("stdout:\n    " + "\n    ".join(out) + "\n  expected:\n    " + "\n    ".join(stdout))
    if nsys is not None and [c for c in calls if c.startswith("nsys profile")] != nsys:
        problems.append(f"nsys calls:\n    {calls}\n  expected:\n    {nsys}")
    if program_saw is not None and saw != program_saw:
        problems.append(f"the program saw {saw}, expected {program_saw}")
    if within and took > within:
        problems.append(f"took {took:.1f} s, more than {within} s")
    if problems:
        failures.append(name)
        print(f"FAIL: {name}\n  " + "\n  ".join(problems) + "\n  stderr: " + err.strip())
    else:
        print(f"PASS: {name}")
    return err


def table(rows):
    """The table as profile --auto prints it: columns padded, the last free."""
    rows = [("window", "aimed at", "verdict", "report", "the odd step")] + rows
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[4] for r in rows]


def ok_rows(name):
    return [("1:3", "steady state", "ok", f"{name}.1.nsys-rep", "-"),
            ("19:3", EVAL, "ok", f"{name}.2.nsys-rep", evaluates(20)),
            ("24:3", HOST, "ok", f"{name}.3.nsys-rep", hosts(25)),
            ("39:3", EVAL, "ok", f"{name}.4.nsys-rep", evaluates(40)),
            ("49:3", HOST, "ok", f"{name}.5.nsys-rep", hosts(50)),
            ("59:3", EVAL, "ok", f"{name}.6.nsys-rep", evaluates(60)),
            ("74:3", HOST, "ok", f"{name}.7.nsys-rep", hosts(75))]


def nsys_line(name, n, program):
    """The loop ran in one thread: -c nvtx -p step instead of nsys's cudaProfilerApi."""
    return (f"nsys profile -t cuda,nvtx --capture-range-end=repeat:{n} -f true "
            f"--cuda-graph-trace=node -o {name} -c nvtx -p step {program}")


def main():
    with tempfile.TemporaryDirectory(prefix="cw-auto-test-") as folder:
        os.chdir(folder)
        subprocess.run([TRAIN, "100"], env=dict(os.environ, CAPTURE_WINDOW="none",
                                                  CAPTURE_WINDOW_TIMES="train.steps"), check=True)
        case("profile --auto --from: every window ok, one table", 0, table(ok_rows("train")),
             ["profile", "--auto", "--from", "train.steps", "-o", "train", "--", TRAIN, "100"],
             {"FAKE_NSYS_REPORTS": ALL_OK}, nsys=[nsys_line("train", 7, f"{TRAIN} 100")],
             program_saw=[POLICY])
        rows = ok_rows("train")[:5] + [
            ("59:3", EVAL, "missed_event", "train.6.nsys-rep", "-"), ("74:3", HOST, "no report", "-", "-")]
        case("profile --auto: a missed event and a missing report", 1, table(rows) + [
            "train.6.nsys-rep: found 3 steps (step#59-61), aimed at every 20 steps, but no step "
            "differs from the others, in its work or its time: the event fell outside the window; "
            "1,491 kernels, 21 bytes",
            "74:3: no report holds it (nsys wrote 6 reports for 7 windows)"],
             ["profile", "--auto", "--from", "train.steps", "-o", "train", "--", TRAIN, "100"],
             {"FAKE_NSYS_REPORTS": ALL_OK.replace("eval:59:20 host:74:25", "steady:59:20")})
        err = case("profile --auto --steps 100: the learning run stopped, then the nsys run", 0,
                   table(ok_rows("fake-train")),
                   ["profile", "--auto", "--steps", "100", "--", TRAIN, "100", "hang"],
                   {"FAKE_NSYS_REPORTS": ALL_OK}, nsys=[nsys_line("fake-train", 7, f"{TRAIN} 100 hang")],
                   program_saw=["CAPTURE_WINDOW=none", POLICY], within=30)
        said = f"capture-window: stopped {TRAIN} (SIGTERM) at 100 steps"
        if said not in err.splitlines():
            failures.append("--steps: says it stopped the learning run")
            print(f"FAIL: --steps: stderr lacks '{said}':\n{err}")
        # No steady state (issue 31 item 3): profile --auto says plan's words
        # and profiles plan's windows at the drift's ends, no steady window.
        with open("drift.steps", "w") as f:
            f.write("# capture-window step times 1\nloop 1 T101 step train.c:40\n")
            f.writelines(f"1 {i} {10_000_000 + 20_000_000 * i // 299}\n" for i in range(300))
        _, _, err, _, _, _ = run(["profile", "--auto", "--from", "drift.steps", "-o", "drift", "--",
                                      TRAIN, "300"], {})
        said = ("capture-window: profile --auto: loop 'step' (train.c:40): drift: +66.9 us a step "
                "over the run (10.0 to 30.0 ms, steps 0-299): no steady state; a window at each end, "
                "to compare")
        policy = [c for c in err.splitlines() if c.startswith("capture-window: CAPTURE_WINDOW=")]
        if said not in err.splitlines() or not policy or "CAPTURE_WINDOW=0:3,296:3 " not in policy[0]:
            failures.append("profile --auto: a drift")
            print(f"FAIL: profile --auto: a drift: stderr lacks '{said}' or the policy is not the "
                  f"drift's ends:\n{err}\n{policy}")
        else:
            print("PASS: profile --auto: a drift")
        # A loop in two threads keeps -c cudaProfilerApi (an NVTX range is
        # one thread's); a -c of the user's is kept.
        with open("two.steps", "w") as f:
            f.write("# capture-window step times 1\nloop 1 T101 step train.c:40\n"
                    "loop 2 T102 step train.c:40\n")
            f.writelines(f"{k} {i} 1000000\n" for i in range(40) for k in (1, 2))
        for name, args, want in (
                ("two threads", [], "-t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop"),
                ("the user's -c", ["-c", "cudaProfilerApi"], "-t cuda,nvtx --capture-range-end=stop")):
            _, _, err, calls, _, _ = run(["profile", "--auto", "--from", "two.steps", "-o", "two",
                                          *args, "--", TRAIN, "40"], {})
            profiled = [c for c in calls if c.startswith("nsys profile")]
            if len(profiled) != 1 or not profiled[0].startswith(f"nsys profile {want} ") or \
                    " nvtx" in profiled[0].replace("cuda,nvtx", ""):
                failures.append(f"profile --auto: {name}")
                print(f"FAIL: profile --auto: {name}: nsys calls {profiled}, expected '{want} ...' "
                      f"and no -c nvtx\n{err}")
            else:
                print(f"PASS: profile --auto: {name} keeps -c cudaProfilerApi")
        case("profile --auto without '--'", 2, [], ["profile", "--auto", TRAIN])
        # The step-time reader's words come with the verb that read (issue 44 item 6).
        bad = os.path.abspath("notes.steps")
        with open(bad, "w") as f:
            f.write("notes\n")
        got = run(["profile", "--auto", "--from", bad, "--", TRAIN], {})
        want = (2, [], f"capture-window: profile --auto: {bad}:1: not a step-times file: its first "
                       "line is not '# capture-window step times VERSION'\n", [])
        if got[:4] != want:
            failures.append("profile --auto: --from a file that is not step times")
            print(f"FAIL: profile --auto: --from a file that is not step times: {got[:4]!r}, "
                  f"expected {want!r}")
        else:
            print("PASS: profile --auto: --from a file that is not step times, in its own words")
        case("profile --auto: a program without step times", 1, [], ["profile", "--auto", "--", "true"],
             nsys=[])
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
