#!/usr/bin/env python3
"""GPU truth: with the real Nsight Systems, a capture holds exactly the window.

Run on a machine with an NVIDIA GPU and nsys, from the repository root, after
the programs were built here (scripts/build.sh builds them):

    python3 tests/gpu/gpu_checks.py [--build build] [--nsys nsys] [--out DIR]
                                    [--ncu ncu] [--parts static,shared,samples,sizes,cli,ranks,ncu,cut,judge,
                                            teardown,teardown-nsys,signals,watch,diff]

Every check profiles a program built by nvcc with the GCC plugin, exports the
report with `nsys export --type sqlite` and compares the kernels (told apart
by gridX: step s of thread t launches gridX = 1000 * (t + 1) + s) and the
NVTX push/pop ranges with what the window must hold. Prints PASS/FAIL per
check, then "N passed, M failed"; exits 1 on any failure. Measurements
(report sizes, kernels per window, nvtx_sum of one capture) go to
OUT/measurements.txt for docs/verification.md. The ncu part runs
`capture-window profile --tool ncu` with the real Nsight Compute (--ncu,
default /usr/local/cuda/bin/ncu) and reads each report's kernels back.
Part judge (judge.py): plan, spike, check and ncu on a job whose periodic
events coincide. Parts teardown, teardown-nsys, signals and watch
(teardown.py): a launcher's SIGTERM and on-demand requests under nsys.
Part diff (diff_gpu.py): `capture-window diff` on real reports.
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ beside the sources
import judge  # noqa: E402
import teardown  # noqa: E402
import diff_gpu  # noqa: E402

NVTX_PUSH_POP_RANGE = 59  # NVTX_EVENTS.eventType of push/pop ranges

results = {"passed": 0, "failed": 0}
notes = []


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'}: {name}" + ("" if ok else f"\n      {detail}"))
    sys.stdout.flush()


def note(line):
    notes.append(line)
    print("  " + line)


class Run:
    """One `nsys profile` of one program: its reports and the program's output."""

    def __init__(self, opts, name, exe, args, nsys_args, env=None):
        out = os.path.join(opts.out, name)
        for stale in glob.glob(out + "*"):
            os.remove(stale)
        environ = dict(os.environ, **(env or {}))
        command = [opts.nsys, "profile", "-t", "cuda,nvtx", "--sample=none",
                   "--cpuctxsw=none", "-f", "true", "-o", out, *nsys_args, exe, *args]
        proc = subprocess.run(command, env=environ, capture_output=True, text=True,
                              timeout=300)
        self.stdout = proc.stdout
        self.log = proc.stdout + proc.stderr
        with open(out + ".log", "w") as f:
            f.write(" ".join(command) + "\n" + self.log)
        self.reports = sorted(glob.glob(out + "*.nsys-rep"), key=report_order)
        self.opts = opts

    def database(self, report):
        db = report[: -len(".nsys-rep")] + ".sqlite"
        if not os.path.exists(db):
            subprocess.run([self.opts.nsys, "export", "--type", "sqlite", "-f", "true",
                            "-o", db, report], capture_output=True, check=True, timeout=300)
        return sqlite3.connect(db)


def report_order(path):
    """rep.nsys-rep, rep.1.nsys-rep, rep.2.nsys-rep ... in capture order."""
    stem = path[: -len(".nsys-rep")]
    tail = stem.rsplit(".", 1)[-1]
    return (int(tail) if tail.isdigit() else 0, path)


def table_exists(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()


def kernels(db):
    if not table_exists(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
        return []
    return sorted(r[0] for r in db.execute("SELECT gridX FROM CUPTI_ACTIVITY_KIND_KERNEL"))


def ranges(db):
    """Texts of the NVTX push/pop ranges; registered strings resolved."""
    if not table_exists(db, "NVTX_EVENTS"):
        return []
    rows = db.execute(
        "SELECT COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
        "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = ?",
        (NVTX_PUSH_POP_RANGE,))
    return sorted(r[0] for r in rows)


def ranges_by_thread(db):
    """Range texts per thread, each list in the order of iteration index."""
    threads = {}
    rows = db.execute(
        "SELECT e.globalTid, COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
        "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = ? ORDER BY e.start",
        (NVTX_PUSH_POP_RANGE,))
    for tid, text in rows:
        threads.setdefault(tid, []).append(text)
    return threads


def expected_ranges(label, steps):
    return sorted([label] + [f"{label}#{s}" for s in steps])


def check_window(run, name, steps, thread=0, report=0, kernels_per_step=None):
    """The report holds exactly the kernels and ranges of `steps`."""
    if len(run.reports) <= report:
        check(name, False, f"no report {report}; nsys said: {run.log[-600:]}")
        return
    db = run.database(run.reports[report])
    got_kernels, got_ranges = kernels(db), ranges(db)
    if kernels_per_step is None:
        want = sorted(1000 * (thread + 1) + s for s in steps)
        check(name + ": kernels", got_kernels == want, f"gridX {got_kernels} != {want}")
    else:
        want = kernels_per_step * len(steps)
        check(name + ": kernels", len(got_kernels) == want,
              f"{len(got_kernels)} kernels != {want}")
    want_ranges = expected_ranges("step", steps)
    check(name + ": NVTX ranges", got_ranges == want_ranges, f"{got_ranges} != {want_ranges}")


def check_program(opts, exe, tag):
    win = [30, 31, 32]
    run = Run(opts, f"{tag}-cudaProfilerApi", exe, ["50"],
              ["-c", "cudaProfilerApi", "--capture-range-end=stop"])
    check_window(run, f"{tag} -c cudaProfilerApi", win)
    check(f"{tag} --capture-range-end=stop: program ran to its end",
          "steps_cuda: done" in run.stdout, run.log[-400:])

    run = Run(opts, f"{tag}-nvtx", exe, ["50"], ["-c", "nvtx", "-p", "step",
                                                "--capture-range-end=stop"])
    check_window(run, f"{tag} -c nvtx -p step", win)

    # With CAPTURE_WINDOW_STEPS=window the iterations before the window get
    # no range, so they take the emitted code's inline path (no runtime
    # call): the window must still open at iteration 30 exactly.
    steps_window = {"CAPTURE_WINDOW_STEPS": "window"}
    run = Run(opts, f"{tag}-steps-window", exe, ["50"], ["-c", "nvtx", "-p", "step",
                                                        "--capture-range-end=stop"],
              steps_window)
    check_window(run, f"{tag} CAPTURE_WINDOW_STEPS=window -c nvtx -p step", win)
    run = Run(opts, f"{tag}-steps-window-whole", exe, ["50"], [], steps_window)
    if run.reports:
        db = run.database(run.reports[0])
        check(f"{tag} CAPTURE_WINDOW_STEPS=window, whole run: all 50 kernels, ranges "
              "of the window only", kernels(db) == list(range(1000, 1050)) and
              ranges(db) == expected_ranges("step", win), f"{kernels(db)} {ranges(db)}")
    else:
        check(f"{tag} CAPTURE_WINDOW_STEPS=window, whole run: a report", False, run.log[-400:])

    run = Run(opts, f"{tag}-env45", exe, ["50"], ["-c", "cudaProfilerApi"],
              {"CAPTURE_WINDOW": "45:2"})
    check_window(run, f"{tag} CAPTURE_WINDOW=45:2", [45, 46])
    check(f"{tag} default stop-shutdown: nsys ended the program after the window",
          "steps_cuda: done" not in run.stdout, run.log[-400:])

    run = Run(opts, f"{tag}-repeat", exe, ["50"],
              ["-c", "cudaProfilerApi", "--capture-range-end=repeat"],
              {"CAPTURE_WINDOW": "10:2,40:3"})
    check(f"{tag} CAPTURE_WINDOW=10:2,40:3 repeat: two reports", len(run.reports) == 2,
          f"reports: {run.reports}")
    check_window(run, f"{tag} repeat window 1", [10, 11], report=0)
    check_window(run, f"{tag} repeat window 2", [40, 41, 42], report=1)

    for name, env in (("off", {"CAPTURE_WINDOW": "off"}),
                      ("rank1", {"RANK": "0", "CAPTURE_WINDOW_RANKS": "1"})):
        run = Run(opts, f"{tag}-{name}", exe, ["50"],
                  ["-c", "cudaProfilerApi", "--capture-range-end=stop"], env)
        label = " ".join(f"{k}={v}" for k, v in env.items())
        check(f"{tag} {label}: no report, program completes",
              not run.reports and "steps_cuda: done" in run.stdout,
              f"reports {run.reports}; {run.log[-400:]}")

    run = Run(opts, f"{tag}-threads", exe, ["50", "threads"],
              ["-c", "cudaProfilerApi", "--capture-range-end=stop"])
    check(f"{tag} two threads: one report", len(run.reports) == 1, f"{run.reports}")
    if run.reports:
        db = run.database(run.reports[0])
        got = set(kernels(db))
        want = {1030, 1031, 1032, 2030, 2031, 2032}
        check(f"{tag} two threads: both windows' kernels captured", want <= got,
              f"missing {sorted(want - got)}")
        check(f"{tag} two threads: profiler stopped only after the last window",
              {2031, 2032} <= got and not any(k > 2032 for k in got), f"{sorted(got)}")
        by_thread = sorted(ranges_by_thread(db).values(), key=len)
        window = expected_ranges("step", win)
        tail = by_thread[1][len(window):] if len(by_thread) == 2 else []
        # Thread 1 closes last: it holds just its window. Thread 0 closed
        # first and kept stepping while the profiler ran for thread 1, so
        # its steps after 32 are captured too (the profiler is process-wide).
        check(f"{tag} two threads: each thread's window ranges",
              len(by_thread) == 2 and by_thread[0] == window and
              by_thread[1][:len(window)] == window and
              tail == [f"step#{s}" for s in range(33, 33 + len(tail))],
              f"{by_thread}")


def check_sample(opts, exe, tag):
    for name, flags in (("cudaProfilerApi", ["-c", "cudaProfilerApi"]),
                        ("nvtx", ["-c", "nvtx", "-p", "step"])):
        run = Run(opts, f"{tag}-{name}", exe, [], flags + ["--capture-range-end=stop"])
        check_window(run, f"{tag} -c {name}", [30, 31, 32], kernels_per_step=2)
    if run.reports and not opts.stats_done:
        stats = subprocess.run([opts.nsys, "stats", "--report", "nvtx_sum", "--format",
                                "table", run.reports[0]], capture_output=True, text=True)
        note("nsys stats --report nvtx_sum of " + os.path.basename(run.reports[0]) + ":")
        notes.extend(stats.stdout.splitlines())
        opts.stats_done = True


def measure_sizes(opts, exe, steps):
    """Report size of a 3-step window against a whole-run capture."""
    window = Run(opts, f"size-window-{steps}", exe, [str(steps)],
                 ["-c", "cudaProfilerApi", "--capture-range-end=stop"])
    whole = Run(opts, f"size-whole-{steps}", exe, [str(steps)], [])
    if not (window.reports and whole.reports):
        check(f"size {steps}: both reports exist", False, f"{window.reports} {whole.reports}")
        return
    w, a = (os.path.getsize(r.reports[0]) for r in (window, whole))
    nk_w = len(kernels(window.database(window.reports[0])))
    nk_a = len(kernels(whole.database(whole.reports[0])))
    note(f"{steps:,} steps: window report {w:,} bytes ({nk_w} kernels), whole run {a:,} "
         f"bytes ({nk_a:,} kernels), ratio whole/window = {a / w:.1f}")
    check(f"size {steps}: the window report is smaller than the whole run", w < a,
          f"{w} >= {a}")
    check(f"size {steps}: window holds 3 kernels, whole run {steps:,}",
          nk_w == 3 and nk_a == steps, f"{nk_w} / {nk_a}")


def kernel_devices(db):
    if not table_exists(db, "CUPTI_ACTIVITY_KIND_KERNEL"):
        return set()
    return {r[0] for r in db.execute("SELECT DISTINCT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL")}


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
        return max(1, sum(1 for line in out.splitlines() if line.startswith("GPU ")))
    except OSError:
        return 1


def cli(opts, args, env=None):
    """Runs cli/capture-window with NSYS = --nsys; returns (status, stdout)."""
    environ = dict(os.environ, NSYS=os.path.abspath(opts.nsys) if os.sep in opts.nsys
                   else opts.nsys, **(env or {}))
    proc = subprocess.run([sys.executable, "cli/capture-window", *args], env=environ,
                          capture_output=True, text=True, timeout=300)
    with open(os.path.join(opts.out, "cli.log"), "a") as f:
        f.write(f"$ {' '.join(args)} ({env})\n{proc.stdout}{proc.stderr}[exit {proc.returncode}]\n")
    return proc.returncode, proc.stdout


def check_cli(opts, exe):
    """The capture-window command with the real nsys: profile, then check."""
    out = lambda name: os.path.join(opts.out, name)  # noqa: E731
    for stale in glob.glob(out("cli-*")):
        os.remove(stale)
    size = r", [0-9.]+ (kB|MB)$"

    def verdict(name, status, stdout, want_status, pattern):
        lines = [l for l in stdout.splitlines() if "nsys-rep: " in l or "capture-window:" in l]
        ok = status == want_status and len(lines) == len(pattern) and all(
            re.search(p, l) for p, l in zip(pattern, lines))
        check(name, ok, f"exit {status} (want {want_status}); verdicts {lines}; want {pattern}")

    status, stdout = cli(opts, ["profile", "-o", out("cli-steps"), "--", exe, "50"])
    verdict("cli profile: one window", status, stdout, 0,
            [r"cli-steps.nsys-rep: ok: 3 steps \(step#30-32\), 3 kernels" + size])
    status, stdout = cli(opts, ["check", "--expect", "30:3", out("cli-steps.nsys-rep")])
    verdict("cli check --expect 30:3", status, stdout, 0,
            [r"cli-steps.nsys-rep: ok: 3 steps \(step#30-32\), 3 kernels" + size])
    # The steady-state test on a real export: each step's launch joined to its kernel.
    status, stdout = cli(opts, ["check", "--json", out("cli-steps.nsys-rep")])
    try:
        got = [(s["step"], s["kernels"], s["names"]) for s in json.loads(stdout)["step_kernels"]]
    except (ValueError, KeyError, TypeError) as e:
        got = f"no JSON object ({e}): {stdout[-300:]}"
    want = [(s, 1, {"tag(int *)": 1}) for s in (30, 31, 32)]
    check("cli check --json: one kernel launched in each step, by correlation id",
          status == 0 and got == want, f"exit {status}; step_kernels {got}; want {want}")
    status, stdout = cli(opts, ["profile", "-o", out("cli-eval"), "--", exe, "50", "eval"])
    verdict("cli profile of a window with an eval step: not steady state", status, stdout, 1,
            [r"cli-eval.nsys-rep: step#31 launched 11 kernels, steps 30 and 32 launched 1: "
             r"not steady state \(eval\? checkpoint\?\)$"])
    status, stdout = cli(opts, ["check", "--expect", "30:2", out("cli-steps.nsys-rep")])
    verdict("cli check --expect 30:2: diagnosis", status, stdout, 1,
            [r"found 3 steps \(step#30-32\), expected 2 \(step#30-31\)$"])
    status, stdout = cli(opts, ["profile", "-o", out("cli-repeat"), "--", exe, "50"],
                         {"CAPTURE_WINDOW": "10:2,40:3"})
    verdict("cli profile CAPTURE_WINDOW=10:2,40:3: a report per window", status, stdout, 0,
            [r"ok: 2 steps \(step#10-11\), 2 kernels" + size,
             r"ok: 3 steps \(step#40-42\), 3 kernels" + size])
    note("cli repeat reports: " + " ".join(sorted(os.path.basename(p) for p in
                                                  glob.glob(out("cli-repeat*.nsys-rep")))))
    status, stdout = cli(opts, ["profile", "-o", out("cli-rank"), "--", exe, "50"], {"RANK": "1"})
    verdict("cli profile RANK=1: report per rank", status, stdout, 0,
            [r"cli-rank\.1\.nsys-rep: ok: 3 steps \(step#30-32\), 3 kernels" + size])
    status, stdout = cli(opts, ["profile", "-o", out("cli-off"), "--", exe, "50"],
                         {"CAPTURE_WINDOW": "off"})
    verdict("cli profile CAPTURE_WINDOW=off: no report, as expected", status, stdout, 0,
            [r"no report, as expected: CAPTURE_WINDOW=off$"])
    # A window with no GPU work: train_cpu, NVTX-triggered.
    status, stdout = cli(opts, ["profile", "-o", out("cli-cpu"), "-c", "nvtx", "-p", "step", "--",
                                os.path.join(os.path.dirname(exe), "../../samples/train_cpu")])
    verdict("cli profile -c nvtx -p step of train_cpu: no kernels diagnosed", status, stdout, 1,
            [r"cli-cpu.nsys-rep: no kernels captured: the window closed before any GPU work"])
    status, stdout = cli(opts, ["profile", "-o", out("cli-threads"), "--expect", "30:3", "--",
                                exe, "50", "threads"])
    verdict("cli profile two threads --expect 30:3", status, stdout, 0,
            [r"ok: 3 steps \(step#30-32\) in 2 threads, \d+ kernels, [0-9.]+ kB "
             r"\(also step#33-\d+ of threads whose window closed first\)$"])


def ncu_kernels(opts, report, *options):
    """(grid x, kernel name) of each kernel of an ncu report, from its raw page."""
    proc = subprocess.run([opts.ncu, "--import", report, "--csv", "--page", "raw", "--metrics",
                           "launch__grid_size", *options], capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    start = next((k for k, x in enumerate(lines) if x.startswith('"ID",')), len(lines))
    return [(int(re.match(r"\((\d+)", r["Grid Size"]).group(1)), r["Kernel Name"])
            for r in csv.DictReader(lines[start:]) if r["ID"].isdigit()]


def check_ncu(opts, exe):
    """capture-window profile --tool ncu with the real ncu: the kernels profiled
    are exactly those of the window's steps, told by their grid size."""
    out = lambda name: os.path.join(opts.out, name)  # noqa: E731
    ncu = {"NCU": opts.ncu}
    # Each run's kernels as (gridX, step): gridX = 1000 + step; the eval
    # step launches 10 kernels more, of gridX 1.
    one = lambda *steps: [(1000 + s, s) for s in steps]  # noqa: E731
    runs = [("ncu-one", [], [], one(30)),
            ("ncu-full", ["--steps", "3", "--set", "full"], [], one(30, 31, 32)),
            ("ncu-window", ["--window", "40:2"], [], one(40, 41)),
            ("ncu-app-replay", ["--replay-mode", "application"], [], one(30)),
            ("ncu-eval", ["--steps", "3"], ["eval"], one(30, 31, 32) + [(1, 31)] * 10)]
    for name, options, args, want in runs:
        for stale in glob.glob(out(name) + ".*"):
            os.remove(stale)
        status, stdout = cli(opts, ["profile", "--tool", "ncu", "-o", out(name), *options, "--",
                                    exe, "50", *args], ncu)
        report = out(name) + ".ncu-rep"
        got = ncu_kernels(opts, report) if os.path.exists(report) else []
        steps = sorted({s for _, s in want})
        shown = f"{steps[0]}-{steps[-1]}" if len(steps) > 1 else f"{steps[0]}"
        verdict = (f"ok: {len(steps)} step{'s' * (len(steps) > 1)} (step#{shown}), "
                   f"{len(want)} kernel{'s' * (len(want) > 1)}, ")
        grids = sorted(g for g, _ in want)
        check(f"ncu {' '.join(options + args) or 'defaults'}: the kernels of steps {shown} only",
              status == 0 and sorted(g for g, _ in got) == grids and verdict in stdout,
              f"exit {status}; grids {sorted(g for g, _ in got)}, want {grids}; stdout {stdout!r}")
        renamed = sorted(n for _, n in ncu_kernels(opts, report, "--print-nvtx-rename", "kernel")) \
            if got else []
        check(f"ncu {name}: --print-nvtx-rename kernel names each kernel after its step",
              renamed == sorted(f"step#{s}/tag(int *)" for _, s in want), f"names {renamed}")
        size = os.path.getsize(report) if got else 0
        note(f"{name}: capture-window profile --tool ncu {' '.join(options)} -- steps_cuda 50 "
             f"{' '.join(args)}: {len(got)} kernels, gridX {sorted(set(g for g, _ in got))}, "
             f"{size} bytes")
    # The NVTX-include recipe of docs/ncu.md, on the pragma's window 30:3.
    subprocess.run([opts.ncu, "--nvtx", "--nvtx-include", "step/", "-f", "-o", out("ncu-nvtx"),
                    exe, "50"], capture_output=True, timeout=300)
    got = sorted(g for g, _ in ncu_kernels(opts, out("ncu-nvtx") + ".ncu-rep"))
    check("ncu --nvtx --nvtx-include step/: the window's three steps", got == [1030, 1031, 1032],
          f"grids {got}")


def check_ranks(opts, build):
    """train_ranks in 2 processes, nsys inside the launcher, a report per rank;
    train_threads: one thread per GPU, one report."""
    exe = f"{build}/samples/train_ranks"
    gpus = gpu_count()
    note(f"ranks: {gpus} GPU(s)")
    base = [opts.nsys, "profile", "-t", "cuda,nvtx", "--sample=none", "--cpuctxsw=none",
            "-c", "cudaProfilerApi", "--capture-range-end=stop", "-f", "true"]

    def launch(name, env, command_prefix=(), rank_var="RANK"):
        out = os.path.join(opts.out, name)
        for stale in glob.glob(out + "*"):
            os.remove(stale)
        command = [*command_prefix, *base, "-o", f"{out}.%q{{{rank_var}}}", exe]
        procs = []
        if command_prefix:  # the launcher starts the processes
            procs.append(subprocess.Popen(command, env=dict(os.environ, **env), text=True,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        else:               # no launcher: two processes with RANK=0/1
            for rank in (0, 1):
                procs.append(subprocess.Popen(command, env=dict(os.environ, RANK=str(rank), **env),
                                              text=True, stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT))
        logs = [p.communicate(timeout=300)[0] for p in procs]
        with open(out + ".log", "w") as f:
            f.write(" ".join(command) + "\n" + "\n".join(logs))
        done = sum(log.count("train_ranks: rank") for log in logs)
        return out, done

    def check_rank_report(tag, out, rank):
        path = f"{out}.{rank}.nsys-rep"
        if not os.path.exists(path):
            check(f"{tag}: rank {rank} report", False, f"no {path}")
            return
        db = sqlite3.connect(export(opts, path))
        got, devices, rng = len(kernels(db)), kernel_devices(db), ranges(db)
        check(f"{tag}: rank {rank}: 6 kernels on GPU {rank % gpus}, ranges step, step#30..32",
              got == 6 and devices == {rank % gpus} and rng == expected_ranges("step", [30, 31, 32]),
              f"{got} kernels on {devices}; ranges {rng}")

    out, done = launch("ranks", {})
    check("ranks: both processes ran to their end", done == 2, f"{done} finished")
    for rank in (0, 1):
        check_rank_report("ranks", out, rank)
    status, stdout = cli(opts, ["check", f"{out}.0.nsys-rep", f"{out}.1.nsys-rep"])
    last = stdout.splitlines()[-1:] or [""]
    check("cli check of both ranks' reports: the same steps",
          status == 0 and last[0] == "capture-window: all 2 ranks captured the same steps (step#30-32)",
          f"exit {status}; output {stdout[-600:]}")

    out, done = launch("ranks-only1", {"CAPTURE_WINDOW_RANKS": "1"})
    check("ranks CAPTURE_WINDOW_RANKS=1: both processes ran to their end", done == 2, f"{done}")
    check("ranks CAPTURE_WINDOW_RANKS=1: no report of rank 0",
          not os.path.exists(f"{out}.0.nsys-rep"), "rank 0 wrote a report")
    check_rank_report("ranks CAPTURE_WINDOW_RANKS=1", out, 1)

    # The launchers of docs/workflows.md, where the machine has them.
    torchrun = shutil.which("torchrun")
    if torchrun:
        out, done = launch("ranks-torchrun", {}, [torchrun, "--nproc-per-node", "2", "--no-python"])
        for rank in (0, 1):
            check_rank_report("torchrun", out, rank)
    else:
        note("ranks: no torchrun here, its recipe not run")
    mpirun = shutil.which("mpirun")
    if mpirun:
        env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
        out, done = launch("ranks-mpirun", env, [mpirun, "-np", "2"], "OMPI_COMM_WORLD_RANK")
        for rank in (0, 1):
            check_rank_report("mpirun", out, rank)
    else:
        note("ranks: no mpirun here, its recipe not run")

    run = Run(opts, "threads", f"{build}/samples/train_threads", [],
              ["-c", "cudaProfilerApi", "--capture-range-end=stop"])
    check("train_threads: one report", len(run.reports) == 1, f"{run.reports}")
    if run.reports:
        db = run.database(run.reports[0])
        devices = kernel_devices(db)
        per_thread = ranges_by_thread(db)
        window = {"step", "step#30", "step#31", "step#32"}
        check(f"train_threads: kernels of all {gpus} GPU(s)", devices == set(range(gpus)),
              f"devices {devices}")
        check("train_threads: every thread's window ranges",
              len(per_thread) == gpus and all(window <= set(r) for r in per_thread.values()),
              f"{ {t: r[:6] for t, r in per_thread.items()} }")


def window_kernels(steps, every):
    """gridX of the kernels steps_cuda's `every` mode launches in `steps`:
    its tag (1000 + s), its spin (2), and 10 more tags (1) when it evaluates."""
    out = []
    for s in steps:
        out += [1000 + s, 2] + ([1] * 10 if s > 0 and s % every == 0 else [])
    return sorted(out)


def window_steps(db):
    """The iterations of a report's step#i ranges, in order."""
    return sorted(int(t.split("#")[1]) for t in ranges(db) if t.startswith("step#"))


def check_cut(opts, exe):
    """Where to cut (docs/where-to-cut.md), with the real nsys: a loop that
    evaluates every 25 steps, planned by `capture-window plan` and captured
    with its periodic suggestion, then with CAPTURE_WINDOW=spike:3."""
    every, steps = 25, "200"
    status, stdout = cli(opts, ["plan", "--json", "--", exe, steps, "every", str(every)])
    try:
        loop = json.loads(stdout)["loops"][0]
    except (ValueError, LookupError):
        check("cut: plan --json", False, f"exit {status}; output {stdout[-600:]}")
        return
    note(f"cut: plan: warm-up ends at {loop['warmup_end']}, steady median "
         f"{loop['steady']['median_ns']} ns, spread {loop['steady']['spread_pct']}%, periodic "
         f"{loop['periodic']}, outliers {loop['outliers']}")
    found = [(e["every"], e["phase"]) for e in loop["periodic"]]
    check("cut: plan finds the evaluation every 25 steps, phase 0", found[:1] == [(every, 0)],
          f"periodic {loop['periodic']}")
    periodic = [s for s in loop["suggest"] if s["why"].startswith("every 25 steps")]
    check("cut: plan suggests CAPTURE_WINDOW=24:3/25x3",
          [s["env"] for s in periodic] == ["CAPTURE_WINDOW=24:3/25x3"], f"{loop['suggest']}")
    if periodic:
        note(f"cut: suggestion: {periodic[0]['nsys']}")
        env = dict([periodic[0]["env"].split("=", 1)])
        run = Run(opts, "cut-plan", exe, [steps, "every", str(every)],
                  ["-c", "cudaProfilerApi", "--capture-range-end=repeat:3"], env)
        check("cut: the suggestion writes 3 reports", len(run.reports) == 3, f"{run.reports}")
        for k, report in enumerate(run.reports[:3]):
            db = run.database(report)
            want = [24 + every * k, 25 + every * k, 26 + every * k]
            check(f"cut: report {k + 1} holds steps {want}, the evaluation's 10 kernels in the middle",
                  (window_steps(db), kernels(db)) == (want, window_kernels(want, every)),
                  f"steps {window_steps(db)}, kernels {kernels(db)}")
    run = Run(opts, "cut-spike", exe, [steps, "every", str(every)],
              ["-c", "cudaProfilerApi", "--capture-range-end=stop"],
              {"CAPTURE_WINDOW": "spike:3", "CAPTURE_WINDOW_VERBOSE": "1"})
    if not run.reports:
        check("cut: spike:3 writes a report", False, run.log[-600:])
        return
    db = run.database(run.reports[0])
    got = window_steps(db)
    note(f"cut: spike:3 captured steps {got}; "
         + "; ".join(l for l in run.log.splitlines() if "spike:" in l))
    check("cut: spike:3 holds three steps around an evaluation, with its kernels",
          len(got) == 3 and got[1] % every == 0 and got == list(range(got[0], got[0] + 3))
          and kernels(db) == window_kernels(got, every), f"steps {got}, kernels {kernels(db)}")
    check("cut: spike:3 opens at the first evaluation it can predict (124-126)",
          got == [124, 125, 126], f"steps {got}")


def export(opts, report):
    db = report[: -len(".nsys-rep")] + ".sqlite"
    if not os.path.exists(db):
        subprocess.run([opts.nsys, "export", "--type", "sqlite", "-f", "true", "-o", db, report],
                       capture_output=True, check=True, timeout=300)
    return db


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--nsys", default="nsys")
    parser.add_argument("--out", default="gpu-reports")
    parser.add_argument("--ncu", default="/usr/local/cuda/bin/ncu"
                        if os.path.exists("/usr/local/cuda/bin/ncu") else "ncu")
    parser.add_argument("--parts", default="static,shared,samples,sizes,cli,ranks,ncu,cut,judge,"
                        "teardown,teardown-nsys,signals,watch,diff",
                        help="comma list of the parts to run (all by default)")
    opts = parser.parse_args()
    opts.stats_done = False
    os.makedirs(opts.out, exist_ok=True)
    build, parts = opts.build, opts.parts.split(",")
    if "static" in parts:
        check_program(opts, f"{build}/tests/gpu/steps_cuda", "static-cudart")
    if "shared" in parts:
        check_program(opts, f"{build}/tests/gpu/steps_cuda_shared_rt", "shared-cudart")
    if "samples" in parts:
        check_sample(opts, f"{build}/samples/train_cuda", "train_cuda")
        check_sample(opts, f"{build}/samples/train_cuda_shared_rt", "train_cuda-shared-cudart")
    if "sizes" in parts:
        for steps in (2000, 20000):
            measure_sizes(opts, f"{build}/tests/gpu/steps_cuda", steps)
    if "cli" in parts:
        check_cli(opts, f"{build}/tests/gpu/steps_cuda")
    if "ranks" in parts:
        check_ranks(opts, build)
    if "ncu" in parts:
        check_ncu(opts, f"{build}/tests/gpu/steps_cuda")
    if "cut" in parts:
        check_cut(opts, f"{build}/tests/gpu/steps_cuda")
    if "judge" in parts:
        judge.check_judge(sys.modules[__name__], opts, f"{build}/tests/gpu/steps_cuda")
    for part in ("teardown", "teardown-nsys", "signals", "watch"):
        if part in parts:
            check = getattr(teardown, "check_" + part.replace("-", "_"))
            check(sys.modules[__name__], opts, f"{build}/tests/gpu/steps_cuda")
    if "diff" in parts:
        diff_gpu.check_diff(sys.modules[__name__], opts, f"{build}/samples/train_cuda")
    with open(os.path.join(opts.out, "measurements.txt"), "w") as f:
        f.write("\n".join(notes) + "\n")
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
