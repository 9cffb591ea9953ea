#!/usr/bin/env python3
"""ranks_test.py - one MPI job of 8 ranks (tests/ranks/ranks_program.c)
under mpirun and the NVTX recorder; every rank writes its own record
(CW_RECORD=DIR/rec.%q{OMPI_COMM_WORLD_RANK}) and each is checked with
check_trace.py like a program test's.

Cases:
  align    CAPTURE_WINDOW_SIGNAL=USR1 CAPTURE_WINDOW_ALIGN=32: rank R sees
           the signal (sent once to mpirun, which forwards it to every rank)
           in iteration 3R+1, yet every rank's window holds steps 32-35.
  skewed   the same without CAPTURE_WINDOW_ALIGN: rank R's window opens at
           the next boundary, 3R+2, so the ranks' windows differ (what
           ALIGN is for).
  select   CAPTURE_WINDOW_RANKS=0,4-7 with the pragma's window 10:4: ranks
           0 and 4-7 record it, ranks 1-3 no event from the runtime (only
           the program's own marks).

Exit status 77 (CTest's skip) when mpirun is not there.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import check_trace  # noqa: E402

RANKS = 8
STEPS = 48           # ranks_program.c's loop
PRAGMA = (10, 4)     # its pragma's window
SUM = STEPS * (STEPS - 1) // 2


CASES = {
    "align": ({"CAPTURE_WINDOW_SIGNAL": "USR1", "CAPTURE_WINDOW_ALIGN": "32"}, True,
              lambda rank: (32, PRAGMA[1])),
    "skewed": ({"CAPTURE_WINDOW_SIGNAL": "USR1"}, True,
               lambda rank: (3 * rank + 2, PRAGMA[1])),
    "select": ({"CAPTURE_WINDOW_RANKS": "0,4-7"}, False,
               lambda rank: PRAGMA if rank == 0 or rank >= 4 else None),
}


def run_job(a, env_vars, wait_for_signal, records):
    """Runs the job; returns its stdout lines. With wait_for_signal, sends
    SIGUSR1 to mpirun once every rank said it waits."""
    env = dict(os.environ, CW_RECORD=records + ".%q{OMPI_COMM_WORLD_RANK}",
               NVTX_INJECTION64_PATH=a.recorder,
               LD_LIBRARY_PATH=a.fakecuda_dir + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
               **env_vars)
    for k in [k for k in env if k.startswith("CAPTURE_WINDOW") and k not in env_vars]:
        del env[k]
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    cmd = [a.mpirun, "--oversubscribe"] + root + ["-np", str(RANKS), a.program] + (["--wait-for-signal"] if wait_for_signal else [])
    print("$ " + " ".join("%s=%s" % kv for kv in env_vars.items()) + " " + " ".join(cmd))
    job = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    deadline = time.monotonic() + 60
    if wait_for_signal:
        while sum(line.endswith(" waiting") for line in lines) < RANKS:
            line = job.stdout.readline()
            if not line or time.monotonic() > deadline:
                job.kill()
                raise SystemExit("FAIL: the ranks did not all reach their wait: %r" % lines)
            lines.append(line.rstrip("\n"))
        job.send_signal(signal.SIGUSR1)
    out, err = job.communicate(timeout=60)
    lines += out.splitlines()
    if job.returncode != 0:
        raise SystemExit("FAIL: mpirun exited with %d\n%s" % (job.returncode, err))
    return lines


def check_case(a, name):
    env_vars, wait_for_signal, window_of = CASES[name]
    work = os.path.join(a.work_dir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    records = os.path.join(work, "rec")
    lines = run_job(a, env_vars, wait_for_signal, records)
    problems = []
    handled = 1 if wait_for_signal else 0
    want = sorted("rank %d: sum %d, job total %d, handler ran %d time(s)"
                  % (r, SUM, SUM * RANKS, handled) for r in range(RANKS))
    got = sorted(line for line in lines if ": sum " in line)
    if got != want:
        problems.append("program output %r, expected %r" % (got, want))
    held, more = check_trace.check_rank_records(records, RANKS, STEPS, window_of)
    problems += more
    print("each rank's window held steps: %s" % held)
    if name == "align" and len({tuple(s) for s in held.values()}) != 1:
        problems.append("the ranks' windows differ: %s" % held)
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--program", help="ranks_program, built with the plugin and MPI")
    ap.add_argument("--mpirun", default="mpirun")
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--fakecuda-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    mpirun = shutil.which(a.mpirun)
    if not mpirun or not a.program:
        print("skipped: needs OpenMPI's mpirun and mpicc (apt-get install openmpi-bin libopenmpi-dev)")
        return 77
    a.mpirun = mpirun
    return check_case(a, a.case)


if __name__ == "__main__":
    sys.exit(main())
