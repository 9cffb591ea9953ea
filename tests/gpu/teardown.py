"""teardown.py - parts `teardown` and `signals` of gpu_checks.py: what a
launcher's stop and an on-demand request do to a capture under the real
nsys (issue 41 items 1-3).

`steps_cuda STEPS every 1000000` spins about 0.2 ms a step (steps_cuda.cu),
so a window of 100000 steps from step 200 is open for many seconds: long
enough to stop the job in the middle of it. Checked:

- teardown: SIGTERM to the program inside
  `nsys profile -c cudaProfilerApi --capture-range-end=stop`. The report
  holds every step from 200 to the last one begun, each with its kernel and
  its `step#i` range, and the registered `step` range; the runtime's line
  says the window closed at the signal; the step file holds the steps up to
  it.
- teardown-nsys: the same SIGTERM sent to nsys instead (what srun and
  mpirun do when nsys is the task they started): recorded, not judged, as
  what nsys does with it.
- signals: SIGUSR1 sent to nsys, then to the program itself, with
  CAPTURE_WINDOW_SIGNAL=USR1: whether nsys passes it on is recorded; the
  program's own arms a window of 3 steps at a multiple of 100.
- watch: CAPTURE_WINDOW_WATCH and `capture-window trigger --align 100`
  under nsys: the report holds exactly the 3 steps the trigger's answer
  names.
"""
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time

SPIN_ARGS = ["every", "1000000"]  # about 0.25 ms a step, no evaluation


class Job:
    """nsys profile ... steps_cuda, its stderr read line by line as it runs."""

    def __init__(self, g, opts, exe, name, steps, env, nsys_args=("-c", "cudaProfilerApi",
                                                                   "--capture-range-end=stop")):
        self.out = os.path.join(opts.out, name)
        self.exe = os.path.abspath(exe)
        command = [opts.nsys, "profile", "-t", "cuda,nvtx", "--sample=none", "--cpuctxsw=none",
                   "-f", "true", "-o", self.out, *nsys_args, self.exe, str(steps), *SPIN_ARGS]
        self.lines = []
        self.proc = subprocess.Popen(command, env=dict(os.environ, **env), text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.g, self.opts = g, opts
        self.log = open(self.out + ".log", "w")
        self.log.write(" ".join(command) + "\n")

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line)

    def wait_for(self, pattern, seconds=60):
        """The first line matching PATTERN, waiting up to SECONDS for it."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            for line in list(self.lines):
                if re.search(pattern, line):
                    return line
            if self.proc.poll() is not None and not self.reader.is_alive():
                return None
            time.sleep(0.05)
        return None

    def program_pid(self):
        """The pid of the program nsys started (not nsys's own processes)."""
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv and os.path.abspath(argv[0].decode(errors="replace")) == self.exe:
                return int(entry)
        return None

    def finish(self, seconds=300):
        try:
            self.proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=10)
        text = "".join(self.lines)
        self.log.write(text + f"[exit {self.proc.returncode}]\n")
        self.log.close()
        return text

    def report_steps(self):
        """(kernel steps, step#i ranges, whether the registered range is there) of the report."""
        report = self.out + ".nsys-rep"
        if not os.path.exists(report):
            return None
        db = sqlite3.connect(self.g.export(self.opts, report))
        grids = [x for x in self.g.kernels(db) if 1000 <= x < 2000000]
        texts = self.g.ranges(db)
        return ([x - 1000 for x in grids], sorted(int(t.split("#")[1]) for t in texts
                                                  if t.startswith("step#")), "step" in texts)


def held(line):
    m = re.search(r"held iterations (\d+)-(\d+)", line or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def check_teardown(g, opts, exe):
    steps_file = os.path.join(opts.out, "teardown.steps")
    env = {"CAPTURE_WINDOW": "200:100000", "CAPTURE_WINDOW_VERBOSE": "1",
           "CAPTURE_WINDOW_TIMES": steps_file}
    job = Job(g, opts, exe, "teardown", 400000, env)
    opened = job.wait_for(r"window opened")
    time.sleep(1.0)
    pid = job.program_pid()
    if pid:
        os.kill(pid, signal.SIGTERM)
    text = job.finish()
    closed = held(job.wait_for(r"window closed", 1))
    g.check("teardown: the window opened and the program got SIGTERM", bool(opened and pid),
            text[-2000:])
    g.check("teardown: the runtime closed the window at the signal", closed is not None
            and closed[0] == 200 and closed[1] > 200, text[-2000:])
    found = job.report_steps()
    g.check("teardown: nsys wrote a report", found is not None, text[-2000:])
    if found:
        g.note(f"teardown: report of SIGTERM to the program: {len(found[0])} kernels, "
               f"{len(found[1])} step ranges, window range {found[2]}")
    if found and closed:
        kernel_steps, range_steps, window_range = found
        want = list(range(200, closed[1] + 1))
        g.check("teardown: the report holds every step of the window up to the signal",
                kernel_steps == want and range_steps == want and window_range,
                f"kernels {kernel_steps[:3]}..{kernel_steps[-3:]} ({len(kernel_steps)}), "
                f"ranges {range_steps[:3]}..{range_steps[-3:]} ({len(range_steps)}), "
                f"window range {window_range}, held {closed}")
        g.note(f"teardown: SIGTERM {1.0:.1f} s into window 200:100000 held steps "
               f"{closed[0]}-{closed[1]}; report: {len(kernel_steps)} kernels, "
               f"{len(range_steps)} step ranges; nsys exit {job.proc.returncode}")
    plan = subprocess.run([sys.executable, "cli/capture-window", "plan", "--from", steps_file,
                           "--json"], capture_output=True, text=True)
    last = re.findall(r'"iterations":\s*(\d+)', plan.stdout)
    g.note(f"teardown: plan --from the step file: exit {plan.returncode}, iterations {last}")
    if closed:
        g.check("teardown: the step file holds the steps up to the signal",
                plan.returncode == 0 and last and int(last[0]) >= closed[1],
                plan.stdout[-800:] + plan.stderr[-800:])


def check_teardown_nsys(g, opts, exe):
    env = {"CAPTURE_WINDOW": "200:100000", "CAPTURE_WINDOW_VERBOSE": "1"}
    job = Job(g, opts, exe, "teardown-nsys", 400000, env)
    job.wait_for(r"window opened")
    time.sleep(1.0)
    job.proc.send_signal(signal.SIGTERM)
    text = job.finish()
    found = job.report_steps()
    closed = held(job.wait_for(r"window closed", 1))
    g.note(f"teardown-nsys: SIGTERM to nsys: exit {job.proc.returncode}, runtime "
           f"{'closed the window, held %d-%d' % closed if closed else 'said no window closed'}, "
           f"report {'with %d kernels, %d step ranges' % (len(found[0]), len(found[1])) if found else 'none'}")


def check_signals(g, opts, exe):
    env = {"CAPTURE_WINDOW_SIGNAL": "USR1", "CAPTURE_WINDOW_ALIGN": "100",
           "CAPTURE_WINDOW_VERBOSE": "1"}
    job = Job(g, opts, exe, "signals", 60000, env)
    job.wait_for(r"is active")
    time.sleep(1.0)
    job.proc.send_signal(signal.SIGUSR1)
    through_nsys = job.wait_for(r"armed at iteration", 3)
    g.note(f"signals: SIGUSR1 to nsys {'reached' if through_nsys else 'did not reach'} "
           f"the program: {(through_nsys or '').strip()}")
    time.sleep(1.0)
    pid = job.program_pid()
    if pid and not through_nsys:
        os.kill(pid, signal.SIGUSR1)
    armed = job.wait_for(r"armed at iteration", 5)
    text = job.finish()
    at = re.search(r"armed at iteration (\d+)", armed or "")
    g.check("signals: SIGUSR1 arms a window at a multiple of 100", bool(at)
            and int(at.group(1)) % 100 == 0, text[-2000:])
    found = job.report_steps()
    if at and found:
        want = list(range(int(at.group(1)), int(at.group(1)) + 3))
        g.check("signals: the report holds the 3 armed steps", found[0] == want
                and found[1] == want, f"{found[0][:10]} {found[1][:10]}, want {want}")


def check_watch(g, opts, exe):
    request = os.path.join(opts.out, "watch.request")
    env = {"CAPTURE_WINDOW_WATCH": request, "CAPTURE_WINDOW": "none",
           "CAPTURE_WINDOW_VERBOSE": "1"}
    job = Job(g, opts, exe, "watch", 60000, env)
    job.wait_for(r"is active")
    time.sleep(1.0)
    trigger = subprocess.run([sys.executable, "cli/capture-window", "trigger", request,
                              "--align", "100", "--count", "3", "--wait", "20"],
                             capture_output=True, text=True, timeout=60)
    text = job.finish()
    with open(os.path.join(opts.out, "watch.trigger.log"), "w") as f:
        f.write(trigger.stdout + trigger.stderr + f"[exit {trigger.returncode}]\n")
    m = re.search(r"held steps (\d+)-(\d+)", trigger.stdout)
    g.check("watch: trigger --wait says every rank held its steps", trigger.returncode == 0
            and bool(m), trigger.stdout + trigger.stderr + text[-1500:])
    found = job.report_steps()
    if m and found:
        want = list(range(int(m.group(1)), int(m.group(2)) + 1))
        g.check("watch: the report holds exactly the steps trigger names",
                found[0] == want and found[1] == want, f"{found[0][:10]} {found[1][:10]}, "
                f"want {want}")
        g.note(f"watch: {trigger.stdout.strip().splitlines()[-1]}")
