#!/usr/bin/env python3
"""teardown_test.py - how a process that ends inside a window leaves its
record, stderr and step times (runtime/teardown.c), and what several
processes given one step-time path or one pipe get (issue 41 items 3-6).

ends.cpp's loop has the window 14:5 and ends in step 15; each run is under
the NVTX recorder and the stand-in libcuda.so.1, with CAPTURE_WINDOW_TIMES,
and its record, exit status, stderr (verbose and the exit self-check) and
step times (read as `capture-window plan` reads them) are checked exactly.

Cases:
  term        `kill -TERM` while step 15 waits: the window closes (14-15),
              the process dies by SIGTERM, steps 0-15 are in the file
  int         the same with SIGINT
  handled     the program's own SIGTERM handler returns: when it has run,
              the file holds steps 0-14 already; the program goes on, the
              window closes at its planned end (14-18), steps 0-29
  ignored     SIGTERM ignored (SIG_IGN) before the program starts: it stays
              ignored, the run is as if unsignalled
  exit        exit(1) in step 15: the window closes at exit (14-15), steps
              0-15, the exit self-check names 14-15
  throw       an uncaught C++ exception in step 15 (std::terminate, then
              SIGABRT): steps 0-14 are written; the window range stays
              open (no unwinding ran), the profiler is not stopped
  fork        a child forked in step 15 and killed by SIGTERM closes none of
              its copies of the parent's windows, prints nothing, writes no
              step file; the parent's run is as if there were no child
  python_int  py_ends.py: loop() and SIGINT: KeyboardInterrupt closes the
              window, the process dies by SIGINT after cw_exit_v1 wrote
              the steps 0-15 and the self-check
  python_term the same with SIGTERM, which the runtime's handler closes
  python_raise  an uncaught exception in step 15 closes the window as it
              leaves loop(); exit status 1, steps 0-15 in the file
  python_exit sys.exit(1) in step 15: the same
  python_held sys.exit(1) in step 15 of a loop whose generator a variable
              holds: cw_exit_v1, among Python's atexit hooks, closes the
              window at exit (14-15); the generator freed later adds no
              event; steps 0-15
  two_processes  two processes given one CAPTURE_WINDOW_TIMES path, the
              second started while the first runs: the first keeps the
              path, all 30 of its steps; the second writes PATH.PID and
              says so; plan reads both
  ranks       RANK=0 and RANK=1 given one path without %r: PATH.0 and
              PATH.1, rank 0 says so, rank 1 is silent; plan reads both
  pipe        8 processes print some 1,000 verbose lines each, half of
              them ~2,000 bytes long, into one pipe at once: every line
              arrives whole (the exact multiset of lines)
  python_pipe 4 Python processes print the door's lines (capture_window/
              _say.py) into one socket that keeps each write(2) a message:
              two, under PYTHONUNBUFFERED=1, the zero edit's notes and
              end-of-run lines of 50 specs that name no file; two a 9 KB
              error line each. Every message is one whole line (print()
              would send each line's text and newline apart)
"""

import argparse
import collections
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "tools"))
sys.path.insert(0, os.path.join(ROOT, "cli"))
import check_trace  # noqa: E402
import run_program_test  # noqa: E402
import settings_line  # noqa: E402
from capture_window_cli.steptimes import read_times  # noqa: E402

WINDOW = {"step": [(14, 5)]}
SITE = r"\(\S*ends\.cpp:\d+\)"
LOG = "capture_window: "


class Failure(Exception):
    pass


def expect(what, actual, wanted):
    if actual != wanted:
        raise Failure("%s: %r, expected %r" % (what, actual, wanted))


class Runs:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.work_dir, a.case)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def env(self, record=None, **extra):
        env = {k: v for k, v in os.environ.items() if k not in run_program_test.CW_VARS}
        env["LD_LIBRARY_PATH"] = ":".join(
            [self.a.fakecuda_dir] + [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p])
        if record:
            env.update(NVTX_INJECTION64_PATH=self.a.recorder, CW_RECORD=record)
        env.update(extra)
        return env

    def start(self, argv, env, **kw):
        return subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, **kw)

    def times(self, path):
        """The steps of the file's only loop, as plan reads them."""
        loops = read_times([path])
        expect("loops in %s" % os.path.basename(path), len(loops), 1)
        return list(loops[0]["index"])

    def record(self, path, expected, open_at_exit=False):
        with open(path) as f:
            text = f.read()
        problems = check_trace.check(text, [expected], "both", WINDOW,
                                     open_at_exit=open_at_exit)
        if problems:
            raise Failure("record %s:\n  %s\n%s" % (path, "\n  ".join(problems), text))

    def stderr_lines(self, text, wanted):
        """The runtime's lines (those of the prefix) are exactly WANTED
        (regexes, in order), the settings line of these verbose runs aside."""
        lines = settings_line.without([l for l in text.splitlines() if l.startswith(LOG)], True)
        if isinstance(lines, str):
            raise Failure(lines)
        if len(lines) != len(wanted) or not all(
                re.fullmatch(w, l) for w, l in zip(wanted, lines)):
            raise Failure("stderr:\n  expected:\n    %s\n  actual:\n    %s" % (
                "\n    ".join(wanted), "\n    ".join(lines) or "(nothing)"))

    def ends(self, how, signal_to_send=None, expected_rc=0, preexec_fn=None):
        """ends.cpp HOW, verbose with its self-check; SIGNAL_TO_SEND once
        it waits in step 15. -> (stdout, stderr, record path, times path)."""
        record = os.path.join(self.work, "record")
        times = os.path.join(self.work, "steps")
        env = self.env(record, CAPTURE_WINDOW_TIMES=times, CAPTURE_WINDOW_VERBOSE="1",
                       CAPTURE_WINDOW_SELFCHECK="1")
        p = self.start([self.a.ends, how], env, preexec_fn=preexec_fn)
        said = []
        if signal_to_send:
            said.append(p.stdout.readline())
            expect("stdout", said[0], "waiting at 15\n")
            p.send_signal(signal_to_send)
            if how == "handled":
                said.append(p.stdout.readline())
                expect("stdout", said[1], "handled 1\n")
                # The runtime wrote the buffered steps before the handler ran.
                expect("steps written when the program's handler ran", self.times(times),
                       list(range(15)))
            elif how == "ignored":
                time.sleep(0.3)  # time to die, were it not ignored
        out, err = p.communicate("go\n", timeout=60)
        expect("exit status", p.returncode, expected_rc)
        return "".join(said) + out, err, record, times


def opening(thread=r"\d+"):
    return [LOG + r"loop 'step' \(\S*ends\.cpp:\d+, int main\(int, char\*\*\)\) is active",
            LOG + r"profiler started \(cuProfilerStart: 0\)",
            LOG + r"window opened: loop 'step' %s iteration 14, window 14:5, thread %s"
            % (SITE, thread),
            LOG + r"profiler stopped \(cuProfilerStop: 0\)"]


def closing(why, last, iterations):
    return [LOG + r"window closed%s: loop 'step' %s held iterations 14-%d, thread \d+"
            % (why, SITE, last),
            LOG + r"loop 'step' %s ran %d iterations; window 14-%d: median .*"
            % (SITE, iterations, last)]


def case_signal(r, name, sig):
    out, err, record, times = r.ends("wait", sig, -sig)
    expect("stdout", out, "waiting at 15\n")
    r.record(record, "step#0..13(.) S step[ step#14..15(.) ] E")
    r.stderr_lines(err, opening() + closing(" on " + name, 15, 16))
    expect("steps", r.times(times), list(range(16)))


def case_term(r):
    case_signal(r, "SIGTERM", signal.SIGTERM)


def case_int(r):
    case_signal(r, "SIGINT", signal.SIGINT)


def case_handled(r):
    out, err, record, times = r.ends("handled", signal.SIGTERM)
    expect("stdout", out, "waiting at 15\nhandled 1\ndone\n")
    r.record(record, "step#0..13(.) S step[ step#14..18(.) ] E step#19..29(.)")
    r.stderr_lines(err, opening() + closing("", 18, 30))
    expect("steps", r.times(times), list(range(30)))


def case_ignored(r):
    def ignore():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    out, err, record, times = r.ends("wait", signal.SIGTERM, 0, preexec_fn=ignore)
    expect("stdout", out, "waiting at 15\ndone\n")
    r.record(record, "step#0..13(.) S step[ step#14..18(.) ] E step#19..29(.)")
    r.stderr_lines(err, opening() + closing("", 18, 30))
    expect("steps", r.times(times), list(range(30)))


def case_exit(r):
    out, err, record, times = r.ends("exit", None, 1)
    r.record(record, "step#0..13(.) S step[ step#14..15(.) ] E")
    r.stderr_lines(err, opening() + closing(" at exit", 15, 16))
    expect("steps", r.times(times), list(range(16)))


def case_throw(r):
    out, err, record, times = r.ends("throw", None, -signal.SIGABRT)
    # No unwinding ran and the crash path stops no profiler: open ranges.
    events, problems = check_trace.parse_record(open(record).read())
    problems += check_trace.check_expected(events, ["step#0..13(.) S step[ step#14(.) step#15(."],
                                           open_at_exit=True)
    if problems:
        raise Failure("record %s:\n  %s" % (record, "\n  ".join(problems)))
    r.stderr_lines(err, opening()[:3])
    if "terminate called after throwing an instance of 'std::runtime_error'" not in err:
        raise Failure("stderr does not show the uncaught exception:\n" + err)
    expect("steps", r.times(times), list(range(15)))


def case_fork(r):
    out, err, record, times = r.ends("fork")
    expect("stdout", out, "child killed by 15\ndone\n")
    r.record(record, "step#0..13(.) S step[ step#14..18(.) ] E step#19..29(.)")
    r.stderr_lines(err, opening() + closing("", 18, 30))
    expect("steps", r.times(times), list(range(30)))
    expect("files", sorted(os.listdir(r.work)), ["record", "steps"])


def python_env(r, record=None, **extra):
    """What py_ends.py and the door need (r.env's RECORD and EXTRA too)."""
    return r.env(record, CW_MARK_LIBRARY=r.a.mark, CAPTURE_WINDOW_LIBRARY=r.a.runtime,
                 PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"),
                                             os.path.join(ROOT, "tests", "python", "harness")]),
                 **extra)


def case_python(r, how, rc, why, last_line=None):
    """py_ends.py HOW: exit status RC, the window closed WHY in step 15,
    LAST_LINE (Python's own) on stderr, steps 0-15 in the file."""
    record, times = os.path.join(r.work, "record"), os.path.join(r.work, "steps")
    env = python_env(r, record, CAPTURE_WINDOW_TIMES=times, CAPTURE_WINDOW_VERBOSE="1",
                     CAPTURE_WINDOW_SELFCHECK="1")
    p = r.start([sys.executable, os.path.join(HERE, "py_ends.py"), how], env)
    out, err = p.communicate(timeout=60)
    expect("exit status", p.returncode, rc)
    expect("stdout", out, "step 15\n")
    r.record(record, "step#0..13(.) S step[ step#14..15(.) ] E")
    site = r"\(\S*py_ends\.py:\d+\)"
    r.stderr_lines(err, [
        LOG + r"loop 'step' \(\S*py_ends\.py:\d+, <module>\) is active",
        LOG + r"profiler started \(cuProfilerStart: 0\)",
        LOG + r"window opened: loop 'step' %s iteration 14, window 14:5, thread \d+" % site,
        LOG + r"profiler stopped \(cuProfilerStop: 0\)",
        LOG + r"window closed%s: loop 'step' %s held iterations 14-15, thread \d+"
        % (why, site),
        LOG + r"loop 'step' %s ran 16 iterations; window 14-15: median .*" % site])
    if last_line and last_line not in err.splitlines():
        raise Failure("no %r on stderr:\n%s" % (last_line, err))
    expect("steps", r.times(times), list(range(16)))


def case_python_int(r):
    case_python(r, "INT", -signal.SIGINT, " early, loop left", "KeyboardInterrupt")


def case_python_term(r):
    case_python(r, "TERM", -signal.SIGTERM, " on SIGTERM")


def case_python_raise(r):
    case_python(r, "raise", 1, " early, loop left", "RuntimeError: diverged at step 15")


def case_python_exit(r):
    case_python(r, "exit", 1, " early, loop left")


def case_python_held(r):
    case_python(r, "held", 1, " at exit")


def plan_reads(r, paths):
    """`capture-window plan --from` reads every file (exit 0, each named)."""
    p = subprocess.run([sys.executable, os.path.join(ROOT, "cli", "capture-window"), "plan",
                        "--from"] + paths, capture_output=True, text=True, timeout=60)
    expect("plan's exit status (stderr: %s)" % p.stderr.strip(), p.returncode, 0)
    for path in paths:
        if os.path.basename(path) not in p.stdout:
            raise Failure("plan does not name %s:\n%s" % (path, p.stdout))


def case_two_processes(r):
    path = os.path.join(r.work, "steps")
    env = r.env(CAPTURE_WINDOW_TIMES=path)
    first = r.start([r.a.ends, "wait"], env)
    expect("first's stdout", first.stdout.readline(), "waiting at 15\n")
    second = r.start([r.a.ends, "wait"], env)
    expect("second's stdout", second.stdout.readline(), "waiting at 15\n")
    outs = [p.communicate("go\n", timeout=60) for p in (first, second)]
    expect("exit statuses", [first.returncode, second.returncode], [0, 0])
    own = "%s.%d" % (path, second.pid)
    expect("first's stderr", outs[0][1], "")
    expect("second's stderr", outs[1][1],
           "%sCAPTURE_WINDOW_TIMES: '%s' is being written by another process; process %d "
           "writes its steps to '%s'\n" % (LOG, path, second.pid, own))
    expect("files", sorted(os.listdir(r.work)), sorted(["steps", os.path.basename(own)]))
    expect("the first's steps", r.times(path), list(range(30)))
    expect("the second's steps", r.times(own), list(range(30)))
    plan_reads(r, [path, own])


def case_ranks(r):
    path = os.path.join(r.work, "steps")
    runs = [r.start([r.a.ends, "wait"], r.env(CAPTURE_WINDOW_TIMES=path, RANK=str(rank)))
            for rank in (0, 1)]
    for p in runs:
        expect("stdout", p.stdout.readline(), "waiting at 15\n")
    outs = [p.communicate("go\n", timeout=60) for p in runs]
    expect("exit statuses", [p.returncode for p in runs], [0, 0])
    expect("rank 0's stderr", outs[0][1],
           "%sCAPTURE_WINDOW_TIMES='%s' names no rank and RANK is set: each rank writes its "
           "own file, %s.%%r (here '%s.0'); put %%r in the path to place the rank elsewhere\n"
           % (LOG, path, path, path))
    expect("rank 1's stderr", outs[1][1], "")
    expect("files", sorted(os.listdir(r.work)), ["steps.0", "steps.1"])
    for rank in (0, 1):
        expect("rank %d's steps" % rank, r.times("%s.%d" % (path, rank)), list(range(30)))
    plan_reads(r, [path + ".0", path + ".1"])


PROCESSES, ITERATIONS = 8, 1000


def expected_lines(pid, site):
    yield LOG + "loop 'step' (%s, main) is active" % site[1:-1]
    for i in range(0, ITERATIONS, 2):
        yield LOG + "profiler started (cuProfilerStart: 0)"
        yield LOG + "window opened: loop 'step' %s iteration %d, window %d:1, thread %d" % (
            site, i, i, pid)
        yield LOG + "profiler stopped (cuProfilerStop: 0)"
        yield LOG + "window closed: loop 'step' %s held iterations %d-%d, thread %d" % (
            site, i, i, pid)


def case_pipe(r):
    env = r.env(CAPTURE_WINDOW="0:1/2", CAPTURE_WINDOW_VERBOSE="1", CAPTURE_WINDOW_SELFCHECK="0")
    read_end, write_end = os.pipe()
    at = "%.3f" % (time.time() + 1.0)
    runs = [subprocess.Popen([r.a.lines, str(ITERATIONS), at], env=env, stdout=write_end,
                             stderr=write_end) for _ in range(PROCESSES)]
    os.close(write_end)
    chunks = []
    with os.fdopen(read_end, "rb") as f:
        while True:
            chunk = f.read1(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    expect("exit statuses", [p.wait(timeout=60) for p in runs], [0] * PROCESSES)
    lines = b"".join(chunks).decode().split("\n")
    expect("the text's end", lines.pop(), "")
    shown, lines = settings_line.split(lines)
    expect("the settings lines, one per process, whole", (len(shown), len(set(shown))),
           (PROCESSES, 1))
    active = [l for l in lines if l.endswith(" is active") and l.startswith(LOG)]
    if not active:
        raise Failure("no line says the loop is active: %r" % lines[:3])
    site = "(" + re.match(r"capture_window: loop 'step' \((.*), main\)", active[0]).group(1) + ")"
    longest = max(len(l) for l in lines)
    if not 1500 < longest < 4000:
        raise Failure("the longest line has %d bytes, not the ~2,000 the test needs" % longest)
    wanted = collections.Counter()
    for p in runs:
        wanted.update(expected_lines(p.pid, site))
    got = collections.Counter(lines)
    if got != wanted:
        extra, missing = got - wanted, wanted - got
        raise Failure("%d lines not expected (cut or mixed), %d expected lines missing; e.g.\n"
                      "  %s" % (sum(extra.values()), sum(missing.values()),
                                "\n  ".join(l[:200] for l in list(extra)[:3])))
    print("%d lines, %d of %d bytes, whole" % (len(lines), len(lines) // 2, longest))


# The door's lines the python_pipe case makes, each its own write(2).
DOOR_LINES = {
    "note": re.compile(r"capture_window: note: --loop (\S+): no file .* before the run; its "
                       r"loop is marked if a module whose path ends in \S+ is imported\n"),
    "unused": re.compile(r"capture_window: --loop (\S+) matched no loop in this run; "
                         r"no module whose path ends in \S+ was imported\n"),
    "too long": re.compile(r"capture_window: bad value '(\S+)' for --loop: the value is too "
                           r"long .*\n")}
SPECS = 50


def case_python_pipe(r):
    # A SOCK_SEQPACKET socket stands in for the pipe: it hands each write(2)
    # over as a message of its own, so a line written in two parts is seen
    # as two even when no other process wrote in between (on a pipe, a
    # matter of timing). Every message must be one whole line.
    reader, writer = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    door = [sys.executable, "-m", "capture_window"]
    runs, wanted = [], collections.Counter()
    for n in range(4):
        if n % 2 == 0:
            # Unbuffered, print(TEXT) writes TEXT, then the newline.
            specs = ["gone_%d_%d.py:1" % (n, k) for k in range(SPECS)]
            argv = door + [w for s in specs for w in ("--loop", s)]
            argv += [os.path.join(HERE, "py_ends.py"), "end"]
            env, rc = python_env(r, PYTHONUNBUFFERED="1"), 0
            wanted.update((kind, s) for s in specs for kind in ("note", "unused"))
        else:
            # Buffered, print() passes a text over 8 KiB on before its newline.
            spec = "%s_%d.py:1" % ("y" * 9000, n)
            argv = door + ["--loop", spec, os.path.join(HERE, "py_ends.py"), "end"]
            env, rc = python_env(r), 2
            wanted[("too long", spec)] += 1
        runs.append((subprocess.Popen(argv, env=env, cwd=r.work, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=writer), rc))
    writer.close()
    reader.settimeout(60)
    got, longest = collections.Counter(), 0
    while True:
        message = reader.recv(1 << 20).decode()
        if not message:  # every process closed its stderr
            break
        for kind, line in DOOR_LINES.items():
            whole = line.fullmatch(message)
            if whole:
                got[(kind, whole.group(1))] += 1
                break
        else:
            raise Failure("a write(2) that is not one whole line of the door's: %r"
                          % message[:300])
        longest = max(longest, len(message))
    expect("exit statuses", [p.wait(timeout=60) for p, _ in runs], [rc for _, rc in runs])
    if got != wanted:
        raise Failure("lines missing: %s; lines more than once: %s"
                      % (sorted(wanted - got)[:3], sorted(got - wanted)[:3]))
    print("%d lines, each one write(2), the longest %d bytes" % (sum(got.values()), longest))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True)
    ap.add_argument("--ends", required=True)
    ap.add_argument("--lines", required=True)
    ap.add_argument("--mark", default=None)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--fakecuda-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    try:
        globals()["case_" + a.case](Runs(a))
    except Failure as e:
        print("FAIL: teardown.%s: %s" % (a.case, e))
        return 1
    print("teardown.%s: ok" % a.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
