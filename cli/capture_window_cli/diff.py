"""diff.py - `diff BASE NEW`: what changed between two runs, beyond noise
(issue 42; docs/cli.md, "diff"). BASE and NEW are each a step-time file
(CAPTURE_WINDOW_TIMES), a folder of them or a quoted glob (one file per
rank or process), or an nsys report (.nsys-rep, exported to SQLite as
check does), its export (.sqlite) or a quoted glob of them. The findings
come from diffsteps.py and diffreports.py as data, diffout.py writes them;
this module reads the command line and the files.

Exit status: 0; 1 when --fail-if-slower PCT finds a loop whose new steady
step is confidently (the 95 % interval's low end) more than PCT % slower;
2 for bad usage or input, with a message that says what is wrong.
"""
import json
import sys

import glob
import os

from . import change
from .common import ME, BadArguments, Usage, option_value
from .diffout import pct, reports_json, reports_text, steps_json, steps_text
from .diffreports import reports_diff
from .diffsteps import steps_diff
from .export import export
from .gpuwork import gpu_work
from .steptimes import read_times, step_files
from .trace import Trace

REPORT = (".nsys-rep", ".sqlite")

HELP = """usage: capture-window diff [--json] [--fail-if-slower PCT] [--label L] BASE NEW

What changed between two runs of a program, beyond noise. BASE and NEW
are each a step-time file (CAPTURE_WINDOW_TIMES), a folder of them, or a
quoted glob (one file per rank or process). Per marked loop (matched by
its label): the steady step before and after with the change and its
95 % interval, the verdict (faster, slower, or same: no change beyond
noise), the warm-up before and after, and each periodic event with its
cost before and after (docs/where-to-cut.md, "Did my change help?").

BASE and NEW may instead be nsys reports (.nsys-rep, or their .sqlite
export; a quoted glob for several ranks): the window's steps (step k
against step k when both captured the same ones), then per kernel name
and per NVTX range of the program's its instances and time a step before
and after, the change of its typical instance with its interval and
verdict, largest changes first; a kernel slower while the steps' kernels
stayed the same is flagged. Rank against rank: diff r.0.nsys-rep r.3.nsys-rep.

  --json                one JSON object instead of the text
  --fail-if-slower PCT  exit 1 when a loop's new steady step is
                        confidently more than PCT % slower (CI's gate)
  --label L             the loop's label in reports (default: step)
  -h, --help            this text

Exit status: 0; 1 under --fail-if-slower; 2 for bad usage or input."""


def parse(args):
    opts, words, i = {"json": False, "fail": None, "label": "step"}, [], 0
    while i < len(args):
        a = args[i]
        if a == "--json":
            opts["json"], i = True, i + 1
        elif a.split("=")[0] == "--fail-if-slower":
            value, i = option_value(args, i, "--fail-if-slower")
            try:
                opts["fail"] = float(value)
            except ValueError:
                opts["fail"] = -1
            if not opts["fail"] >= 0:
                raise Usage(f"{ME}: diff: --fail-if-slower takes a percentage >= 0 (5 for 5 %), "
                            f"got '{value}'")
        elif a.split("=")[0] == "--label":
            opts["label"], i = option_value(args, i, "--label")
        elif a == "--":
            words += args[i + 1:]
            break
        elif a.startswith("-") and len(a) > 1:
            raise BadArguments(f"{ME}: diff: unknown option '{a}' (--help lists them)")
        else:
            words.append(a)
            i += 1
    if len(words) != 2:
        raise BadArguments(f"{ME}: diff: give two runs, BASE and NEW (each a step-time file, a folder "
                    f"of them or a quoted glob), got {len(words)}: {' '.join(words) or 'none'}")
    return opts, words


def read_side(path):
    files = step_files([path])
    loops = read_times(files)
    if not loops:
        raise Usage(f"{ME}: diff: {path}: no step times in it (was the program built with the "
                    "capture-window plugin, and did a marked loop run?)")
    return files, loops


def report_files(path):
    """The reports PATH names (a quoted glob may name several), or []
    when it names no report."""
    files = sorted(glob.glob(path)) if glob.has_magic(path) and not os.path.exists(path) else [path]
    return files if files and all(f.endswith(REPORT) for f in files) else []


def read_reports(path, files, label):
    traces = []
    for f in files:
        if not os.path.isfile(f):
            raise Usage(f"{ME}: diff: no such report: {f}")
        db, error = (f, None) if f.endswith(".sqlite") else export(f)
        if error:
            raise Usage(f"{ME}: diff: {f}: nsys export failed: {error}")
        trace = Trace(db, label)
        if not trace.steps:
            raise Usage(f"{ME}: diff: {f}: no {label}#i ranges (was the program built with the "
                        f"capture-window plugin and nsys run with -t nvtx; is the loop's label "
                        f"'{label}' (--label)?)")
        traces.append((trace, gpu_work(db, trace)))
    return traces


# ---- the command ------------------------------------------------------------

def cmd_diff(args):
    opts, (base, new) = parse(args)
    reports = [report_files(base), report_files(new)]
    if any(reports) and not all(reports):
        raise Usage(f"{ME}: diff: compare reports with reports and step-time files with "
                    f"step-time files, got {base} and {new}")
    if all(reports):
        found = reports_diff(*(read_reports(p, f, opts["label"]) for p, f in zip((base, new), reports)),
                             opts["label"])
        print(json.dumps(reports_json(found, *reports)) if opts["json"] else reports_text(found))
        gated = [(opts["label"], found.step)]
    else:
        base_files, base_loops = read_side(base)
        new_files, new_loops = read_side(new)
        found = steps_diff(base_loops, new_loops)
        if not found.loops:
            raise Usage(f"{ME}: diff: no marked loop is in both runs (base: "
                        f"{', '.join(sorted({l['label'] for l in base_loops}))}; new: "
                        f"{', '.join(sorted({l['label'] for l in new_loops}))})")
        print(json.dumps(steps_json(found, base_files, new_files)) if opts["json"] else
              steps_text(found))
        gated = [(d.label, d.steady) for d in found.loops]
    if opts["fail"] is None:
        return 0
    slower = [(label, c) for label, c in gated if change.confidently_slower(c, opts["fail"])]
    for label, c in slower:
        print(f"{ME}: diff: loop '{label}' is {pct(c.change)} slower, at least "
              f"{pct(c.low)} (95%): more than --fail-if-slower {opts['fail']:g}%",
              file=sys.stderr)
    return 1 if slower else 0


def help_text():
    return HELP
