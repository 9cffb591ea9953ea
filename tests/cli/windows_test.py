#!/usr/bin/env python3
"""Which window a report was meant to hold, on fixtures served by fake-nsys:
check reads the CAPTURE_WINDOW the report recorded (nsys keeps the
program's environment: META_DATA_CAPTURE), a capture that began before the
runtime's window (a program that calls cudaProfilerStart itself, as llm.c
does) is named, and profile judges each report against the window its
steps began at, naming the windows left without one. Exact stdout and exit
status.

Usage: windows_test.py [CAPTURE_WINDOW_COMMAND]
"""
import sys

sys.dont_write_bytecode = True
import cli_test  # noqa: E402  (run, case, report and the failures list)
from cli_test import case, report  # noqa: E402

FIX = ("the capture was not the runtime's (does the program call cudaProfilerStart itself?); "
       "profile with -c nvtx -p step, whose capture only the window starts")
OWN = f"found 4 steps (step#0-3), but step#0 ran before window 'step' opened: {FIX}"


def recorded(fixture, path, value):
    """A report of FIXTURE whose run had CAPTURE_WINDOW=VALUE (fake-nsys
    keeps it beside the report and exports it as nsys does)."""
    report(fixture, path)
    with open(f"{path}.env", "w") as f:
        f.write(f'CAPTURE_WINDOW="{value}"\n')


def recorded_cases():
    recorded("window", "at30.nsys-rep", "30:3")
    case("check: the recorded CAPTURE_WINDOW=30:3 holds", 0,
         ["at30.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 15 bytes"], ["check", "at30.nsys-rep"])
    recorded("window", "at31.nsys-rep", "31:3")
    case("check: steps 30-32 where the recorded CAPTURE_WINDOW asked 31-33", 1,
         ["at31.nsys-rep: found 3 steps (step#30-32), expected 3 (step#31-33: CAPTURE_WINDOW=31:3, "
          "recorded in the report)"], ["check", "at31.nsys-rep"])
    recorded("window", "every21.nsys-rep", "9:3/21")
    case("check: a periodic window's occurrence at 30 (9:3/21)", 0,
         ["every21.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 15 bytes"],
         ["check", "every21.nsys-rep"])
    recorded("window", "given.nsys-rep", "31:3")
    case("check: --expect wins over the recorded window", 0,
         ["given.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 15 bytes"],
         ["check", "--expect", "30:3", "given.nsys-rep"])


def own_capture_cases():
    report("own_capture", "own.nsys-rep")
    case("check: a capture that began before the window opened", 1, [f"own.nsys-rep: {OWN}"],
         ["check", "own.nsys-rep"])
    env = {"FAKE_NSYS_REPORTS": "own_capture window", "CAPTURE_WINDOW": "1:3,30:3,60:3"}
    case("profile: each report judged against the window its steps began at; 60:3 got none", 1,
         ["prog: ", f"prog.1.nsys-rep: {OWN}",
          "prog.2.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 15 bytes",
          "capture-window: window 60:3: no report holds it (nsys wrote 2 reports for 3 windows)"],
         ["profile", "./prog"], env)
    # llm.c's own start and stop at steps 0-3, before the window 10:3: a
    # report of steps with no window range; the window's report is the
    # second, and 40:3 is left without one.
    env = {"FAKE_NSYS_REPORTS": "no_window window", "CAPTURE_WINDOW": "30:3,60:3"}
    case("profile: a report of the program's own capture, with no window open", 1,
         ["prog: ", "prog.1.nsys-rep: found 4 steps (step#0-3), but step#0-3 ran with no window "
          f"'step' open: {FIX}", "prog.2.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 15 bytes",
          "capture-window: window 60:3: no report holds it (nsys wrote 2 reports for 2 windows)"],
         ["profile", "./prog"], env)
    recorded("no_window", "cuda.nsys-rep", "30:3")
    with open("cuda.nsys-rep.env", "a") as f:
        f.write('CAPTURE_WINDOW_TRIGGER="cuda"\n')
    case("check: CAPTURE_WINDOW_TRIGGER=cuda pushes no window range: no own capture", 1,
         ["cuda.nsys-rep: found 4 steps (step#0-3), expected 3 (step#30-32: CAPTURE_WINDOW=30:3, "
          "recorded in the report)"], ["check", "cuda.nsys-rep"])


if __name__ == "__main__":
    sys.exit(cli_test.run_all('#!/bin/sh\necho "prog: $*"\nexit ${PROG_EXIT:-0}\n',
                              (recorded_cases, own_capture_cases)))
