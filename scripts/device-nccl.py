#!/usr/bin/env python3
"""device-nccl.py - samples/train_nccl on the GPU machine, with the real
nsys (and ncu): the checks of docs/verification.md's NCCL section.

Run from the repository root after train_nccl was built (scripts/build.sh,
or built elsewhere and carried: --build names the folder holding
samples/train_nccl and runtime/libcapture_window.so.1):

    python3 scripts/device-nccl.py [--build build] [--nsys .device/nsys]
        [--ncu ncu] [--out /tmp/nccl-gr] [--ranks N]

With one GPU: one rank under nsys, both capture modes; each step of the
window holds forward, backward, NCCL's one-rank reduction (ncclAvg of one
rank is a kernel, oneRankReduce) and update. With fewer GPUs than
ranks, also two ranks sharing GPU 0 (each its own NCCL_HOSTID, over
sockets: untested before), even and with a straggler. With two or more GPUs, N
ranks (default 2), under mpirun and torchrun where present: both modes,
-o report.%q{OMPI_COMM_WORLD_RANK}; the ranks even, and a straggler
(TRAIN_NCCL_SLOW=1:4) named by `capture-window check`; CAPTURE_WINDOW_RANKS=1;
CAPTURE_WINDOW_SIGNAL + CAPTURE_WINDOW_ALIGN on a running job; ncu on one
step (docs/ncu.md's recipe). Prints PASS/FAIL per check (tests/gpu's
helpers), the verdict lines to OUT/measurements.txt; exits 1 on a failure.
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "gpu"))
import gpu_checks as g  # noqa: E402  (check, note, cli, gpu_count, ncu_kernels)

MPI_ROOT = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
MODES = {"cuda": ["-c", "cudaProfilerApi", "--capture-range-end=stop"],
         "nvtx": ["-c", "nvtx", "-p", "step", "--capture-range-end=stop"]}


def nsys(opts, *args):
    return [opts.nsys, "profile", "-t", "cuda,nvtx", "--sample=none", "--cpuctxsw=none",
            "-f", "true", *args]


def launch(opts, name, launcher, command, env=None, wait=True):
    """Runs LAUNCHER + COMMAND (a list each); its Popen, or its output once done."""
    for stale in glob.glob(os.path.join(opts.out, name) + ".*"):
        os.remove(stale)
    proc = subprocess.Popen([*launcher, *command], env=dict(os.environ, **MPI_ROOT, **(env or {})),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not wait:
        return proc
    out = proc.communicate(timeout=300)[0]
    with open(os.path.join(opts.out, name) + ".log", "w") as f:
        f.write(" ".join([*launcher, *command]) + "\n" + out)
    return out


def window_30(steps):
    return steps == [30, 31, 32]


def check_reports(opts, tag, reports, want_kernel, window=window_30):
    """capture-window check REPORTS: each ok, its steps as WINDOW wants,
    every step holding a kernel named WANT_KERNEL...; check's lines."""
    status, out = g.cli(opts, ["check", "--json", *reports])
    objects = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    per_report = [o for o in objects if "report" in o]
    for o in per_report:
        steps = {s["step"]: s["names"] for s in o.get("step_kernels") or []}
        names = sorted({n for ns in steps.values() for n in ns})
        has = all(any(want_kernel in n for n in ns) for ns in steps.values())
        g.check(f"{tag}: {os.path.basename(o['report'])} holds the window's steps with "
                f"{want_kernel} in every step", o["ok"] and window(o["steps"] or []) and has,
                f"{o['verdict']}; kernels {names}")
        g.note(f"{tag}: {os.path.basename(o['report'])}: {o['verdict']}; kernels {names}")
    g.check(f"{tag}: one report per rank", len(per_report) == len(reports), out[-600:])
    _, text = g.cli(opts, ["check", *reports])
    for line in text.splitlines():
        g.note(f"{tag}: {line}")
    return status, text.splitlines()


def one_rank(opts, exe):
    for mode, args in MODES.items():
        out = os.path.join(opts.out, f"one-{mode}")
        log = launch(opts, f"one-{mode}", [], nsys(opts, *args, "-o", out, exe, "50"),
                     {"WORLD_SIZE": "1", "RANK": "0", "LOCAL_RANK": "0"})
        g.check(f"1 rank, -c {mode}: the sample ran to its end", "rank 0 of 1 on GPU 0: done" in log,
                log[-600:])
        check_reports(opts, f"1 rank -c {mode}", [out + ".nsys-rep"], "oneRankReduce")


def share_gpu(opts, exe):
    """Two ranks on one GPU. NCCL refuses that ("Duplicate GPU detected")
    unless each rank claims another host (NCCL_HOSTID) and they talk over
    sockets: a stand-in for two GPUs, with real NCCL kernels, time-sliced."""
    for name, slow in (("share", ""), ("share-slow", "1:4")):
        out = os.path.join(opts.out, name)
        procs = [launch(opts, f"{name}-{r}", [], nsys(opts, *MODES["cuda"], "-o", f"{out}.{r}", exe, "50"),
                        {"RANK": str(r), "WORLD_SIZE": "2", "LOCAL_RANK": "0", "TRAIN_NCCL_SLOW": slow,
                         "NCCL_HOSTID": f"cw-rank{r}", "NCCL_SOCKET_IFNAME": "lo", "NCCL_IB_DISABLE": "1"},
                        wait=False) for r in (0, 1)]
        logs = [p.communicate(timeout=300)[0] for p in procs]
        with open(out + ".log", "w") as f:
            f.write("\n".join(logs))
        done = sum(" of 2 on GPU 0: done" in log for log in logs)
        g.check(f"{name}: 2 ranks on GPU 0 (NCCL_HOSTID) ran to their end", done == 2, logs[0][-600:])
        _, lines = check_reports(opts, name, [f"{out}.{r}.nsys-rep" for r in (0, 1)], "ncclDevKernel")
        if slow:
            g.check(f"{name}: TRAIN_NCCL_SLOW=1:4: check names rank 1 as the last at every all-reduce",
                    any(l.startswith("capture-window: rank 1 arrived last at every all-reduce")
                        for l in lines), "\n".join(lines[-5:]))


def ranks_job(opts, exe, launchers):
    """Both modes under each launcher; the ranks even; a straggler."""
    n = opts.ranks
    for launcher, rank_var, prefix in launchers:
        for mode, args in MODES.items():
            name = f"{launcher}-{mode}"
            out = os.path.join(opts.out, name)
            log = launch(opts, name, prefix, nsys(opts, *args, "-o", f"{out}.%q{{{rank_var}}}", exe, "50"))
            g.check(f"{name}: {n} ranks ran to their end", log.count(f" of {n} on GPU ") == n, log[-600:])
            reports = [f"{out}.{r}.nsys-rep" for r in range(n)]
            status, lines = check_reports(opts, name, reports, "ncclDevKernel")
            g.check(f"{name}: the ranks agree step by step",
                    f"capture-window: all {n} ranks captured the same steps (step#30-32)" in lines,
                    "\n".join(lines[-8:]))
            g.check(f"{name}: no straggler named (ranks even)",
                    any(" ranks even at every " in l for l in lines), "\n".join(lines[-5:]))
    launcher, rank_var, prefix = launchers[0]
    out = os.path.join(opts.out, "straggler")
    launch(opts, "straggler", prefix, nsys(opts, *MODES["cuda"], "-o", f"{out}.%q{{{rank_var}}}", exe, "50"),
           {"TRAIN_NCCL_SLOW": "1:4"})
    _, lines = check_reports(opts, "straggler", [f"{out}.{r}.nsys-rep" for r in range(n)], "ncclDevKernel")
    g.check("TRAIN_NCCL_SLOW=1:4: check names rank 1 as the last at every all-reduce",
            any(l.startswith("capture-window: rank 1 arrived last at every all-reduce") for l in lines),
            "\n".join(lines[-5:]))


def only_rank1(opts, exe, launcher):
    _, rank_var, prefix = launcher
    out = os.path.join(opts.out, "only1")
    launch(opts, "only1", prefix, nsys(opts, *MODES["cuda"], "-o", f"{out}.%q{{{rank_var}}}", exe, "50"),
           {"CAPTURE_WINDOW_RANKS": "1"})
    got = sorted(os.path.basename(p) for p in glob.glob(out + ".*.nsys-rep"))
    g.check("CAPTURE_WINDOW_RANKS=1: only rank 1's report", got == ["only1.1.nsys-rep"], f"{got}")


def signalled(opts, exe, launcher):
    """A running job, every rank signalled: the same steps, a multiple of 100."""
    _, rank_var, prefix = launcher
    out = os.path.join(opts.out, "signal")
    proc = launch(opts, "signal", prefix,
                  nsys(opts, "-c", "cudaProfilerApi", "--capture-range-end=repeat",
                       "-o", f"{out}.%q{{{rank_var}}}", exe, "20000"),
                  {"CAPTURE_WINDOW_SIGNAL": "USR1", "CAPTURE_WINDOW_ALIGN": "100"}, wait=False)
    pids = []
    for _ in range(120):   # every rank started; then a few seconds for NCCL's set-up
        pids = subprocess.run(["pgrep", "-x", os.path.basename(exe)], capture_output=True,
                              text=True).stdout.split()
        if len(pids) >= opts.ranks:
            break
        time.sleep(0.5)
    time.sleep(5)
    for pid in pids:   # the job's ranks: nothing else of that name runs here
        os.kill(int(pid), signal.SIGUSR1)
    log = proc.communicate(timeout=300)[0]
    with open(out + ".log", "w") as f:
        f.write(log)
    reports = sorted(glob.glob(out + ".*.nsys-rep"))
    g.check(f"signal: {len(pids)} ranks signalled, a report each", len(pids) == opts.ranks
            and len(reports) == opts.ranks, f"pids {pids}, reports {reports}")
    _, lines = check_reports(opts, "signal", reports, "ncclDevKernel",
                             lambda s: len(s) == 3 and s[0] % 100 == 0)
    same = [l for l in lines if "ranks captured the same steps" in l]
    g.check("CAPTURE_WINDOW_SIGNAL + ALIGN=100: every rank the same steps", bool(same), "\n".join(lines))


def ncu_step(opts, exe, launcher):
    """docs/ncu.md's NCCL recipe on one step of a 2-rank job."""
    if not shutil.which(opts.ncu) and not os.path.exists(opts.ncu):
        g.note("ncu: not found, not run")
        return
    _, rank_var, prefix = launcher
    out = os.path.join(opts.out, "ncu")
    n = opts.ranks
    launch(opts, "ncu", prefix, [opts.ncu, "--communicator", "tcp", "--communicator-tcp-num-peers",
                                 str(n), "--lockstep-kernel-launch", "--nvtx", "--profile-from-start",
                                 "off", "-f", "-o", f"{out}.%q{{{rank_var}}}", exe, "40"],
           {"CAPTURE_WINDOW_COUNT": "1"})
    for r in range(n):
        report = f"{out}.{r}.ncu-rep"
        names = [name for _, name in g.ncu_kernels(opts, report)] if os.path.exists(report) else []
        g.note(f"ncu rank {r}: {names}")
        g.check(f"ncu on step 30, rank {r}: forward, backward, the NCCL all-reduce, update",
                len(names) == 4 and any(n.startswith("ncclDevKernel") for n in names), f"{names}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--nsys", default=".device/nsys" if os.path.exists(".device/nsys") else "nsys")
    parser.add_argument("--ncu", default="/usr/local/cuda/bin/ncu")
    parser.add_argument("--out", default="/tmp/nccl-gr")
    parser.add_argument("--ranks", type=int, default=2)
    opts = parser.parse_args()
    opts.nsys = os.path.abspath(opts.nsys) if os.sep in opts.nsys else opts.nsys
    os.makedirs(opts.out, exist_ok=True)
    exe = os.path.abspath(f"{opts.build}/samples/train_nccl")
    # Its run path names the build folder where it was linked, maybe elsewhere.
    os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
        p for p in (os.path.abspath(f"{opts.build}/runtime"), os.environ.get("LD_LIBRARY_PATH")) if p)
    gpus = g.gpu_count()
    g.note(f"{gpus} GPU(s); {exe}")
    one_rank(opts, exe)
    if gpus < opts.ranks:
        g.note(f"{gpus} GPU(s) < {opts.ranks} ranks: the multi-rank checks not run")
        share_gpu(opts, exe)
    else:
        launchers = []
        if shutil.which("mpirun"):
            launchers.append(("mpirun", "OMPI_COMM_WORLD_RANK", ["mpirun", "-np", str(opts.ranks)]))
        if shutil.which("torchrun"):
            launchers.append(("torchrun", "RANK", ["torchrun", "--nproc-per-node", str(opts.ranks),
                                                   "--no-python"]))
        if not launchers:
            g.check("a launcher (mpirun or torchrun)", False, "neither found")
        else:
            ranks_job(opts, exe, launchers)
            only_rank1(opts, exe, launchers[0])
            signalled(opts, exe, launchers[0])
            ncu_step(opts, exe, launchers[0])
    with open(os.path.join(opts.out, "measurements.txt"), "w") as f:
        f.write("\n".join(g.notes) + "\n")
    print(f"{g.results['passed']} passed, {g.results['failed']} failed")
    return 1 if g.results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
