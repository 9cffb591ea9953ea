#!/usr/bin/env python3
"""launchers_test.py - jobs under real launchers (srun, sbatch, mpirun,
torchrun), every rank under the NVTX recorder with its own record
(CW_RECORD=DIR/rec.%q{RANKVAR}), each checked with check_trace.py for the
exact events: which ranks hold a window and which steps it holds; and that
each active rank wrote its own step-times file (CAPTURE_WINDOW_TIMES=
DIR/steps.%r) with every step in it.

A case is one row of CASES: the launcher, the program (rank_program.c
built with the GCC plugin, or rank_program.py through loop() or the zero
edit), the variables, what is done to the running job, and each rank's
window. Slurm cases run in a private cluster (cluster.py) that the case
starts and stops.

Exit status 77 (CTest's skip), with the reason, only when a launcher the
case needs is not installed.
"""
import argparse
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "tools"))
sys.path.insert(0, os.path.join(here, "..", "..", "cli"))
import check_trace  # noqa: E402
import cluster  # noqa: E402
import namespaces  # noqa: E402
from capture_window_cli import steptimes  # noqa: E402

STEPS = 24
STEP_US = 20000
PRAGMA = (10, 3)               # rank_program's window, and the zero edit's
PYTHON = "/usr/bin/python3"    # the ranks' (--python): Debian's, the one python3-torch is for
TORCH_VERSION = ("import sys, torch.distributed.run; "
                 "print('torch %s, Python %s' % (torch.__version__, sys.version.split()[0]))")
RANK_VAR = {"srun": "SLURM_PROCID", "srun2": "SLURM_PROCID", "sbatch": "OMPI_COMM_WORLD_RANK",
            "mpirun": "OMPI_COMM_WORLD_RANK", "torchrun": "RANK"}
ZERO_EDIT_LINE = next(n for n, line in enumerate(open(os.path.join(here, "rank_program.py")), 1)
                      if "# the plain loop" in line)


def pragma(rank):
    return PRAGMA


def at(start):
    return lambda rank: (start, PRAGMA[1])


def only(selected, window=PRAGMA):
    return lambda rank: window if rank in selected else None


WATCH_AT = 20
# name: (launcher, program, ranks, variables, action, each rank's window)
CASES = {
    "srun.ranks_c": ("srun", "c", 4, {"CAPTURE_WINDOW_RANKS": "1,3"}, None, only({1, 3})),
    "srun.zero_edit": ("srun", "zero_edit", 4, {"CAPTURE_WINDOW_RANKS": "0-1"}, None,
                       only({0, 1})),
    "sbatch.mpirun_c": ("sbatch", "c", 4, {"CAPTURE_WINDOW_RANKS": "2-3"}, None, only({2, 3})),
    "mpirun.loop": ("mpirun", "loop", 4, {"CAPTURE_WINDOW_RANKS": "0,3"}, None, only({0, 3})),
    "mpirun.zero_edit": ("mpirun", "zero_edit", 4, {}, None, pragma),
    "torchrun.loop": ("torchrun", "loop", 2, {"CW_GLOO": "1"}, None, pragma),
    "torchrun.zero_edit": ("torchrun", "zero_edit", 2, {"CAPTURE_WINDOW_RANKS": "1"}, None,
                           only({1})),
    "torchrun.c": ("torchrun", "c", 2, {"CAPTURE_WINDOW": "4:2"}, None, lambda rank: (4, 2)),
    # The zero edit in ranks that all-reduce through gloo: the python
    # suite's python.torchrun, with the torch of each Debian (1.13, 2.14).
    "torchrun.zero_edit_gloo": ("torchrun", "zero_edit", 2, {"CW_GLOO": "1"}, None, pragma),
    # Signal-armed windows: every rank holds in step 5 until the signal.
    "srun.scancel_usr1": ("srun", "c", 4, {"CAPTURE_WINDOW_SIGNAL": "USR1",
                                           "CAPTURE_WINDOW_ALIGN": "8"}, "scancel-usr1", at(8)),
    "sbatch.scancel_batch_usr1": ("sbatch-self", "c", 1, {"CAPTURE_WINDOW_SIGNAL": "USR1"},
                                  "scancel-batch-usr1", at(6)),
    "mpirun.kill_usr1": ("mpirun", "c", 4, {"CAPTURE_WINDOW_SIGNAL": "USR1",
                                            "CAPTURE_WINDOW_ALIGN": "8"}, "kill-usr1", at(8)),
    "srun.kill_usr1": ("srun", "c", 4, {"CAPTURE_WINDOW_SIGNAL": "USR1"}, "kill-usr1", at(6)),
    # The program handles SIGUSR1 itself (Lightning's requeue): both run,
    # and the runtime says so once per rank (OWN_HANDLER_WARNING).
    "srun.own_usr1_handler": ("srun", "loop", 4, {"CAPTURE_WINDOW_SIGNAL": "USR1",
                                                  "CAPTURE_WINDOW_ALIGN": "8",
                                                  "CW_OWN_USR1": "1"}, "scancel-usr1", at(8)),
    # CAPTURE_WINDOW_WATCH: every rank holds in step 5 until all have read
    # `capture-window trigger PATH --at 20 --wait 60`; every rank holds 20-22.
    "srun.watch_c": ("srun", "c", 4, {}, "watch", at(WATCH_AT)),
    "srun.watch_loop": ("srun", "loop", 4, {}, "watch", at(WATCH_AT)),
    "srun.watch_zero_edit": ("srun", "zero_edit", 4, {}, "watch", at(WATCH_AT)),
    "mpirun.watch_c": ("mpirun", "c", 4, {}, "watch", at(WATCH_AT)),
    "mpirun.watch_loop": ("mpirun", "loop", 4, {}, "watch", at(WATCH_AT)),
    "mpirun.watch_zero_edit": ("mpirun", "zero_edit", 4, {}, "watch", at(WATCH_AT)),
    "torchrun.watch_c": ("torchrun", "c", 2, {}, "watch", at(WATCH_AT)),
    "torchrun.watch_loop": ("torchrun", "loop", 2, {}, "watch", at(WATCH_AT)),
    "torchrun.watch_zero_edit": ("torchrun", "zero_edit", 2, {}, "watch", at(WATCH_AT)),
    # Teardown: every rank holds in step 11 of its window 10-12 when the
    # launcher stops the job with SIGTERM; the window closes there (step
    # 11's range ends, the window's is popped, the profiler stops).
    "srun.scancel_term": ("srun", "c", 4, {}, "scancel-term", pragma),
    "sbatch.scancel_term": ("sbatch", "loop", 4, {}, "scancel-term", pragma),
    "mpirun.kill_term": ("mpirun", "zero_edit", 4, {}, "kill-term", pragma),
    "torchrun.kill_term": ("torchrun", "c", 2, {}, "kill-term", pragma),
    # Across nodes: two slurmd hosts of the test's own (namespaces.py), two
    # ranks on each; a request and scancel's signal reach both.
    "nodes.watch_c": ("srun2", "c", 4, {}, "watch", at(WATCH_AT)),
    "nodes.scancel_usr1": ("srun2", "c", 4, {"CAPTURE_WINDOW_SIGNAL": "USR1",
                                             "CAPTURE_WINDOW_ALIGN": "8"}, "scancel-usr1", at(8)),
}
TEARDOWN = ("scancel-term", "kill-term")
TEARDOWN_STEP = 11
HOLD_STEP = 5
OWN_HANDLER_WARNING = (
    "capture_window: CAPTURE_WINDOW_SIGNAL: the program already handles SIGUSR1; its handler "
    "runs after ours on every SIGUSR1 sent to arm a window. To arm windows with no signal, use "
    "CAPTURE_WINDOW_WATCH=PATH and `capture-window trigger PATH`")


class Job:
    """One launched job: its stdout lines as they come, signals, the end."""

    def __init__(self, argv, env, slurm=None, batch_output=None):
        self.slurm, self.batch_output, self.lines, self.partial = slurm, batch_output, [], ""
        print("$ " + " ".join(argv), flush=True)
        if batch_output:  # sbatch: the job's output goes to a file
            out = slurm.run(argv, env=env)
            if out.returncode != 0:
                raise SystemExit("FAIL: sbatch: %s" % out.stderr)
            self.job = out.stdout.strip()
            self.proc = None
        else:
            self.proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True)

    def said(self, text):
        """How often the job printed TEXT (anywhere: mpirun may merge lines)."""
        return "\n".join(self.lines + [self.partial]).count(text)

    def wait_for_lines(self, count, text, timeout=60):
        deadline = time.monotonic() + timeout
        while self.said(text) < count:
            if time.monotonic() > deadline:
                self.kill()
                raise SystemExit("FAIL: %d rank(s) did not print %r: %r" % (
                    count - self.said(text), text, self.lines))
            if self.proc:  # a job that hangs fails here, not at CTest's timeout
                ready, _, _ = select.select([self.proc.stdout], [], [], 1)
                if not ready:
                    continue
                chunk = os.read(self.proc.stdout.fileno(), 65536).decode()
                if not chunk:
                    raise SystemExit("FAIL: the job ended before %r: %r\n%s" % (
                        text, self.lines, self.proc.stderr.read()))
                self.partial += chunk
                *whole, self.partial = self.partial.split("\n")
                self.lines += whole
            else:
                time.sleep(0.1)
                if os.path.exists(self.batch_output):
                    with open(self.batch_output) as f:
                        self.lines = f.read().splitlines()

    def slurm_job(self):
        """The job's id: the private cluster runs no other."""
        return self.slurm.run(["squeue", "-h", "-o", "%i"]).stdout.split()[0]

    def act(self, action):
        """What the case does to the running job."""
        if action == "scancel-term":
            self.slurm.run(["scancel", self.slurm_job()], check=True)
        elif action == "kill-term":
            self.proc.send_signal(signal.SIGTERM)
        elif action == "scancel-usr1":
            self.slurm.run(["scancel", "--signal=USR1", self.slurm_job()], check=True)
        elif action == "scancel-batch-usr1":
            self.slurm.run(["scancel", "--batch", "--signal=USR1", self.job], check=True)
        elif action == "kill-usr1":
            self.proc.send_signal(signal.SIGUSR1)

    def finish(self, timeout=90):
        """Waits for the end; returns (exit status, stdout lines, stderr)."""
        if self.proc:
            try:
                out, err = self.proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                raise SystemExit("FAIL: the job did not end within %d s" % timeout)
            self.lines += (self.partial + out).splitlines()
            return self.proc.returncode, self.lines, err
        deadline = time.monotonic() + timeout
        while not self.slurm.job_done(self.job):
            if time.monotonic() > deadline:
                raise SystemExit("FAIL: batch job %s did not end" % self.job)
            time.sleep(0.2)
        state = self.slurm.run(["scontrol", "show", "job", self.job]).stdout
        with open(self.batch_output) as f:
            self.lines = f.read().splitlines()
        code = 0 if "ExitCode=0:0" in state else 1
        return code, self.lines, state

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()


class Trigger:
    """`capture-window trigger PATH --at WATCH_AT --wait 60` while every rank
    holds; once each rank's answers (PATH.answers/RANK) say it read the
    request, the go file lets the ranks on."""

    def __init__(self, a, env, ranks, nodes=None):
        self.path, self.ranks, self.nodes = env["CAPTURE_WINDOW_WATCH"], ranks, nodes
        argv = [a.cli, "trigger", self.path, "--at", str(WATCH_AT), "--wait", "60"]
        print("$ capture-window " + " ".join(argv[1:]), flush=True)
        self.proc = subprocess.Popen([sys.executable] + argv, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        first = self.proc.stdout.readline()
        self.request = first.split()[1] if first.startswith("request ") else None
        print(first, end="")
        deadline = time.monotonic() + 30
        while self.request and not all(self.read(r) for r in range(ranks)):
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        open(env["CW_GO_FILE"], "w").close()

    def read(self, rank):
        try:
            with open(os.path.join(self.path + ".answers", str(rank))) as f:
                return "read id=%s" % self.request in f.read().splitlines()
        except OSError:
            return False

    def finish(self):
        """trigger's summary, status and stderr against every rank holding
        WATCH_AT and the pragma's COUNT after it; a list of problems."""
        out, err = self.proc.communicate(timeout=90)
        print(out, end="")
        last = PRAGMA[1] + WATCH_AT - 1
        want = (0, "%d of %d ranks held steps %d-%d" % (self.ranks, self.ranks, WATCH_AT, last),
                "")
        got = (self.proc.returncode, (out.splitlines() or [""])[-1], err)
        if not self.request:
            return ["trigger wrote no request: %r %r" % (out, err)]
        problems = [] if got == want else ["trigger --wait: %r, expected %r" % (got, want)]
        if self.nodes:  # block distribution: ranks 0-1 on the first node, 2-3 on the second
            per_node = self.ranks // len(self.nodes)
            rows = [line.split()[:2] for line in out.splitlines()[1:-1]]
            hosts = [[str(r), self.nodes[r // per_node]] for r in range(self.ranks)]
            if rows != hosts:
                problems.append("trigger --wait's rows (rank, host) %r, expected %r" % (
                    rows, hosts))
        return problems


def hold_step(action):
    return TEARDOWN_STEP if action in TEARDOWN else HOLD_STEP


def rank_argv(a, program, action):
    """The program and its arguments, as every rank runs it: it holds in
    step HOLD_STEP when the case acts on the running job (TEARDOWN_STEP
    when it stops it)."""
    hold = [str(hold_step(action)), "hold"] if action else []
    if program == "c":
        return [a.program, str(STEPS), str(STEP_US)] + hold
    script = os.path.join(here, "rank_program.py")
    ms = str(STEP_US / 1000)
    if program == "loop":
        return [a.python, script, "wrapper", str(STEPS), ms] + hold
    spec = "rank_program.py:%d:%d:%d" % ((ZERO_EDIT_LINE,) + PRAGMA)
    return [a.python, "-m", "capture_window", "--loop", spec, script, "plain", str(STEPS),
            ms] + hold


def launch_argv(launcher, ranks, argv, work, python):
    root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
    # mpirun sends SIGKILL 1 s after the SIGTERM it forwards
    # (odls_base_sigkill_timeout); on a busy machine a rank may not have run
    # its handler by then.
    mpirun = ["mpirun", "--oversubscribe", "--mca", "odls_base_sigkill_timeout", "3"] + root + [
        "-np", str(ranks)]
    if launcher == "srun":
        return ["srun", "-n", str(ranks)] + argv
    if launcher == "srun2":
        return ["srun", "-N", "2", "--ntasks-per-node", str(ranks // 2)] + argv
    if launcher == "mpirun":
        return mpirun + argv
    if launcher == "torchrun":
        # torchrun.py: torch.distributed.run, on a torch without libuv too
        run = [python, os.path.join(here, "torchrun.py"), "--nproc_per_node", str(ranks),
               "--master_addr", "127.0.0.1", "--master_port", str(cluster.free_port()),
               "--redirects", "9:0", "--tee", "9:0"]
        return run + (argv[1:] if argv[0] == python else ["--no_python"] + argv)
    script = os.path.join(work, "job.sh")  # sbatch: mpirun inside, or the program itself
    with open(script, "w") as f:
        f.write("#!/bin/bash\nexec %s\n" % " ".join(
            (mpirun if launcher == "sbatch" else []) + argv))
    return ["sbatch", "--parsable", "-n", str(ranks), "-o", os.path.join(work, "job.out"),
            script]


def missing(launcher, program, python):
    """Why the case cannot run here (a launcher is not installed), or None."""
    if launcher.startswith("s"):
        why = cluster.absent() or (launcher == "srun2" and namespaces.absent())
        if why:
            return why
    if launcher in ("mpirun", "sbatch") and not shutil.which("mpirun"):
        return "OpenMPI's mpirun is not installed (apt-get install openmpi-bin)"
    if (launcher == "torchrun" or program != "c") and not os.path.exists(python):
        return "%s is not installed" % python
    if launcher == "torchrun":
        said = subprocess.run([python, "-c", TORCH_VERSION], capture_output=True, text=True)
        if said.returncode != 0:
            return "%s cannot import torch.distributed.run (apt-get install python3-torch)" % (
                python)
        print(said.stdout, end="")  # what the case runs with
    return None


def environment(a, case_vars, launcher, records, slurm):
    """The job's variables: the case's, the recorder's, and SLURM_CONF."""
    env = {k: v for k, v in (slurm.env if slurm else os.environ).items()
           if not k.startswith("CAPTURE_WINDOW")}
    env.update(CW_RECORD=records + ".%q{" + RANK_VAR.get(launcher, "SLURM_PROCID") + "}",
               NVTX_INJECTION64_PATH=a.recorder, CW_MARK_LIBRARY=a.mark,
               CAPTURE_WINDOW_LIBRARY=a.runtime, PYTHONPATH=a.package,
               PYTHONDONTWRITEBYTECODE="1", GLOO_SOCKET_IFNAME="lo",
               USE_LIBUV="0",  # Debian's torch 2.x has no libuv (no_libuv.py)
               LD_LIBRARY_PATH=a.fakecuda_dir + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
               **case_vars)
    return env


def run_case(a, name, slurm):
    launcher, program, ranks, case_vars, action, window_of = CASES[name]
    work = os.path.join(a.work_dir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    records = os.path.join(work, "rec")
    env = environment(a, case_vars, launcher, records, slurm)
    env["CAPTURE_WINDOW_TIMES"] = os.path.join(work, "steps.%r")
    if action == "watch":
        env.update(CAPTURE_WINDOW_WATCH=os.path.join(work, "cw.watch"),
                   CW_GO_FILE=os.path.join(work, "go"))
    print("variables: %s" % " ".join("%s=%s" % kv for kv in sorted(case_vars.items())))
    argv = launch_argv(launcher, ranks, rank_argv(a, program, action), work, a.python)
    if launcher.startswith("srun"):  # sbatch goes through slurm.run, which adds it
        argv = slurm.client + argv
    job = Job(argv, env, slurm, os.path.join(work, "job.out") if launcher.startswith("sbatch")
              else None)
    problems = []
    if action:
        job.wait_for_lines(ranks, "reached step %d" % hold_step(action))
    if action == "watch":
        trigger = Trigger(a, env, ranks, slurm.nodes if launcher == "srun2" else None)
    elif action:
        job.act(action)
    code, lines, err = job.finish()
    if action == "watch":
        problems += trigger.finish()
    stopped = action in TEARDOWN
    if (code != 0) != stopped:
        problems.append("the job ended with %d: %s" % (code, err))
    # What the ranks said, found in the text: a launcher that merges the
    # ranks' output (mpirun's) may put one rank's line inside another's.
    said = sorted(re.findall(r"done \d+ steps(?:, \d+ in the job)?|own SIGUSR1 handler installed"
                             r"|own handler ran \d+ time\(s\)", "\n".join(lines)))
    want = [] if stopped else expected_output(program, case_vars, ranks)
    if said != want:
        problems.append("the ranks printed %r, expected %r" % (said, want))
    warned = [line for line in err.splitlines() if "CAPTURE_WINDOW_SIGNAL" in line]
    if warned != [OWN_HANDLER_WARNING] * ranks * ("CW_OWN_USR1" in case_vars):
        problems.append("the runtime's warnings about SIGUSR1: %r" % warned)
    steps = TEARDOWN_STEP + 1 if stopped else STEPS
    held, more = check_trace.check_rank_records(records, ranks, steps, window_of)
    problems += more
    print("each rank's window held steps: %s" % held)
    problems += check_step_files(work, ranks, window_of, steps)
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


def expected_output(program, case_vars, ranks):
    """What the ranks print of their own, in order of lines."""
    if program == "c":
        return ["done %d steps" % STEPS] * ranks
    total = STEPS * ranks if case_vars.get("CW_GLOO") else STEPS
    own = ["own SIGUSR1 handler installed"] if case_vars.get("CW_OWN_USR1") else []
    ran = ["own handler ran 1 time(s)"] if own else []
    return sorted((own + ran + ["done %d steps, %d in the job" % (STEPS, total)]) * ranks)


def check_step_files(work, ranks, window_of, steps):
    """CAPTURE_WINDOW_TIMES=WORK/steps.%r: each active rank (one with a
    window) wrote its own file, which holds every step, 0 to STEPS-1 (a
    job stopped by SIGTERM: every step up to the signal); an unselected
    rank wrote none."""
    want = {"steps.%d" % r for r in range(ranks) if window_of(r)}
    got = {f for f in os.listdir(work) if f.startswith("steps.")}
    problems = [] if got == want else ["step files %s, expected %s" % (sorted(got), sorted(want))]
    for name in sorted(got & want):
        indexes = [list(loop["index"]) for loop in steptimes.read_file(os.path.join(work, name))]
        print("%s: steps %s" % (name, ", ".join("%d-%d" % (i[0], i[-1]) for i in indexes if i)))
        if indexes != [list(range(steps))]:
            problems.append("%s holds the steps %s, expected 0-%d" % (name, indexes, steps - 1))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--program", help="rank_program, built with the GCC plugin (C cases)")
    ap.add_argument("--python", default=PYTHON,
                    help="the ranks' Python, with torch for torchrun (default %(default)s)")
    ap.add_argument("--package", required=True, help="the folder holding capture_window")
    ap.add_argument("--runtime", required=True, help="libcapture_window.so")
    ap.add_argument("--mark", required=True, help="the Python scripts' mark library")
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--fakecuda-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--cli", required=True, help="the capture-window command")
    a = ap.parse_args()
    launcher, program = CASES[a.case][:2]
    if program == "c" and not a.program:
        ap.error("--case %s runs rank_program: give --program" % a.case)
    why = missing(launcher, program, a.python)
    if why:
        print("skipped: " + why)
        return 77
    if not launcher.startswith("s"):
        return run_case(a, a.case, None)
    with cluster.Cluster(os.path.join(a.work_dir, a.case + ".slurm"),
                         nodes=2 if launcher == "srun2" else 1) as slurm:
        return run_case(a, a.case, slurm)


if __name__ == "__main__":
    sys.exit(main())
