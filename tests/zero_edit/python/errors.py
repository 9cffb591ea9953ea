#!/usr/bin/env python3
"""errors.py - `python -m capture_window` refuses a spec that marks no loop
before the script runs: one line on stderr, exit status 2, nothing of the
script's own output. A spec that parses but finds no loop while the script
runs is named on stderr, and the script runs as usual: a FILE not found
before the run (a note says where it was looked for), a FUNCTION that
names no function (with the closest names). `-m MODULE` runs a module as
`python -m` does. Run by the Python under test."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import settings_line  # noqa: E402

SCRIPT = """print("the script ran")
for i in range(3):
    pass
x = [i for i in range(3)]
async def f():
    async for i in g():
        pass
while False:
    pass
"""
GRAMMAR = ("(expected FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]], "
           "e.g. train.py:42:30:3 or Trainer.fit:30:3)")
USAGE = ("usage: python -m capture_window --loop SPEC ... SCRIPT ARGS... | -m MODULE ARGS... "
         "(SPEC: FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]])")
NOT_YET = ("capture_window: note: --loop %(spec)s: no file %(file)s under %%(d)s or sys.path before "
           "the run; its loop is marked if a module whose path ends in %(file)s is imported\n"
           "capture_window: --loop %(spec)s matched no loop in this run; no module whose path "
           "ends in %(file)s was imported")
# %(d)s: the folder of train.py.
CASES = [
    (["--loop", "train.py:3"], "capture_window: %(d)s/train.py:3: --loop train.py:3: no for or "
                               "while loop starts on this line; the nearest loops start on "
                               "lines 2 and 8"),
    (["--loop", "train.py:4"], "capture_window: %(d)s/train.py:4: --loop train.py:4: no for or "
                               "while loop starts on this line; the nearest loops start on "
                               "lines 2 and 8"),
    (["--loop", "train.py:1"], "capture_window: %(d)s/train.py:1: --loop train.py:1: no for or "
                               "while loop starts on this line; the nearest loop starts on "
                               "line 2"),
    (["--loop", "train.py:6"], "capture_window: %(d)s/train.py:6: --loop train.py:6: an async "
                               "for loop cannot be marked"),
    (["--loop", "train.py"], "capture_window: bad value 'train.py' for --loop: FILE must be "
                             "followed by :LINE " + GRAMMAR),
    (["--loop", "train.py:2:30"], "capture_window: bad value 'train.py:2:30' for --loop: START "
                                  "must be followed by :COUNT " + GRAMMAR),
    (["--loop", "train.py:2:30:0"], "capture_window: bad value 'train.py:2:30:0' for --loop: "
                                    "COUNT must be a decimal number from 1 to 2^62 " + GRAMMAR),
    (["--loop", "train.py:2:1:1:a b"], "capture_window: bad value 'train.py:2:1:1:a b' for "
                                       "--loop: LABEL must match [A-Za-z0-9_.-]{1,63} " + GRAMMAR),
    (["--loop", "Trainer..fit:30:3"], "capture_window: bad value 'Trainer..fit:30:3' for --loop: "
                                      "FUNCTION must be a Python qualified name such as "
                                      "Trainer.fit or pkg.mod.Trainer.fit (a FILE ends in .py or "
                                      "holds a '/') " + GRAMMAR),
    (["--loop", "fit:30"], "capture_window: bad value 'fit:30' for --loop: START must be "
                           "followed by :COUNT " + GRAMMAR),
    (["--loop", "train.py:x"], "capture_window: bad value 'train.py:x' for --loop: LINE must "
                               "be a decimal number from 1 to 4294967295 " + GRAMMAR),
    (["--lop", "train.py:2"], "capture_window: unknown option '--lop'\n" + USAGE),
]
# Specs that parse but mark nothing where the script runs: named at the end
# (or where the function is compiled), the script runs as usual.
RUNS = [
    (["--loop", "fit:30:3"], "capture_window: --loop fit:30:3 matched no loop in this run"),
    (["--loop", "f"], "capture_window: %(d)s/train.py:6: --loop f: an async for loop cannot be "
                      "marked; nothing marked there\n"
                      "capture_window: --loop f matched no loop in this run"),
    (["--loop", "model.py:2"], NOT_YET % {"spec": "model.py:2", "file": "model.py"}),
    (["--loop", "mytrain/trainer.py:8:30:3"],
     NOT_YET % {"spec": "mytrain/trainer.py:8:30:3", "file": "mytrain/trainer.py"}),
]
TWO_LOOPS = """def fit():
    for i in range(2):
        pass
    while False:
        pass
fit()
print("the script ran")
"""
# A FUNCTION that names none of the functions compiled: the closest are named.
NAMES = """class Trainer:
    def fit(self):
        for i in range(2):
            pass


def run_epochs():
    pass


def run_epoch():
    for i in range(2):
        pass


run_epoch()
Trainer().fit()
print("the script ran")
"""
TYPOS = [
    (["--loop", "run_epoc"], "capture_window: --loop run_epoc matched no loop in this run; did "
                             "you mean run_epoch (train.py:11) or run_epochs (train.py:7)?"),
    (["--loop", "Trainer.fitt:1:1"], "capture_window: --loop Trainer.fitt:1:1 matched no loop in "
                                     "this run; did you mean Trainer.fit (train.py:2)?"),
    (["--loop", "evaluate"], "capture_window: --loop evaluate matched no loop in this run"),
]
# -m MODULE: run as `python -m MODULE` runs it (argv, sys.path[0], __main__),
# its loop marked.
MODULE = """import sys
print(__name__, sys.argv[1:], sys.argv[0] == __file__, sys.path[0])
for i in range(3):
    pass
raise SystemExit(3)
"""
RAISES = """def fail():
    for i in range(2):
        raise RuntimeError("from the module")
fail()
"""
THREAD_RE = re.compile(r"thread \d+$")


def check(cases, d, env, status, stdout, program=("train.py",)):
    failures = 0
    for args, want in cases:
        want = want % {"d": d}
        p = subprocess.run([sys.executable, "-m", "capture_window"] + args + list(program),
                           cwd=d, env=env, capture_output=True, text=True)
        got = (p.returncode, p.stdout, p.stderr)
        if got != (status, stdout, want + "\n"):
            failures += 1
            print("FAIL: %s\n  expected: %r\n  actual:   %r"
                  % (args, (status, stdout, want + "\n"), got))
    return failures


def same(what, got, want):
    if got == want:
        return 0
    print("FAIL: %s\n  expected: %r\n  actual:   %r" % (what, want, got))
    return 1


def run(d, env, *args):
    p = subprocess.run([sys.executable] + list(args), cwd=d, env=env, capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def check_module(d, env):
    """-m MODULE against python -m MODULE: the same status, stdout and
    traceback, and the module's loop marked (verbose lines)."""
    os.makedirs(os.path.join(d, "pkg"))
    for name, text in (("__init__.py", ""), ("mod.py", MODULE), ("bad.py", RAISES),
                       ("__main__.py", MODULE)):
        with open(os.path.join(d, "pkg", name), "w") as f:
            f.write(text)
    failures, cw = 0, ["-m", "capture_window", "--loop"]
    verbose = dict(env, CAPTURE_WINDOW_VERBOSE="1")
    for module, spec in (("pkg.mod", "pkg/mod.py:3:1:1"), ("pkg", "pkg/__main__.py:3:1:1")):
        plain = run(d, env, "-m", module, "a", "-b")
        marked = run(d, verbose, *cw, spec, "-m", module, "a", "-b")
        path = os.path.join(d, module.replace(".", "/") + ("/__main__" if module == "pkg" else ""))
        failures += same("-m %s: status, stdout" % module, marked[:2], plain[:2])
        failures += same("-m %s: plain status, stdout" % module, plain[:2],
                         (3, "__main__ ['a', '-b'] True %s\n" % d))
        failures += same("-m %s: verbose" % module,
                         [THREAD_RE.sub("thread N", l)
                          for l in settings_line.without(marked[2].splitlines(), True)
                          if "CUDA" not in l],
                         ["capture_window: loop 'step' (%s.py:3, <module>) is active" % path,
                          "capture_window: window opened: loop 'step' (%s.py:3) iteration 1, "
                          "window 1:1, thread N" % path,
                          "capture_window: window closed: loop 'step' (%s.py:3) held iterations "
                          "1-1, thread N" % path])
    failures += check([(["--loop", "fit"], USAGE)], d, env, 2, "", program=("-m",))
    plain = run(d, env, "-m", "pkg.bad")
    failures += same("-m pkg.bad: the traceback python -m prints",
                     run(d, env, *cw, "fail", "-m", "pkg.bad"), plain)
    plain = run(d, env, "-m", "pkg.nosuch")
    failures += same("-m pkg.nosuch: python -m's message",
                     run(d, env, *cw, "fit", "-m", "pkg.nosuch"),
                     plain[:2] + (plain[2] + "capture_window: --loop fit matched no loop in "
                                  "this run\n",))
    return failures


def check_help(env):
    """--help ends on a manual a wheel's user has."""
    p = subprocess.run([sys.executable, "-m", "capture_window", "--help"], env=env,
                       capture_output=True, text=True)
    return same("--help: status, last line", (p.returncode, p.stdout.splitlines()[-1]),
                (0, "Manual: python -m pydoc capture_window (installed with the package)"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--runtime", required=True)
    a = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=os.path.abspath(a.package),
               CAPTURE_WINDOW_LIBRARY=os.path.abspath(a.runtime), CAPTURE_WINDOW_SELFCHECK="0")
    with tempfile.TemporaryDirectory() as d:
        d = os.path.realpath(d)
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(SCRIPT)
        failures = check(CASES, d, env, 2, "")
        failures += check(RUNS, d, env, 0, "the script ran\n")
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(TWO_LOOPS)
        failures += check([(["--loop", "fit"], "capture_window: %(d)s/train.py:1: --loop fit: fit has 2 "
                            "outermost loops (lines 2, 4); name the loop by FILE:LINE, e.g. "
                            "--loop train.py:2\ncapture_window: --loop fit matched no loop in "
                            "this run")], d, env, 0, "the script ran\n")
        with open(os.path.join(d, "train.py"), "w") as f:
            f.write(NAMES)
        failures += check(TYPOS, d, env, 0, "the script ran\n")
        failures += check_module(d, env)
        failures += check_help(env)
    n = len(CASES) + len(RUNS) + 1 + len(TYPOS) + 9 + 1
    print("%d of %d cases failed" % (failures, n) if failures else "ok: %d cases" % n)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
