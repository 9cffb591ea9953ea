"""plan.py - `plan`: where to cut. Reads the step times the runtime records
with CAPTURE_WINDOW_TIMES (from a run of the program, or --from a file of an
earlier run) and says, per loop and thread, where the warm-up ends, what a
steady step takes, which slow steps recur and which are sporadic, and which
CAPTURE_WINDOW values capture each, with their nsys commands.

The rule (docs/where-to-cut.md, "The rule"; runtime/stats.c holds the same):
  reference   the median M0 and median absolute deviation D0 of the second
              half of the loop's steps
  slow        t - M0 > max(0.5 * M0, 4 * D0, 1 us)
  warm-up     ends at the first iteration from which 5 steps in a row are
              not slow (none such: at the first step that is not slow)
  steady      the steps after the warm-up that are not slow nor an event's: median, spread
              (MAD over median, in %); steady when the spread is within 10 % and
              they neither drift nor jump among levels (steady.py)
  periodic    events every EVERY (>= 3) from PHASE, from the slowest band
              of steps down (a factor of 3 each): its occurrences are the
              places of its grid that hold a step of the band or of an
              event found before (a step holding two events counts for
              both); 80 % of the places, and 3 of them (far above the
              median), 4 (slow) or 8 (a small slowdown, 1.1x and more);
              the last step is no place, and an occurrence when that slow;
              and significant: with p the rate of the other steps (off its
              grid, not an event's found before) at least as slow as its
              least slow step, (x+1)/(n+2), the chance that K or more of
              its N places are that slow by chance, times the (period,
              phase) pairs tried, is at most ALPHA
  outliers    the other slow steps after the warm-up
"""
import bisect
import glob
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from array import array
from collections import Counter
from itertools import chain, compress, islice

from .common import ME, Usage, duration, option_value, plural
from .periods import periodic_events
from .plot import plot
from .rule import SLOW_MADS, SLOW_MIN_NS, median, slow_margin, sorted_median_mad, warmup_end
from .steady import LONG_COUNT, SHAPE_MIN, STEADY_SPREAD, durations, steadiness
from .steptimes import read_times, step_files
from .suggest import suggestions

SMALL_RATIO = 0.1    # a regular slowdown of 1.1x and more may be an event (logging)
SHOWN_OUTLIERS = 10


# ---- the analysis -----------------------------------------------------------

def analyse(index, ns, count=3):
    """One loop in one thread (index and ns: arrays) -> the analysis
    (without the suggestions' commands)."""
    n = len(index)
    # kept while the events are found: an array is a quarter of a list of ints
    second = array("q", sorted(islice(ns, n // 2, None)))
    m0, d0 = sorted_median_mad([second])
    limit = float(m0 + slow_margin(m0, d0))
    small = float(m0 + max(SMALL_RATIO * m0, 2 * SLOW_MADS * d0, SLOW_MIN_NS))
    # one pass over the steps: the slow ones are among those above `small`
    # or `limit`, whichever is lower (with a spread over 6.25 %, 8 MADs
    # are more than the slow margin)
    above_small = list(compress(range(n), map(min(small, limit).__lt__, ns)))
    slow = [p for p in above_small if ns[p] > limit]
    wp = warmup_end(slow, n)
    w = index[wp]
    cand = {index[p]: ns[p] for p in islice(above_small, bisect.bisect_left(above_small, wp), None)}
    consecutive = index[-1] - index[0] == n - 1
    events = periodic_events(cand, w, index[-1], None if consecutive else set(index), m0,
                             slow_margin(m0, d0))
    late_slow = [index[p] for p in slow if p >= wp]
    # The steps out of the steady ones -> how many events each holds (a
    # slow one that holds none: 0).
    out = Counter(chain.from_iterable(e["occurrences"] for e in events))
    out.update(dict.fromkeys(late_slow, 0))
    position = index[0].__rsub__ if consecutive else {i: p for p, i in enumerate(index)}.__getitem__
    taken = sorted(map(ns.__getitem__, map(position, out)))
    levels = []
    for e in events:
        # the event's level: its own steps that hold no other event, when it has some
        alone = [i for i in e["own"] if out[i] == 1] or e["own"]
        levels.append(median(array("q", (cand[i] for i in alone))))
    del cand, above_small  # before the second sort: a million steps' peak memory
    if wp <= n // 2:
        m, mad = sorted_median_mad([sorted(islice(ns, wp, n // 2)), second], taken)
    else:
        m, mad = sorted_median_mad([sorted(islice(ns, wp, None))], taken)
    for e, level in zip(events, levels):
        e["ratio"] = round(level / m, 1) if m else 0.0
        e["_held"] = set(e["occurrences"])
    events.sort(key=lambda e: -e["ratio"])
    shape = steadiness(index, ns, wp, out, m, mad)
    spread = round(100 * mad / m, 1) if m else 0.0
    in_level = shape["_in_level"]
    return {
        "iterations": n,
        "warmup_end": w,
        "steady": {"median_ns": round(m), "spread_pct": spread,
                   "steady": (not shape["drift"] and not shape["levels"] and spread <= STEADY_SPREAD
                              if shape["judged"] else None)},
        "drift": shape["drift"],
        "levels": shape["levels"],
        "periodic": events,
        "outliers": [i for i in late_slow if not out[i] and in_level(ns[position(i)]) is None],
        "coinciding": sorted(i for i, k in out.items() if k > 1),
        "last": index[-1],
        "_ratio": {i: ns[position(i)] / m for i in late_slow} if m else {},
        "_steady_start": steady_start(index, wp, out, count, consecutive),
        "_count": count,
        "_shape": shape,
        "_out": out,
        "_warmup_position": wp,
        "_consecutive": consecutive,
        "_index": index,
        "_ns": ns,
        "_long_start": steady_start(index, wp, out, LONG_COUNT, consecutive),
    }


def steady_start(index, wp, out, count, consecutive):
    """The first iteration >= the warm-up's end that starts COUNT recorded
    steps in a row, none slow or an event's."""
    run = 0
    for p in range(wp, len(index)):
        i = index[p]
        run = 0 if i in out or (run and not consecutive and index[p - 1] != i - 1) else run + 1
        if run == count:
            return index[p - count + 1]
    return None


# ---- output -----------------------------------------------------------------

def events_of(a, i):
    """The events step i holds, as 'every 20 and every 30'."""
    names = [f"every {e['every']}" for e in a["periodic"] if i in e["_held"]]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def several_line(a):
    shown = [f"{i} ({events_of(a, i)}{'; the last step' if i == a['last'] else ''})"
             for i in a["coinciding"][:SHOWN_OUTLIERS]]
    more = len(a["coinciding"]) - len(shown)
    return "  steps holding several events: " + ", ".join(shown) + (
        f" and {more} more" if more > 0 else "")


def text_report(loop, a, where):
    w = a["warmup_end"]
    lines = [f"loop '{loop['label']}' ({loop['place']}) thread {loop['thread']}"
             f"{where}: {plural(a['iterations'], 'iteration')}",
             f"  warm-up: {'iterations 0-%d' % (w - 1) if w > 1 else 'iteration 0' if w == 1 else 'none'}"
             f" (steady from {w})",
             f"  steady: median {duration(a['steady']['median_ns'])}, spread {a['steady']['spread_pct']:.1f}%"
             + {True: ": steady (", False: ": not steady (steady is ",
                None: f": too few steps to judge, {SHAPE_MIN} needed (steady is "}[a["steady"]["steady"]]
             + f"a spread within {STEADY_SPREAD:.0f}%, no drift, no levels)"]
    lines += shape_lines(a)
    for e in a["periodic"]:
        last = "; the last step too" if e["occurrences"][-1] not in e["hits"] else ""
        lines.append(f"  periodic: every {e['every']} steps from {e['first']}: {e['ratio']:.1f}x slower "
                     f"(eval? checkpoint?){last}")
    if a["coinciding"]:
        lines.append(several_line(a))
    shown = [f"{i} ({a['_ratio'][i]:.1f}x)" for i in a["outliers"][:SHOWN_OUTLIERS]]
    more = len(a["outliers"]) - len(shown)
    lines.append("  outliers: " + (", ".join(shown) + (f" and {more} more" if more > 0 else "")
                                    if shown else "none"))
    if a["suggest"]:
        lines.append("  suggestions:")
    for s in a["suggest"]:
        lines += [f"    {s['why']}: {s['env']}", f"      {s['nsys']}"]
    if a["_steady_start"] is None:
        lines.append(f"  no steady state: no {plural(a['_count'], 'step')} in a row after the warm-up "
                     "without a slow one")
    return "\n".join(lines)


def shape_lines(a):
    """The drift or the levels, and what to capture instead of a steady window."""
    shape = a["_shape"]
    if shape["levels"]:
        levels = shape["levels"]
        return [f"  {len(levels)} levels: {durations([lv['median_ns'] for lv in levels])}: shapes "
                f"change? no steady state; a window per level, and one that holds them all"]
    d = shape["drift"]
    if d:
        return [f"  drift: {'+' if d['ns_per_step'] >= 0 else '-'}{duration(abs(d['ns_per_step']))} a step "
                f"over the run ({durations([d['from_ns'], d['to_ns']]).replace(', ', ' to ')}, steps "
                f"{d['first']}-{d['last']}): no steady state; a window at each end, to compare"]
    if a["steady"]["steady"] is False:
        return [f"  noisy: a spread of {a['steady']['spread_pct']:.1f}%, no drift or levels "
                "(a busy machine?): a longer window"]
    return []


def public(loop, a, source):
    return {"label": loop["label"], "file": loop["file"], "line": loop["line"],
            "instance": loop["instance"], "thread": loop["thread"],
            "source": source, "iterations": a["iterations"],
            "warmup_end": a["warmup_end"], "steady": a["steady"],
            "drift": a["drift"] and {k: a["drift"][k] for k in ("ns_per_step", "from_ns", "to_ns")},
            "levels": a["levels"],
            "periodic": [{"every": e["every"], "phase": e["phase"], "ratio": e["ratio"],
                          "first": e["first"], "occurrences": len(e["occurrences"]),
                          "last_step": e["occurrences"][-1] not in e["hits"]}
                         for e in a["periodic"]],
            "coinciding": [{"step": i, "every": [e["every"] for e in a["periodic"] if i in e["_held"]]}
                           for i in a["coinciding"]],
            "outliers": a["outliers"], "suggest": a["suggest"]}


# ---- running the program ----------------------------------------------------

def steps_recorded(paths):
    """The most steps any loop of the files holds so far."""
    return max((len(loop["index"]) for loop in read_times(paths)), default=0)


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
                   it) or a quoted glob; may be repeated
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
                raise Usage(f"{ME}: plan: --from needs a file or a folder")
            opts["from"] += args[i + 1:j]
            i = j
        elif a.startswith("--from="):
            opts["from"].append(a[len("--from="):])
            i += 1
        elif a.split("=")[0] in ("--plot", "--steps", "--count"):
            name = a.split("=")[0]
            opts[name[2:]], i = option_value(args, i, name)
        elif a.startswith("-"):
            raise Usage(f"{ME}: plan: unknown option '{a}' (--help lists them)")
        else:
            break
    if opts["help"]:
        return opts, []
    if opts["plot"] is not None and not opts["plot"].endswith((".png", ".svg")):
        raise Usage(f"{ME}: plan: --plot takes FILE.png or FILE.svg, got '{opts['plot']}'")
    for name in ("steps", "count"):
        if opts[name] is not None and (not str(opts[name]).isdigit() or int(opts[name]) < 1):
            raise Usage(f"{ME}: plan: --{name} takes a positive integer, got '{opts[name]}'")
        opts[name] = int(opts[name]) if opts[name] is not None else None
    program = args[i:]
    if bool(program) == bool(opts["from"]):
        raise Usage(f"{ME}: plan: give either --from PATH... or -- PROGRAM [ARG...]")
    return opts, program


def cmd_plan(args):
    opts, program = parse_plan(args)
    if opts["help"]:
        print(HELP)
        return 0
    status, files, cuts = 0, [], []
    if opts["from"]:
        files = step_files(opts["from"])
        loops = read_times(files, cuts=cuts)
    else:
        with tempfile.TemporaryDirectory(prefix="cw-plan-") as folder:
            rc, stopped = run_program(program, folder, opts["steps"])
            loops = read_times(sorted(glob.glob(os.path.join(folder, "times.*"))), cuts=cuts)
        if rc != 0 and not stopped:
            print(f"{ME}: plan: {program[0]} exited with status {rc}", file=sys.stderr)
            status = 1
    for line in cuts:  # the steps before a cut are planned
        print(line, file=sys.stderr)
    if opts["steps"]:
        for loop in loops:
            loop["index"], loop["ns"] = loop["index"][:opts["steps"]], loop["ns"][:opts["steps"]]
    if not loops:
        print(f"{ME}: plan: no step times before the cut: nothing to plan" if cuts else
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
        a["suggest"] = suggestions(a, where, program)
        results.append((loop, a))
    if opts["json"]:
        print(json.dumps({"loops": [public(l, a, l["source"] if files else None)
                                    for l, a in results]}))
    else:
        print("\n\n".join(text_report(l, a, f" in {l['source']}" if len(files) > 1 else "")
                          for l, a in results))
    if opts["plot"]:
        plot(opts["plot"], results)  # without matplotlib: says so, the report stands
    return status


def help_text():
    """What `capture-window plan --help` prints (the entry point calls it)."""
    return HELP
