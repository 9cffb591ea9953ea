#!/usr/bin/env python3
"""Tests of `capture-window profile --tool ncu` against fake-ncu, a stand-in
ncu that records its arguments and serves the raw-page CSV of small
fixtures (see fake-ncu). Each case asserts the exact stdout, the exit
status and the exact ncu calls; the program prints the window variables
the command set for its run.

Usage: ncu_test.py [CAPTURE_WINDOW_COMMAND]
"""
import os
import sys

sys.dont_write_bytecode = True
import cli_test  # noqa: E402  (run, case and the failures list)
from cli_test import case  # noqa: E402

FAKE_NCU = os.path.join(cli_test.HERE, "fake-ncu")
RUN = "ncu --nvtx --profile-from-start off -f -o"


def imports(report, label="step"):
    base = (f"ncu --import {report} --csv --page raw --print-nvtx-rename kernel "
            "--metrics launch__grid_size")
    return [base, f"{base} --nvtx-include {label}/"]


def env(fixture=None, **more):
    return {"NCU": FAKE_NCU, "FAKE_NCU_REPORT": fixture, "FAKE_NCU_SIZE": "5200000",
            "CAPTURE_WINDOW_COUNT": None, "FAKE_NCU_NO_PYTHON": None, **more}


def window_cases():
    """Which steps the run profiles: one by default, --steps N, --window."""
    case("ncu: one step by default (CAPTURE_WINDOW_COUNT=1)", 0,
         ["prog: a window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 1 kernel, 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog", "a"], env("one"),
         [f"{RUN} prog ./prog a", *imports("prog.ncu-rep")])
    case("ncu: --steps 3, --set passed through", 0,
         ["prog: window= count=3", "run.ncu-rep: ok: 3 steps (step#30-32), 6 kernels, 5.2 MB"],
         ["profile", "--tool=ncu", "-o", "run", "--steps", "3", "--set", "full", "--", "./prog"],
         env("three"), [f"{RUN} run --set full ./prog", *imports("run.ncu-rep")])
    case("ncu: --window START:COUNT sets CAPTURE_WINDOW", 0,
         ["prog: window=30:3 count=", "prog.ncu-rep: ok: 3 steps (step#30-32), 6 kernels, 5.2 MB"],
         ["profile", "--tool", "ncu", "--window", "30:3", "--", "./prog"], env("three"))
    case("ncu: --window, the report holds another step", 1,
         ["prog: window=40:1 count=",
          "prog.ncu-rep: found 1 step (step#30), expected 1 (step#40)"],
         ["profile", "--tool", "ncu", "--window", "40:1", "--", "./prog"], env("one"))
    case("ncu: the user's CAPTURE_WINDOW is kept", 0,
         ["prog: window=30:3 count=", "prog.ncu-rep: ok: 3 steps (step#30-32), 6 kernels, 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("three", CAPTURE_WINDOW="30:3"))
    case("ncu: one step asked, two profiled", 1,
         ["prog: window= count=1", "prog.ncu-rep: found 2 steps (step#30-31), expected 1"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("two"))
    case("ncu: --label eval", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (eval#5), 1 kernel, 5.2 MB"],
         ["profile", "--tool", "ncu", "--label", "eval", "--", "./prog"], env("eval"),
         [f"{RUN} prog ./prog", *imports("prog.ncu-rep", "eval")])
    case("ncu: an option given replaces profile's default", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 1 kernel, 5.2 MB"],
         ["profile", "--tool", "ncu", "--ncu-args", "--profile-from-start on --replay-mode application",
          "--", "./prog"], env("one"),
         ["ncu --nvtx -f -o prog --profile-from-start on --replay-mode application ./prog",
          *imports("prog.ncu-rep")])


def verdict_cases():
    case("ncu: kernels outside the window", 1,
         ["prog: window= count=1", "prog.ncu-rep: 2 of 3 kernels ran outside window 'step' (ncu run "
          "without --profile-from-start off, or another thread's kernels?)"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("outside"))
    case("ncu: kernels under the program's own ranges", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 3 kernels (2 under the "
          "program's own ranges), 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("inner"))
    case("ncu: a report without kernels", 1,
         ["prog: window= count=1", "prog.ncu-rep: no kernels profiled: did the window open (a "
          "program built with the plugin, a loop that reaches START)? 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("empty"))
    case("ncu: no report", 1,
         ["prog: window= count=1", "capture-window: no report from ncu (exit status 0): no kernel "
          "was profiled. Was the program built with the capture-window plugin, and does the marked "
          "loop reach START?"], ["profile", "--tool", "ncu", "--", "./prog"], env())
    case("ncu: a report ncu cannot read", 1,
         ["prog: window= count=1", "prog.ncu-rep: ncu --import failed: ==ERROR== prog.ncu-rep is "
          "not a valid report file"], ["profile", "--tool", "ncu", "--", "./prog"], env("nosuch"))


def check_cases():
    """check takes .ncu-rep too: the same verdict, and in --json its problem's name."""
    with open("outside.ncu-rep", "w") as f:
        f.write("fixture=outside\n")
    outside = ("2 of 3 kernels ran outside window 'step' (ncu run without --profile-from-start "
               "off, or another thread's kernels?)")
    case("check of an .ncu-rep", 1, [f"outside.ncu-rep: {outside}"], ["check", "outside.ncu-rep"],
         env())
    case("check --json of an .ncu-rep: the problem named", 1,
         [{"report": "outside.ncu-rep", "ok": False, "problem": "outside_window", "verdict": outside,
           "kernels": 3, "steps": None}], ["check", "--json", "outside.ncu-rep"], env())


def nested_cases():
    """The program's own ranges around the loop and inside every step: the
    step is read from each kernel's whole NVTX stack (ncu_report)."""
    case("ncu: own ranges around and inside the step", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 3 kernels (3 under the "
          "program's own ranges), 5.2 MB"], ["profile", "--tool", "ncu", "--", "./prog"], env("nested"))
    case("ncu: own ranges, three steps", 0,
         ["prog: window=30:3 count=", "prog.ncu-rep: ok: 3 steps (step#30-32), 6 kernels (6 under "
          "the program's own ranges), 5.2 MB"],
         ["profile", "--tool", "ncu", "--window", "30:3", "--", "./prog"], env("nested3"))
    case("ncu: own ranges, another step than the one asked for", 1,
         ["prog: window=31:1 count=", "prog.ncu-rep: found 1 step (step#30), expected 1 (step#31)"],
         ["profile", "--tool", "ncu", "--window", "31:1", "--", "./prog"], env("nested"))
    interface = os.path.join(cli_test.HERE, "extras", "python")
    case("ncu: own ranges, Nsight Compute's Python interface does not load", 1,
         ["prog: window= count=1", "prog.ncu-rep: found no step; 3 of 3 kernels lie under ranges "
          "of the program's own, whose step only their whole NVTX stack names, and that needs "
          f"Nsight Compute's Python interface: {interface}/ncu_report.py: ImportError: fake "
          "ncu_report: _ncu_report: undefined symbol: PyUnicode_AsUTF8"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("nested", FAKE_NCU_NO_PYTHON="1"))
    case("ncu: no Python interface, kernels directly in the step: ncu's rename names it", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 1 kernel, 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("one", FAKE_NCU_NO_PYTHON="1"))
    # The CUDA toolkit's bin/ncu runs ../nsight-compute-VERSION/ncu, where
    # extras/python lies.
    install = os.path.abspath("cuda/nsight-compute-2025.3.1/extras/python")
    os.makedirs(install)
    os.makedirs("cuda/bin")
    os.symlink(os.path.join(interface, "ncu_report.py"), os.path.join(install, "ncu_report.py"))
    with open("cuda/bin/ncu", "w") as f:
        f.write(f'#!/bin/sh\nexec "{FAKE_NCU}" "$@"\n')
    os.chmod("cuda/bin/ncu", 0o755)
    case("ncu: NCU=cuda/bin/ncu finds ../nsight-compute-*/extras/python", 0,
         ["prog: window= count=1", "prog.ncu-rep: ok: 1 step (step#30), 3 kernels (3 under the "
          "program's own ranges), 5.2 MB"], ["profile", "--tool", "ncu", "--", "./prog"],
         env("nested", NCU=os.path.abspath("cuda/bin/ncu")))


def rank_cases():
    case("ncu: a rank's report is NAME.RANK.ncu-rep", 0,
         ["prog: window= count=1", "prog.1.ncu-rep: ok: 1 step (step#30), 1 kernel, 5.2 MB"],
         ["profile", "--tool", "ncu", "--", "./prog"], env("one", RANK="1"),
         [f"{RUN} prog.%q{{RANK}} ./prog", *imports("prog.1.ncu-rep")])
    case("ncu: a rank CAPTURE_WINDOW_RANKS leaves out", 0,
         ["prog: window= count=1", "capture-window: no report, as expected: rank 3 is not in "
          "CAPTURE_WINDOW_RANKS=0"], ["profile", "--tool", "ncu", "--", "./prog"],
         env(OMPI_COMM_WORLD_RANK="3", CAPTURE_WINDOW_RANKS="0"))


def usage_cases():
    for name, words in [("no '--'", ["./prog"]), ("--steps 0", ["--steps", "0", "--", "./prog"]),
                        ("--steps and --window", ["--steps", "2", "--window", "3:1", "--", "./prog"]),
                        ("--window without START", ["--window", "*:2", "--", "./prog"]),
                        ("no program", ["--"])]:
        case(f"ncu usage: {name}", 2, [], ["profile", "--tool", "ncu", *words], env("one"), [])
    case("usage: --tool other", 2, [], ["profile", "--tool", "vtune", "--", "./prog"], env(), [])


if __name__ == "__main__":
    sys.exit(cli_test.run_all(
        '#!/bin/sh\necho "prog: ${*:+$* }window=$CAPTURE_WINDOW count=$CAPTURE_WINDOW_COUNT"\n',
        (window_cases, verdict_cases, check_cases, nested_cases, rank_cases, usage_cases)))
