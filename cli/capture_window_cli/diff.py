"""diff.py - `diff BASE NEW`: what changed between two runs, beyond noise
(issue 42; docs/cli.md, "diff"). BASE and NEW are each a step-time file
(CAPTURE_WINDOW_TIMES), a folder of them or a quoted glob (one file per
rank or process). The findings come from diffsteps.py as data; this
module only reads the command line and writes them as text or JSON.

Exit status: 0; 1 when --fail-if-slower PCT finds a loop whose new steady
step is confidently (the 95 % interval's low end) more than PCT % slower;
2 for bad usage or input, with a message that says what is wrong.
"""
import json
import sys

from . import change
from .common import ME, Usage, duration, option_value, plural
from .diffsteps import steps_diff
from .steptimes import read_times, step_files

HELP = """usage: capture-window diff [--json] [--fail-if-slower PCT] BASE NEW

What changed between two runs of a program, beyond noise. BASE and NEW
are each a step-time file (CAPTURE_WINDOW_TIMES), a folder of them, or a
quoted glob (one file per rank or process). Per marked loop (matched by
its label): the steady step before and after with the change and its
95 % interval, the verdict (faster, slower, or same: no change beyond
noise), the warm-up before and after, and each periodic event with its
cost before and after (docs/where-to-cut.md, "Did my change help?").

  --json                one JSON object instead of the text
  --fail-if-slower PCT  exit 1 when a loop's new steady step is
                        confidently more than PCT % slower (CI's gate)
  -h, --help            this text

Exit status: 0; 1 under --fail-if-slower; 2 for bad usage or input."""


def parse(args):
    opts, words, i = {"json": False, "fail": None}, [], 0
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
        elif a == "--":
            words += args[i + 1:]
            break
        elif a.startswith("-") and len(a) > 1:
            raise Usage(f"{ME}: diff: unknown option '{a}' (--help lists them)")
        else:
            words.append(a)
            i += 1
    if len(words) != 2:
        raise Usage(f"{ME}: diff: give two runs, BASE and NEW (each a step-time file, a folder "
                    f"of them or a quoted glob), got {len(words)}: {' '.join(words) or 'none'}")
    return opts, words


def read_side(path):
    files = step_files([path])
    loops = read_times(files)
    if not loops:
        raise Usage(f"{ME}: diff: {path}: no step times in it (was the program built with the "
                    "capture-window plugin, and did a marked loop run?)")
    return files, loops


# ---- output -----------------------------------------------------------------

def pct(x):
    return f"{round(100 * x, 1) + 0.0:+.1f}%"   # + 0.0: no "-0.0%"


def steady_words(c):
    if c is None:
        return "no steady step on a side: nothing to compare"
    return (f"{duration(c.base_ns)} -> {duration(c.new_ns)}, {pct(c.change)} "
            f"(95% interval {pct(c.low)} to {pct(c.high)}): {c.verdict}")


def event_words(e):
    before = duration(e.base_ns) if e.base_ns is not None else "none"
    after = duration(e.new_ns) if e.new_ns is not None else "none"
    return f"every {e.every}: {before} -> {after}"


def runs(n_series, steps):
    return f"{plural(steps, 'step')}" + (f" in {n_series} series" if n_series > 1 else "")


def text(found):
    blocks = []
    for d in found.loops:
        moved = f" -> {d.new_place}" if d.new_place != d.place else ""
        lines = [f"loop '{d.label}' ({d.place}{moved}): {runs(d.series[0], d.steps[0])} -> "
                 f"{runs(d.series[1], d.steps[1])}",
                 f"  steady step: {steady_words(d.steady)}",
                 f"  warm-up: {plural(d.warmup[0], 'step')} -> {plural(d.warmup[1], 'step')}"]
        lines += [f"  {event_words(e)}" for e in d.events]
        blocks.append("\n".join(lines))
    for what, loops in (("base", found.only_base), ("new", found.only_new)):
        blocks += [f"loop '{label}' ({place}): in the {what} run only" for label, place in loops]
    return "\n\n".join(blocks)


def steady_json(c):
    if c is None:
        return None
    return {"base_ms": c.base_ns / 1e6, "new_ms": c.new_ns / 1e6, "change": round(c.change, 6),
            "low": round(c.low, 6), "high": round(c.high, 6), "verdict": c.verdict,
            "steps": list(c.steps), "block": list(c.block)}


def as_json(found, base_files, new_files):
    loops = [{"label": d.label, "place": d.place, "new_place": d.new_place,
              "series": list(d.series), "steps": list(d.steps),
              "warmup": {"base": d.warmup[0], "new": d.warmup[1]},
              "steady": steady_json(d.steady),
              "periodic": [{"every": e.every,
                            "base_ms": None if e.base_ns is None else e.base_ns / 1e6,
                            "new_ms": None if e.new_ns is None else e.new_ns / 1e6}
                           for e in d.events]}
             for d in found.loops]
    return {"base": base_files, "new": new_files,
            "steady": loops[0]["steady"] if loops else None, "loops": loops,
            "only_base": [{"label": l, "place": p} for l, p in found.only_base],
            "only_new": [{"label": l, "place": p} for l, p in found.only_new]}


# ---- the command ------------------------------------------------------------

def cmd_diff(args):
    opts, (base, new) = parse(args)
    base_files, base_loops = read_side(base)
    new_files, new_loops = read_side(new)
    found = steps_diff(base_loops, new_loops)
    if not found.loops:
        raise Usage(f"{ME}: diff: no marked loop is in both runs (base: "
                    f"{', '.join(sorted({l['label'] for l in base_loops}))}; new: "
                    f"{', '.join(sorted({l['label'] for l in new_loops}))})")
    print(json.dumps(as_json(found, base_files, new_files)) if opts["json"] else text(found))
    if opts["fail"] is None:
        return 0
    slower = [d for d in found.loops if change.confidently_slower(d.steady, opts["fail"])]
    for d in slower:
        print(f"{ME}: diff: loop '{d.label}' is {pct(d.steady.change)} slower, at least "
              f"{pct(d.steady.low)} (95%): more than --fail-if-slower {opts['fail']:g}%",
              file=sys.stderr)
    return 1 if slower else 0


def help_text():
    return HELP
