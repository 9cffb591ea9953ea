#!/usr/bin/env python3
"""run_python_test.py - run one Python test script marked and unmarked
under the NVTX recorder, and check what it emitted.

The script's comments are those of the C test programs
(tests/tools/run_program_test.py), written after '#':

    # cw-run: CAPTURE_WINDOW=1:2 ...   a run (variables, --mode=...)
    # cw-expect: / cw-thread:          each thread's events (check_trace.py)
    # cw-stderr: / cw-stderr-re:       its stderr lines
    # cw-windows: step=2:3             (file) each label's windows
    # cw-plugin-args: loop=SPEC        (file) zero edit: the marked run is
                                       `python -m capture_window --loop SPEC`
                                       of the unedited script
    # cw-skip: before-3.12 REASON      (file) skipped (exit 77) when the
                                       Python under test is older
    # cw-exit: N                       (file) expected exit status

The marked run is `PYTHON SCRIPT` (wrapper scripts) or the -m form; the
unmarked one is `PYTHON SCRIPT` with CW_TEST_PLAIN=1 (cwtest.py) or the
plain script. Every check of the C programs applies: same stdout and exit
status, the exact events, the marks alone in the unmarked run, the
CAPTURE_WINDOW_STEPS=window repeat, the run with no NVTX tool.
"""
import argparse
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tools"))
import run_program_test as rpt  # noqa: E402

# The same directives, after '#'; windows come from cw-windows.
rpt.DIRECTIVE_RE = re.compile(r"^\s*#\s*cw-([a-z-]+):?(.*)$")
rpt.PRAGMA_RE = re.compile(r"(?!)")
LOOP_ARG = "-fplugin-arg-capture_window-loop="


class PythonDriver(rpt.Driver):
    def execute(self, command, env):
        self.a.run_with = command[:-1]
        return super().execute(command[-1], env)

    def check_untraced(self, exes, opt):
        """No NVTX tool attached: the marked run prints what the unmarked
        one does, on both streams (a script may print a traceback), but
        for the zero edit's notes before the run (cw-stderr checks them)."""
        env = self.environment(rpt.Run(0, []), os.path.join(self.work, "untraced.record"),
                               tool=False)
        marked, plain = self.execute(exes["plugin"], env), self.execute(exes["plain"], env)
        marked = marked[:2] + ("".join(l for l in marked[2].splitlines(True)
                                       if not l.startswith("capture_window: note: ")),)
        if marked[:3] != plain[:3]:
            self.fail("%s no tool attached: exit/stdout/stderr differ: marked %r, unmarked %r"
                      % (opt, marked[:3], plain[:3]))


def python_version(python):
    out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                         capture_output=True, text=True, check=True).stdout
    return tuple(map(int, out.split()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--python", required=True, help="the Python under test")
    ap.add_argument("--package", required=True, help="folder holding capture_window")
    ap.add_argument("--runtime", required=True, help="libcapture_window.so")
    ap.add_argument("--mark", required=True, help="the scripts' mark library (mark.c)")
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--fakecuda-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    family = "before-3.12" if python_version(a.python) < (3, 12) else "python"
    runs, windows, _, exit_status, _, _, plugin_args = rpt.parse_source(a.source, family)
    # frameworks/: the stand-ins of transformers and lightning, found as
    # installed packages are (a --loop FILE is looked up on the path).
    frameworks = os.path.join(here, "..", "frameworks")
    os.environ.update(PYTHONPATH=os.pathsep.join([a.package, here, frameworks]),
                      CAPTURE_WINDOW_LIBRARY=a.runtime, CW_MARK_LIBRARY=a.mark,
                      PYTHONDONTWRITEBYTECODE="1")
    specs = [w for arg in plugin_args for w in ("--loop", arg[len(LOOP_ARG):])]
    script = os.path.abspath(a.source)
    if specs:
        exes = {"plugin": [a.python, "-m", "capture_window"] + specs + [script],
                "plain": [a.python, script]}
    else:
        exes = {"plugin": [a.python, script],
                "plain": ["env", "CW_TEST_PLAIN=1", a.python, script]}
    a.run_with = []
    driver = PythonDriver(a)
    for run in runs:
        driver.check_run(run, windows, exes, "python", exit_status)
    driver.check_untraced(exes, "python")
    return driver.report()


if __name__ == "__main__":
    sys.exit(main())
