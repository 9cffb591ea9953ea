#!/usr/bin/env python3
"""watch_test.py - CAPTURE_WINDOW_WATCH and `capture-window trigger`: local
processes with RANK set (watch_program.c, or watch_program.py through
loop() and the zero edit), each under the NVTX recorder with its own record
and CAPTURE_WINDOW_STEPS=window (so that outside windows the loop calls the
runtime only when the watcher lowers attention_at). The ranks pause at
chosen iterations (watch_program.c); requests are written while they
pause, and they go on once each rank's answers say its watcher read them,
so each loop sees a request in the iteration after its pause.

Cases (4 ranks, 48 steps, the pragma's window 10:4, which the watch
replaces):
  at          rank R pauses at 3R+1; `trigger --at 20 --wait`: every rank
              holds 20-23, and the exact table and summary line, status 0
  align       `trigger --align 16 --count 2` (no --wait: what it wrote):
              ranks seeing it at 2, 5, 8, 11 all hold 16-17
  past        `trigger --at 5 --wait`: ranks 0-1 (seeing it at 2 and 5)
              hold 5-8, ranks 2-3 (at 8 and 11) open nothing and say so on
              stderr and in their answers; the table, status 1
  replaced    request A (--at 40) then B (--at 20) before the loops run
              again: they act on B only; then C (--at 30) while B's window
              is armed: C replaces it; one window, 30-33
  once        a half-written request (no `end` line) lies in PATH for two
              polls: never read; a whole one (--at 12) opens 12-15; the
              loops run on for two more polls of the same request and do
              not open again
  label       2 ranks with CAPTURE_WINDOW=25:10: a request for loops
              labelled eval is read and passed over; one for `step` at 30,
              inside the listed window 25-34, is missed (why=window)
  bad_input   trigger's bad arguments: exit status 2 and the exact message
  python_loop       2 ranks of loop(): at (--at 20 --wait)
  python_zero_edit  2 ranks of the zero edit: align (--align 16)
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import check_trace  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 48
SUM = STEPS * (STEPS - 1) // 2
HOST = socket.gethostname()


class Job:
    """N ranks of the program, each with its own pipes and record."""

    def __init__(self, a, work, ranks, pauses, door="c", extra_env=None):
        self.a, self.work, self.n = a, work, ranks
        self.path = os.path.join(work, "cw.watch")
        self.procs = []
        for r in range(ranks):
            env = {k: v for k, v in os.environ.items() if not k.startswith("CAPTURE_WINDOW")}
            env.update(RANK=str(r), CAPTURE_WINDOW_WATCH=self.path, CAPTURE_WINDOW_STEPS="window",
                       CW_RECORD=os.path.join(work, "rec.%d" % r),
                       NVTX_INJECTION64_PATH=a.recorder,
                       LD_LIBRARY_PATH=a.fakecuda_dir + ":" + os.environ.get("LD_LIBRARY_PATH", ""))
            env.update(extra_env or {})
            args = [str(STEPS)] + [str(p) for p in pauses(r)]
            if door == "c":
                cmd = [a.program] + args
            else:
                env.update(CW_MARK_LIBRARY=a.mark, CAPTURE_WINDOW_LIBRARY=a.runtime,
                           PYTHONPATH=os.pathsep.join([a.python_door, os.path.join(
                               HERE, "..", "python", "harness")]))
                script = os.path.join(HERE, "watch_program.py")
                cmd = ([sys.executable, script, "loop"] if door == "loop" else
                       [sys.executable, "-m", "capture_window", "--loop",
                        "watch_program.py:29:10:4", script, "plain"]) + args
            err = open(os.path.join(work, "stderr.%d" % r), "w")
            self.procs.append(subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE,
                                               stdout=subprocess.PIPE, stderr=err, text=True))

    def pause(self, at):
        """Waits until rank r says it pauses at at(r)."""
        for r, p in enumerate(self.procs):
            line = p.stdout.readline().rstrip("\n")
            if line != "rank %d pauses at %d" % (r, at(r)):
                self.kill()
                raise SystemExit("FAIL: rank %d said %r, expected its pause at %d" % (r, line, at(r)))

    def go(self):
        for p in self.procs:
            p.stdin.write("\n")
            p.stdin.flush()

    def answers(self, r):
        try:
            with open(os.path.join(self.path + ".answers", str(r))) as f:
                return f.read().splitlines()
        except OSError:
            return []

    def await_read(self, request_id, deadline_s=15):
        """Waits until every rank's watcher read REQUEST_ID."""
        deadline = time.monotonic() + deadline_s
        while not all("read id=" + request_id in self.answers(r) for r in range(self.n)):
            if time.monotonic() > deadline:
                self.kill()
                raise SystemExit("FAIL: not every rank read %s: %r" % (
                    request_id, [self.answers(r) for r in range(self.n)]))
            time.sleep(0.05)

    def finish(self):
        """Every rank's stdout after its pauses; fails on a bad exit."""
        outs = []
        for r, p in enumerate(self.procs):
            out, _ = p.communicate(timeout=60)
            if p.returncode != 0:
                raise SystemExit("FAIL: rank %d exited with %d: %s" % (r, p.returncode,
                                                                        self.stderr(r)))
            outs.append(out.splitlines())
        return outs

    def stderr(self, r):
        with open(os.path.join(self.work, "stderr.%d" % r)) as f:
            return f.read()

    def kill(self):
        for p in self.procs:
            p.kill()


def trigger(a, *args, wait=False):
    """capture-window trigger; with wait, the running process."""
    cmd = [sys.executable, a.cli, "trigger"] + [str(x) for x in args]
    env = dict(os.environ, PYTHONPATH=a.python_door, CAPTURE_WINDOW_LIBRARY=a.runtime)
    print("$ " + " ".join(cmd[1:]))
    if wait:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
    return subprocess.run(cmd, env=env, capture_output=True, text=True)


def written_id(stdout_line):
    """The id of 'request ID written to PATH: ...'."""
    words = stdout_line.split()
    if len(words) < 4 or words[0] != "request" or words[2:4] != ["written", "to"]:
        raise SystemExit("FAIL: trigger said %r" % stdout_line)
    return words[1]


def request_of(proc):
    """The id a running `trigger --wait` wrote (its first line)."""
    return written_id(proc.stdout.readline())


def expectation(window):
    """A rank's record: its window (check_trace's notation), or with none
    every step's range and no window."""
    if window is None:
        return "step#0..%d(.)" % (STEPS - 1)
    return check_trace.one_window(STEPS, window)


def check_ranks(job, windows, outs, door="c"):
    """Each rank's record holds exactly WINDOWS[r] (None: no window)."""
    problems = []
    for r in range(job.n):
        want = ["rank %d: sum %d" % (r, SUM)]
        got = [line for line in outs[r] if ": sum " in line]
        if got != want:
            problems.append("rank %d printed %r, expected %r" % (r, got, want))
        with open(os.path.join(job.work, "rec.%d" % r)) as f:
            text = f.read()
        w = windows[r]
        problems += ["rank %d: %s" % (r, p) for p in check_trace.check(
            text, [expectation(w)], mode="both", windows={"step": [w] if w else []},
            steps="window", expected_steps="all")]
        held = check_trace.held_steps(text)
        print("rank %d held %s" % (r, held))
    return problems


def answers_of(job, r, request_id):
    """Rank r's answer lines about REQUEST_ID, without the thread field."""
    lines = []
    for line in job.answers(r):
        if "id=%s " % request_id in line + " ":
            lines.append(" ".join(w for w in line.split() if not w.startswith("thread=")))
    return lines


def expect_equal(problems, what, got, want):
    if got != want:
        problems.append("%s:\n  got  %r\n  want %r" % (what, got, want))


def start(a, name, ranks, pauses, door="c", extra_env=None):
    work = os.path.join(a.work_dir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return Job(a, work, ranks, pauses, door, extra_env)


def table_lines(rows):
    """The rows (rank, seen, held) as trigger --wait prints them here."""
    width = max(len("host"), len(HOST))
    seen_w = max(len("seen at"), *(len(s) for _, s, _ in rows))
    out = ["rank  %s  %s  held" % ("host".ljust(width), "seen at".ljust(seen_w))]
    out += ["%s  %s  %s  %s" % (str(r).ljust(4), HOST.ljust(width), s.ljust(seen_w), h)
            for r, s, h in rows]
    return out


def wait_for_ranks(a, job, *args):
    """`trigger PATH ARGS --wait 60` while rank R pauses at 3R+1: the
    request's id, the ranks' stdout, and trigger's stdout and stderr (its
    status in waiting.returncode)."""
    job.pause(lambda r: 3 * r + 1)
    waiting = trigger(a, job.path, *args, "--wait", 60, wait=True)
    request = request_of(waiting)
    job.await_read(request)
    job.go()
    outs = job.finish()
    return (request, outs, waiting) + waiting.communicate(timeout=90)


def case_at(a, ranks=4, door="c"):
    job = start(a, "at" if door == "c" else "python_loop", ranks, lambda r: [3 * r + 1], door)
    request, outs, waiting, out, err = wait_for_ranks(a, job, "--at", 20)
    problems = check_ranks(job, [(20, 4)] * ranks, outs, door)
    expect_equal(problems, "trigger --wait's output", out.splitlines(),
                 table_lines([(r, str(3 * r + 2), "20-23") for r in range(ranks)])
                 + ["%d of %d ranks held steps 20-23" % (ranks, ranks)])
    expect_equal(problems, "its status and stderr", (waiting.returncode, err), (0, ""))
    for r in range(ranks):
        expect_equal(problems, "rank %d's answers" % r, answers_of(job, r, request), [
            "read id=%s" % request,
            "seen id=%s loop=step step=%d at=20 count=4" % (request, 3 * r + 2),
            "opened id=%s loop=step step=20" % request,
            "held id=%s loop=step first=20 last=23" % request])
    return problems


def case_align(a, ranks=4, door="c"):
    job = start(a, "align" if door == "c" else "python_zero_edit", ranks, lambda r: [3 * r + 1],
                door)
    job.pause(lambda r: 3 * r + 1)
    done = trigger(a, job.path, "--align", 16, "--count", 2)
    request = written_id(done.stdout)
    problems = []
    expect_equal(problems, "trigger's output", (done.returncode, done.stdout, done.stderr), (
        0, "request %s written to %s: open at the next multiple of 16, 2 steps, every active "
        "loop\n" % (request, job.path), ""))
    job.await_read(request)
    job.go()
    problems += check_ranks(job, [(16, 2)] * ranks, job.finish(), door)
    for r in range(ranks):
        expect_equal(problems, "rank %d's answers" % r, answers_of(job, r, request)[1:2],
                     ["seen id=%s loop=step step=%d at=16 count=2" % (request, 3 * r + 2)])
    return problems


def case_past(a):
    job = start(a, "past", 4, lambda r: [3 * r + 1])
    request, outs, waiting, out, _ = wait_for_ranks(a, job, "--at", 5)
    problems = check_ranks(job, [(5, 4), (5, 4), None, None], outs)
    expect_equal(problems, "trigger --wait's output", out.splitlines(), table_lines(
        [(0, "2", "5-8"), (1, "5", "5-8"), (2, "8", "missed: step 5 was past"),
         (3, "11", "missed: step 5 was past")]) + [
        "2 of 4 ranks held steps 5-8; not held: rank 2 (missed: step 5 was past), "
        "rank 3 (missed: step 5 was past)"])
    expect_equal(problems, "its status", waiting.returncode, 1)
    for r in (2, 3):
        said = [line for line in job.stderr(r).splitlines() if "watch:" in line]
        expect_equal(problems, "rank %d's stderr" % r, [
            " ".join(line.split(", thread")[0].split()) for line in said], [
            "capture_window: watch: request %s: loop 'step' (%s:23) does not open at "
            "iteration 5: it was past when the loop saw the request (iteration %d)"
            % (request, os.path.join(HERE, "watch_program.c"), 3 * r + 2)])
        expect_equal(problems, "rank %d's answers" % r, answers_of(job, r, request), [
            "read id=%s" % request,
            "missed id=%s loop=step step=%d at=5 why=past" % (request, 3 * r + 2)])
    return problems


def case_replaced(a):
    job = start(a, "replaced", 4, lambda r: [1, 12])
    job.pause(lambda r: 1)
    first = written_id(trigger(a, job.path, "--at", 40).stdout)
    job.await_read(first)
    second = written_id(trigger(a, job.path, "--at", 20).stdout)
    job.await_read(second)
    job.go()
    job.pause(lambda r: 12)
    third = written_id(trigger(a, job.path, "--at", 30).stdout)
    job.await_read(third)
    job.go()
    problems = check_ranks(job, [(30, 4)] * 4, job.finish())
    for r in range(4):
        expect_equal(problems, "rank %d's answers" % r, [
            answers_of(job, r, first), answers_of(job, r, second), answers_of(job, r, third)], [
            ["read id=%s" % first],
            ["read id=%s" % second, "seen id=%s loop=step step=2 at=20 count=4" % second,
             "replaced id=%s loop=step step=13 by=%s" % (second, third)],
            ["read id=%s" % third, "seen id=%s loop=step step=13 at=30 count=4" % third,
             "opened id=%s loop=step step=30" % third,
             "held id=%s loop=step first=30 last=33" % third]])
    return problems


def case_once(a):
    job = start(a, "once", 4, lambda r: [1, 8, 30])
    job.pause(lambda r: 1)
    with open(job.path, "w") as f:   # a request cut before its end line
        f.write("capture-window request 1\nid=half\nat=12\n")
    time.sleep(2.5)                  # two polls
    job.go()
    job.pause(lambda r: 8)
    problems = []
    for r in range(4):
        expect_equal(problems, "rank %d's answers to the half request" % r,
                     [line.split()[0] for line in job.answers(r)], ["watching"])
    request = written_id(trigger(a, job.path, "--at", 12).stdout)
    job.await_read(request)
    job.go()
    job.pause(lambda r: 30)
    time.sleep(2.5)                  # two more polls of the same request
    job.go()
    problems += check_ranks(job, [(12, 4)] * 4, job.finish())
    for r in range(4):
        got = [line.split()[0] for line in job.answers(r)]
        expect_equal(problems, "rank %d's answer lines" % r, got,
                     ["watching", "read", "seen", "opened", "held"])
        expect_equal(problems, "rank %d's first line" % r, job.answers(r)[0],
                     "watching rank=%d host=%s pid=%d" % (r, HOST, job.procs[r].pid))
    return problems


def case_label(a):
    job = start(a, "label", 2, lambda r: [1, 10], extra_env={"CAPTURE_WINDOW": "25:10"})
    job.pause(lambda r: 1)
    other = written_id(trigger(a, job.path, "--at", 20, "--label", "eval").stdout)
    job.await_read(other)
    job.go()
    job.pause(lambda r: 10)
    covered = written_id(trigger(a, job.path, "--at", 30, "--label", "step").stdout)
    job.await_read(covered)
    job.go()
    problems = check_ranks(job, [(25, 10)] * 2, job.finish())
    for r in range(2):
        expect_equal(problems, "rank %d's answers" % r, [
            answers_of(job, r, other), answers_of(job, r, covered)], [
            ["read id=%s" % other],
            ["read id=%s" % covered, "seen id=%s loop=step step=11 at=30 count=4" % covered,
             "missed id=%s loop=step step=34 at=30 why=window" % covered]])
    return problems


def case_bad_input(a):
    work = os.path.join(a.work_dir, "bad_input")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    path = os.path.join(work, "cw.watch")
    synopsis = ("usage: capture-window trigger PATH (--at STEP | --align N) [--count C] "
                "[--label L] [--wait SECONDS]")
    cases = [
        ([path], "give one of --at STEP and --align N"),
        ([path, "--at", "3", "--align", "4"], "give one of --at STEP and --align N"),
        (["--at", "3"], "PATH is missing: the file the ranks watch (CAPTURE_WINDOW_WATCH)"),
        ([path, "--at", "x3"], "--at must be a decimal number from 0 to 2^62, got 'x3'"),
        ([path, "--align", "0"], "--align must be a decimal number from 1 to 2^62, got '0'"),
        ([path, "--at", "3", "--count", "0"], "--count must be a decimal number from 1 to 2^62, got '0'"),
        ([path, "--at", str((1 << 62) + 1)],
         "--at must be a decimal number from 0 to 2^62, got '%d'" % ((1 << 62) + 1)),
        ([path, "--at", "3", "--label", "no space"],
         "--label must match [A-Za-z0-9_.-]{1,63}, got 'no space'"),
        ([path, "--at", "3", "--wait", "soon"],
         "--wait takes seconds (a number >= 0), got 'soon'"),
        ([path, "--at"], "--at needs a value"),
        ([path, "--at", "3", "--every", "2"], "unknown option '--every'"),
        ([os.path.join(work, "no", "such"), "--at", "3"],
         "PATH must be a file in an existing folder, got '%s'" % os.path.join(work, "no", "such")),
    ]
    problems = []
    for args, message in cases:
        done = trigger(a, *args)
        expect_equal(problems, "trigger %s" % " ".join(args), (done.returncode, done.stdout,
                     done.stderr), (2, "", "capture-window: trigger: %s\n%s\n" % (message, synopsis)))
    if os.path.exists(path):
        problems.append("a bad call wrote %s" % path)
    done = trigger(a, path, "--at", "3", "--wait", "0.5")
    expect_equal(problems, "--wait with no rank", (done.returncode, done.stderr), (
        1, "capture-window: trigger: no rank announced itself in %s.answers/ within 0.5 s (is "
        "CAPTURE_WINDOW_WATCH set to this PATH, and are the ranks running?)\n" % path))
    return problems


CASES = {
    "at": case_at, "align": case_align, "past": case_past, "replaced": case_replaced,
    "once": case_once, "label": case_label, "bad_input": case_bad_input,
    "python_loop": lambda a: case_at(a, 2, "loop"),
    "python_zero_edit": lambda a: case_align(a, 2, "zero_edit"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--program")
    ap.add_argument("--mark")
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python-door", required=True)
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--fakecuda-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    started = time.monotonic()
    problems = CASES[a.case](a)
    for p in problems:
        print("FAIL: " + p)
    print("%s: %.1f s" % (a.case, time.monotonic() - started))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
