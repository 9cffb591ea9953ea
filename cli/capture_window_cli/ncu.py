"""ncu.py - `profile --tool ncu`: Nsight Compute on exactly the window's
steps (one by default), then a check that every kernel in the report came
from those steps.

ncu replays each kernel many times, so the run is kept to few steps: the
runtime's CAPTURE_WINDOW_COUNT=1 shrinks each loop's own window to its first
step, and `--profile-from-start off` profiles exactly the kernels between
the runtime's cuProfilerStart and cuProfilerStop. With `--nvtx` ncu records
each kernel's NVTX push/pop stack. The check imports the report's raw page
twice, all kernels and `--nvtx-include L/` (those inside the window range
L), and reads each kernel's whole stack through Nsight Compute's Python
Report Interface (extras/python/ncu_report.py of the install) to name its
step L#i, whatever ranges the program pushes around or inside it. Without
that interface only ncu's rename (`--print-nvtx-rename kernel`: the
innermost range, RANGE/KERNEL) is left, which names the step of kernels
directly inside it.
"""
import csv
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from .common import (ME, BadArguments, Usage, cannot_run, plural, human, commas, spans, option_value,
                     program_name, problem, say)
from .runtime import AT_START, none_due, option_number, parse_expect, rank_variable, windows

USAGE = ("capture-window profile --tool ncu [-o NAME] [--label L] [--steps N | --window START:COUNT]\n"
         "                       [--ncu-args 'OPTIONS'] [NCU-OPTION...] -- PROGRAM [ARG...]")


def ncu_command():
    return os.environ.get("NCU") or "ncu"


def parse(args):
    """profile --tool ncu's words -> (name, label, steps, window, ncu options, program)."""
    name, label, steps, window, ncu_opts = None, "step", None, None, []
    if "--" not in args:
        raise Usage(f"{ME}: profile --tool ncu: put the program after '--'\n{USAGE}")
    cut = args.index("--")
    words, program = args[:cut], args[cut + 1:]
    i = 0
    while i < len(words):
        a = words[i]
        if a in ("-o", "--output") or a.startswith("--output="):
            name, i = option_value(words, i, a.split("=")[0])
        elif a == "--label" or a.startswith("--label="):
            label, i = option_value(words, i, "--label")
        elif a == "--steps" or a.startswith("--steps="):
            text, i = option_value(words, i, "--steps")
            steps, why = option_number("--steps", text, 1)
            if why:
                raise Usage(f"{ME}: {why}")
        elif a == "--window" or a.startswith("--window="):
            window, i = option_value(words, i, "--window")
            if parse_expect(window)[0] is None:
                raise Usage(f"{ME}: --window takes START:COUNT, got '{window}'")
        elif a == "--ncu-args" or a.startswith("--ncu-args="):
            value, i = option_value(words, i, "--ncu-args")
            ncu_opts += shlex.split(value)
        else:
            ncu_opts.append(a)
            i += 1
    if steps and window:
        raise Usage(f"{ME}: profile --tool ncu: --steps or --window, not both")
    if not program:
        raise BadArguments(f"{ME}: profile: no program given")
    return name, label, steps, window, ncu_opts, program


def run_environment(steps, window):
    """The variables profile sets for the run, and the steps the report
    should hold as (START or None, COUNT), or None when unknown."""
    if window:
        return {"CAPTURE_WINDOW": window}, parse_expect(window)
    user = os.environ.get("CAPTURE_WINDOW", "")
    if user and not steps:    # the user's own windows, as they are
        found = windows(user)
        one = found and len(found) == 1 and found[0].placed == AT_START and not found[0].every
        return {}, (found[0].start, found[0].count) if one else None
    count = str(steps or os.environ.get("CAPTURE_WINDOW_COUNT") or 1)
    return {"CAPTURE_WINDOW_COUNT": count}, (None, int(count))


def defaults_for(ncu_opts):
    """The ncu options profile adds, each unless the user gave that option."""
    def given(*names):
        return any(w in names or w.split("=")[0] in names for w in ncu_opts)
    out = ["--nvtx"]
    if not given("--profile-from-start"):
        out += ["--profile-from-start", "off"]
    if not given("-f", "--force-overwrite"):
        out += ["-f"]
    return out


def imported(report, *filters):
    """The kernels of REPORT, each renamed after its innermost NVTX range
    (ncu writes RANGE/KERNEL, e.g. `step#30/train_step(float *)`):
    [(id, name, grid size)], or (None, the first line ncu printed)."""
    command = [ncu_command(), "--import", report, "--csv", "--page", "raw",
               "--print-nvtx-rename", "kernel", "--metrics", "launch__grid_size", *filters]
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        return None, cannot_run(ncu_command(), e, "NCU", "ncu")
    lines = p.stdout.splitlines()
    if p.returncode != 0:
        return None, next((x for x in lines if x.strip()), f"exit status {p.returncode}")
    start = next((k for k, x in enumerate(lines) if x.startswith('"ID",')), None)
    if start is None:      # no kernel in it (ncu prints no table then)
        return [], None
    rows = csv.DictReader(lines[start:])
    return [(r["ID"], r["Kernel Name"], r["Grid Size"]) for r in rows if r["ID"].isdigit()], None


# Run under the CLI's Python with Nsight Compute's extras/python on the
# path: one line per kernel, its NVTX push/pop stack over every domain.
READ_STACKS = """
import json, sys
import ncu_report
report = ncu_report.load_report(sys.argv[1])
for r in range(report.num_ranges()):
    kernels = report.range_by_idx(r)
    for k in range(kernels.num_actions()):
        state = kernels.action_by_idx(k).nvtx_state()
        stack = []
        for domain in (state.domains() if state else []):
            stack += [str(name) for name in state.domain_by_id(domain).push_pop_ranges()]
        print(json.dumps(stack))
"""


def report_interface():
    """The folder of Nsight Compute's Python Report Interface (ncu_report):
    extras/python of the install that holds NCU, also when NCU is the
    CUDA toolkit's bin/ncu, a script that runs the newest
    ../nsight-compute-VERSION/ncu or /opt/nvidia/nsight-compute/VERSION/ncu;
    or None."""
    found = shutil.which(ncu_command())
    if not found:
        return None
    here = os.path.dirname(os.path.realpath(found))
    installs = (glob.glob(os.path.join(here, "..", "nsight-compute*")) +
                glob.glob("/opt/nvidia/nsight-compute/*"))
    for folder in [here] + sorted(installs, key=os.path.basename, reverse=True):
        if os.path.isfile(os.path.join(folder, "extras", "python", "ncu_report.py")):
            return os.path.normpath(os.path.join(folder, "extras", "python"))
    return None


def stacks(report):
    """Each kernel's NVTX push/pop stack (outermost first), read through
    ncu_report: (stacks, None), or (None, why not)."""
    folder = report_interface()
    if not folder:
        return None, f"no extras/python/ncu_report.py in the Nsight Compute install of {ncu_command()}"
    p = subprocess.run([sys.executable, "-c", READ_STACKS, report], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, PYTHONPATH=folder, PYTHONDONTWRITEBYTECODE="1"))
    if p.returncode != 0:
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        return None, f"{folder}/ncu_report.py: {lines[-1] if lines else f'exit status {p.returncode}'}"
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("[")], None


def steps_of(report, inside, label):
    """The steps the kernels in the window came from, the number of them under
    ranges of the program's own, and why the steps are unknown (or None).
    Each kernel's whole NVTX stack names its step, whatever ranges the program
    pushes around or inside it; without ncu_report, only the innermost range
    (ncu's rename, RANGE/KERNEL) can."""
    step = re.compile(re.escape(label) + r"#([0-9]+)")
    every, why = stacks(report)
    if every is not None:
        mine = [s for s in every if label in s]
        steps = {int(m.group(1)) for s in mine for r in s for m in [step.fullmatch(r)] if m}
        own = sum(1 for s in mine if any(r != label and not step.fullmatch(r) for r in s))
        return sorted(steps), own, None
    direct = re.compile(re.escape(label) + r"#([0-9]+)/")
    steps = {int(m.group(1)) for _, name, _ in inside for m in [direct.match(name)] if m}
    own = sum(1 for _, name, _ in inside if not direct.match(name))
    return sorted(steps), own, why if own else None


def check_ncu_report(report, label, expect):
    """{"report", "ok", "problem", "verdict", "kernels", "steps"} for one
    .ncu-rep (problem: a name of common.PROBLEMS, None when ok)."""
    def verdict(name, text, kernels=None, steps=None):
        return {"report": report, "ok": name is None, "problem": name, "verdict": text,
                "kernels": kernels, "steps": steps}
    if not os.path.isfile(report):
        return verdict(*problem("missing"))
    size = human(os.path.getsize(report))
    every, error = imported(report)
    inside, error = (None, error) if error else imported(report, "--nvtx-include", f"{label}/")
    if error:
        return verdict(*problem("import_failed", error=error))
    if not every:
        return verdict(*problem("none_profiled", size=size), 0)
    kernels = plural(len(every), 'kernel')
    outside = len(every) - len(inside)
    if outside:
        return verdict(*problem("outside_window", outside=commas(outside), kernels=kernels,
                                label=label), len(every))
    steps, own, unknown = steps_of(report, inside, label)
    found = f"{plural(len(steps), 'step')} ({label}#{spans(steps)})" if steps else "no step"
    if unknown:
        return verdict(*problem("steps_unknown", found=found, own=commas(own), kernels=kernels,
                                why=unknown), len(every), steps)
    if expect and steps:
        start, count = expect
        want = list(range(start, start + count)) if start is not None else None
        if len(steps) > count or (want and not set(steps) <= set(want)):
            shown = f" ({label}#{spans(want)})" if want else ""
            return verdict(*problem("other_steps", found=found, count=count, want=shown),
                           len(every), steps)
    note = f" ({commas(own)} under the program's own ranges)" if own else ""
    return verdict(None, f"ok: {found}, {kernels}{note}, {size}", len(every), steps)


def profile_ncu(args):
    name, label, steps, window, ncu_opts, program = parse(args)
    name = name or program_name(program)
    variables, expect = run_environment(steps, window)
    var = rank_variable()
    stem, output = name, name
    if var:
        stem, output = f"{name}.{os.environ[var]}", f"{name}.%q{{{var}}}"
    report = stem + ".ncu-rep"
    if os.path.exists(report):
        os.remove(report)
    command = [ncu_command(), *defaults_for(ncu_opts), "-o", output, *ncu_opts, *program]
    shown = [f"{k}={v}" for k, v in variables.items()] + command
    say(f"{ME}: {shlex.join(shown)}")
    sys.stdout.flush()
    try:
        status = subprocess.call(command, env=dict(os.environ, **variables))
    except OSError as e:
        say(f"{ME}: {cannot_run(command[0], e, 'NCU', 'ncu')}")
        return 1
    reason = none_due()
    if not os.path.isfile(report):
        if reason:
            print(f"{ME}: no report, as expected: {reason}")
            return status
        print(f"{ME}: no report from ncu (exit status {status}): no kernel was profiled. Was "
              "the program built with the capture-window plugin, and does the marked loop "
              "reach START?")
        return status or 1
    r = check_ncu_report(report, label, expect)
    print(f"{report}: {r['verdict']}")
    if status != 0:
        say(f"{ME}: ncu exited with status {status}")
    return status or (0 if r["ok"] else 1)
