"""plan.py - `plan`: where to cut. Reads the step times the runtime records
with CAPTURE_WINDOW_TIMES (from a run of the program, or --from a file of an
earlier run) and says, per loop and thread, where the warm-up ends, what a
steady step takes, which slow steps recur and which are sporadic, and which
CAPTURE_WINDOW values capture each, with their nsys commands.

The analysis is analysis.py's (the rule is written there); this module
runs the program, reads the files and writes the text and the JSON.
"""
import glob
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from dataclasses import asdict

from .analysis import analyse, events_of
from .common import ME, BadArguments, Usage, duration, durations, option_value, plural
from .planranks import WHY, across_json, across_lines, across_ranks, file_lines
from .plot import plot
from .runtime import option_number
from .steady import SHAPE_MIN, STEADY_SPREAD
from .steptimes import NoHeader, NotStepTimes, read_times, step_files
from .suggest import shown, suggestions

SHOWN_OUTLIERS = 10


# ---- output -----------------------------------------------------------------

def several_line(a):
    listed = [f"{i} ({events_of(a, i)}{'; the last step' if i == a.last else ''})"
              for i in a.coinciding[:SHOWN_OUTLIERS]]
    more = len(a.coinciding) - len(listed)
    return "  steps holding several events: " + ", ".join(listed) + (
        f" and {more} more" if more > 0 else "")


def text_report(loop, a, suggested, where):
    """The text of one loop's analysis A; SUGGESTED: its suggestions as shown()."""
    w = a.warmup_end
    lines = [f"loop '{loop['label']}' ({loop['place']}) thread {loop['thread']}"
             f"{where}: {plural(a.iterations, 'iteration')}",
             f"  warm-up: {'iterations 0-%d' % (w - 1) if w > 1 else 'iteration 0' if w == 1 else 'none'}"
             f" (steady from {w})",
             f"  steady: median {duration(a.median_ns)}, spread {a.spread_pct:.1f}%"
             + {True: ": steady (", False: ": not steady (steady is ",
                None: f": too few steps to judge, {SHAPE_MIN} needed (steady is "}[a.steady]
             + f"a spread within {STEADY_SPREAD:.0f}%, no drift, no levels)"]
    lines += shape_lines(a)
    for e in a.periodic:
        last = "; the last step too" if e.occurrences[-1] not in e.hits else ""
        lines.append(f"  periodic: every {e.every} steps from {e.first}: {e.ratio:.1f}x slower "
                     f"(eval? checkpoint?){last}")
    if a.coinciding:
        lines.append(several_line(a))
    listed = [f"{i} ({a.ratio[i]:.1f}x)" for i in a.outliers[:SHOWN_OUTLIERS]]
    more = len(a.outliers) - len(listed)
    lines.append("  outliers: " + (", ".join(listed) + (f" and {more} more" if more > 0 else "")
                                    if listed else "none"))
    if suggested:
        lines.append("  suggestions:")
    for s in suggested:
        lines += [f"    {s['why']}: {s['env']}", f"      {s['nsys']}"]
    if a.steady_start is None:
        lines.append(f"  no steady state: no {plural(a.count, 'step')} in a row after the warm-up "
                     "without a slow one")
    return "\n".join(lines)


def shape_lines(a):
    """The drift or the levels, and what to capture instead of a steady window."""
    if a.levels:
        levels = a.levels
        return [f"  {len(levels)} levels: {durations([lv['median_ns'] for lv in levels])}: shapes "
                f"change? no steady state; a window per level, and one that holds them all"]
    d = a.drift
    if d:
        return [f"  drift: {'+' if d['ns_per_step'] >= 0 else '-'}{duration(abs(d['ns_per_step']))} a step "
                f"over the run ({durations([d['from_ns'], d['to_ns']]).replace(', ', ' to ')}, steps "
                f"{d['first']}-{d['last']}): no steady state; a window at each end, to compare"]
    if a.steady is False:
        return [f"  noisy: a spread of {a.spread_pct:.1f}%, no drift or levels "
                "(a busy machine?): a longer window"]
    return []


def public(loop, a, suggested, source):
    """The --json object of one loop's analysis A; SUGGESTED: as shown()."""
    return {"label": loop["label"], "file": loop["file"], "line": loop["line"],
            "instance": loop["instance"], "thread": loop["thread"],
            "source": source, "iterations": a.iterations,
            "warmup_end": a.warmup_end,
            "steady": {"median_ns": a.median_ns, "spread_pct": a.spread_pct, "steady": a.steady},
            "drift": a.drift and {k: a.drift[k] for k in ("ns_per_step", "from_ns", "to_ns")},
            "levels": a.levels,
            "periodic": [{"every": e.every, "phase": e.phase, "ratio": e.ratio,
                          "first": e.first, "occurrences": len(e.occurrences),
                          "last_step": e.occurrences[-1] not in e.hits}
                         for e in a.periodic],
            "coinciding": [{"step": i, "every": [e.every for e in a.periodic if i in e.held]}
                           for i in a.coinciding],
            "outliers": a.outliers, "suggest": suggested}


# ---- running the program ----------------------------------------------------

def steps_recorded(paths):
    """The most steps any loop of the files holds so far (0 while a file
    is still empty: the runtime has created it, not yet written its header)."""
    try:
        return max((len(loop["index"]) for loop in read_times(paths)), default=0)
    except NoHeader:
        return 0


def run_program(program, folder, stop_at):
    """Runs PROGRAM with no window and every step timed; with stop_at, stops
    it (its process group) once a loop has that many steps. Its stdout goes
    to stderr, so plan's own output stays clean. -> (status, stopped)."""
    env = dict(os.environ, CAPTURE_WINDOW="none",
               CAPTURE_WINDOW_TIMES=os.path.join(folder, "times.%p"))
    print(f"{ME}: running {shlex.join(program)} with CAPTURE_WINDOW=none "
          f"CAPTURE_WINDOW_TIMES={env['CAPTURE_WINDOW_TIMES']}", file=sys.stderr)
    try:
        child = subprocess.Popen(program, env=env, stdout=sys.stderr, start_new_session=True)
    except OSError as e:
        raise Usage(f"{ME}: plan: cannot run {program[0]}: {e}")
    stopped = False
    while child.poll() is None:
        try:
            child.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            if stop_at and steps_recorded(glob.glob(os.path.join(folder, "times.*"))) >= stop_at:
                stopped = stop(child)
    return child.returncode, stopped


def stop(child):
    os.killpg(child.pid, signal.SIGTERM)
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    return True


# ---- the command ------------------------------------------------------------

HELP = """usage: capture-window plan [OPTIONS] -- PROGRAM [ARG...]
       capture-window plan [OPTIONS] --from FILE|FOLDER [FILE...]

Where to cut: times every step of every marked loop (one run of PROGRAM
with CAPTURE_WINDOW=none and CAPTURE_WINDOW_TIMES, or the step-time files
of an earlier run) and says per loop and thread where the warm-up ends,
what a steady step takes, which slow steps recur (each event its own
period, the steps that hold several named) and which are sporadic, with a
CAPTURE_WINDOW value and its nsys command for each (docs/where-to-cut.md).

  --from PATH...   read step-time files: several files (the per-process
                   files of one run), a folder (the step-time files in
                   it) or a quoted glob; may be repeated. With several,
                   each file is named (why one holds no step) and each
                   loop compared across the ranks
  --json           one JSON object instead of the text report
  --plot FILE      also draw the step times (.png or .svg; needs matplotlib)
  --count N        steps per suggested steady window (default 3)
  --steps N        only the first N steps of each loop; with PROGRAM, stop
                   it once a loop has N
  -h, --help       this text"""


def parse_plan(args):
    opts = {"json": False, "plot": None, "steps": None, "from": [], "count": 3, "help": False}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a in ("-h", "--help"):
            opts["help"], i = True, i + 1
        elif a == "--json":
            opts["json"], i = True, i + 1
        elif a == "--from":
            # --from FILE...: every word up to the next option (a shell glob)
            j = i + 1
            while j < len(args) and not args[j].startswith("-"):
                j += 1
            if j == i + 1:
                raise BadArguments(f"{ME}: plan: --from needs a file or a folder")
            opts["from"] += args[i + 1:j]
            i = j
        elif a.startswith("--from="):
            opts["from"].append(a[len("--from="):])
            i += 1
        elif a.split("=")[0] in ("--plot", "--steps", "--count"):
            name = a.split("=")[0]
            opts[name[2:]], i = option_value(args, i, name)
        elif a.startswith("-"):
            raise BadArguments(f"{ME}: plan: unknown option '{a}' (--help lists them)")
        else:
            break
    if opts["help"]:
        return opts, []
    if opts["plot"] is not None and not opts["plot"].endswith((".png", ".svg")):
        raise Usage(f"{ME}: plan: --plot takes FILE.png or FILE.svg, got '{opts['plot']}'")
    for name in ("steps", "count"):
        if opts[name] is not None:
            opts[name], why = option_number(f"--{name}", str(opts[name]), 1)
            if why:
                raise Usage(f"{ME}: plan: {why}")
    program = args[i:]
    if bool(program) == bool(opts["from"]):
        raise BadArguments(f"{ME}: plan: give either --from PATH... or -- PROGRAM [ARG...]")
    return opts, program


def cmd_plan(args):
    opts, program = parse_plan(args)
    if opts["help"]:
        print(HELP)
        return 0
    status, files, cuts, held = 0, [], [], []   # held: what each file held (FileSteps)
    try:
        if opts["from"]:
            files = step_files(opts["from"])
            loops = read_times(files, cuts=cuts, files=held)
        else:
            with tempfile.TemporaryDirectory(prefix="cw-plan-") as folder:
                rc, stopped = run_program(program, folder, opts["steps"])
                loops = read_times(sorted(glob.glob(os.path.join(folder, "times.*"))), cuts=cuts,
                                   files=held)
            if rc != 0 and not stopped:
                print(f"{ME}: plan: {program[0]} exited with status {rc}", file=sys.stderr)
                status = 1
    except NotStepTimes as e:
        raise Usage(f"{ME}: plan: {e}") from None
    for line in cuts:  # the steps before a cut are planned
        print(f"{ME}: plan: {line}", file=sys.stderr)
    if opts["steps"]:
        for loop in loops:
            loop["index"], loop["ns"] = loop["index"][:opts["steps"]], loop["ns"][:opts["steps"]]
    if not loops:
        for f in held if not cuts else ():   # the runtime wrote them: why they hold no step
            print(f"{ME}: plan: {f.path}: {WHY[f.why]}", file=sys.stderr)
        print(f"{ME}: plan: no step times before the cut: nothing to plan" if cuts else
              f"{ME}: plan: no step times in {plural(len(held), 'file')}: nothing to plan" if held else
              f"{ME}: plan: no step times recorded: was the program built with the capture-window "
              "plugin, and did a marked loop run?", file=sys.stderr)
        return 1
    several = len({l["place"] for l in loops}) > 1
    results = []
    for loop in loops:
        a = analyse(loop["index"], loop["ns"], opts["count"])
        at = "@" + loop["instance"] if loop["instance"] else ""
        pick = f"{os.path.basename(loop['file'])}:{loop['line']}{at}"  # tmpl<int>: quoted
        where = f"CAPTURE_WINDOW_LOOPS={shlex.quote(pick)}" if several else None
        found = suggestions(a, loop["left"])
        results.append((loop, a, found, [shown(s, where, program) for s in found]))
    across = across_ranks([(l, a) for l, a, _, _ in results]) if len(files) > 1 else []
    if opts["json"]:
        found = {"loops": [public(l, a, shows, l["source"] if files else None)
                           for l, a, _, shows in results]}
        if len(files) > 1:   # several processes' files: each one, and the loops across them
            found.update(files=[asdict(f) for f in held], ranks=across_json(across))
        print(json.dumps(found))
    else:
        sections = [text_report(l, a, shows, f" in {l['source']}" if len(files) > 1 else "")
                    for l, a, _, shows in results]
        if len(files) > 1:
            sections.append("\n".join([f"step-time files: {len(held)}"] + file_lines(held)))
            sections += ["\n".join(across_lines(a)) for a in across]
        print("\n\n".join(sections))
    if opts["plot"]:
        plot(opts["plot"], [(l, a, found) for l, a, found, _ in results])  # without matplotlib: says so, the report stands
    return status


def help_text():
    """What `capture-window plan --help` prints (the entry point calls it)."""
    return HELP
