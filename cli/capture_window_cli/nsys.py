"""nsys.py - one nsys profile run of the program, for profile and
profile --auto: its reports written afresh, found in window order."""
import glob
import os
import re
import shlex
import subprocess
import sys

from .common import ME, cannot_run, nsys_command, nsys_defaults, plural, say
from .runtime import rank_variable


def run_nsys(name, nsys_opts, program, range_end, variables=None):
    """nsys profile of PROGRAM, its reports NAME[.RANK][.W].nsys-rep written
    afresh (VARIABLES: set for the run, and shown): (nsys's exit status or
    None when it did not start, the reports in window order)."""
    var = rank_variable()
    stem, output = name, name
    if var:
        stem, output = f"{name}.{os.environ[var]}", f"{name}.%q{{{var}}}"
    for stale in written_reports(stem):      # a repeat run's STEM.k.nsys-rep too
        os.remove(stale)
    command = [nsys_command(), "profile", *nsys_defaults(nsys_opts, range_end), "-o", output,
               *nsys_opts, *program]
    shown = [f"{k}={v}" for k, v in (variables or {}).items()] + command
    say(f"{ME}: {shlex.join(shown)}")
    sys.stdout.flush()
    try:
        status = subprocess.call(command, env=dict(os.environ, **(variables or {})))
    except OSError as e:
        say(f"{ME}: {cannot_run(command[0], e, 'NSYS', 'nsys')}")
        return None, []
    return status, written_reports(stem)


def nsys_ended(nsys_status, status):
    """The command's exit status: nsys's failure said, and kept when the checks passed."""
    if nsys_status != 0:
        say(f"{ME}: nsys exited with status {nsys_status}")
    return status or nsys_status


def no_report(reports, windows):
    """Why a planned window is left without a report, in profile's and --auto's words."""
    return (f"no report holds it (nsys wrote {plural(len(reports), 'report')} for "
            f"{plural(len(windows), 'window')})")


def written_reports(stem):
    """STEM.nsys-rep, or STEM.1.nsys-rep, STEM.2.nsys-rep ... in window order."""
    found = [stem + ".nsys-rep"] if os.path.isfile(stem + ".nsys-rep") else []
    numbered = [p for p in glob.glob(glob.escape(stem) + ".[0-9]*.nsys-rep")
                if re.fullmatch(r"[0-9]+", p[len(stem) + 1: -len(".nsys-rep")])]
    return found + sorted(numbered, key=lambda p: int(p[len(stem) + 1: -len(".nsys-rep")]))
