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
  steady      the steps after the warm-up that are not slow: median, spread
              (MAD over median, in %)
  periodic    slow steps at the iterations i >= warm-up end with
              i % EVERY == PHASE (EVERY >= 3), within a factor of 3 of
              their median: at least 4 of them, and at least 80 % of those
              iterations; the slowest such event first, its steps then
              taken out
  outliers    the other slow steps after the warm-up
"""
import glob
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

from .common import ME, Usage, option_value, program_name
from .plot import plot

SLOW_RATIO, SLOW_MADS, SLOW_MIN_NS = 0.5, 4.0, 1000.0
WARMUP_RUN = 5
PERIODIC_MIN, PERIODIC_SHARE = 4, 0.8  # four: three equal gaps, as spike wants
PERIOD_MIN = 3       # every other step slow: the median is no steady step
ALIKE = 3            # the steps of one event take within 3x of each other
NEIGHBOURS = 16      # periods tried: gaps to the next 16 slow steps (noise lies between)
REPEAT = 3           # windows of a periodic suggestion
SHOWN_OUTLIERS = 10


# ---- the rule ---------------------------------------------------------------

def median(values):
    v = sorted(values)
    n = len(v)
    if not n:
        return 0.0
    return float(v[n // 2]) if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def mad(values, m):
    return median([abs(x - m) for x in values])


def is_slow(ns, m, d):
    return ns - m > max(SLOW_RATIO * m, SLOW_MADS * d, SLOW_MIN_NS)


def warmup_end(indexes, slow):
    """The first iteration from which WARMUP_RUN recorded steps in a row are
    not slow; else the first step that is not slow; else 0."""
    run = 0
    for k, i in enumerate(indexes):
        run = 0 if i in slow else run + 1
        if run == WARMUP_RUN:
            return indexes[k - WARMUP_RUN + 1]
    return next((i for i in indexes if i not in slow), indexes[0] if indexes else 0)


def alike(hits, steps):
    """The hits within a factor of ALIKE of their median time: an
    evaluation takes about the same time each time, noise does not (a
    busy machine may still double one)."""
    m = median(steps[i] for i in hits)
    return [i for i in hits if m / ALIKE <= steps[i] <= ALIKE * m]


def strongest_event(remaining, steps, start, last, recorded):
    """The recurring slow steps that are slowest: (time, every, phase,
    hits), or None. An event every 60 steps that is a part of one every 20
    is that one."""
    candidates = {b - a for k, a in enumerate(remaining)
                  for b in remaining[k + 1:k + 1 + NEIGHBOURS] if b - a >= PERIOD_MIN}
    found = []
    for every in sorted(candidates):
        if last - start < (PERIODIC_MIN - 1) * every:
            break
        by_phase = {}
        for i in remaining:
            by_phase.setdefault(i % every, []).append(i)
        for phase, hits in sorted(by_phase.items()):
            hits = alike(hits, steps) if len(hits) >= PERIODIC_MIN else []
            first = start + (phase - start) % every
            places = sum(1 for i in range(first, last + 1, every) if i in recorded)
            if len(hits) >= PERIODIC_MIN and len(hits) >= PERIODIC_SHARE * places:
                found.append((median(steps[i] for i in hits), every, phase, hits))
    own = [e for e in found if not any(o[1] < e[1] and e[1] % o[1] == 0 and e[2] % o[1] == o[2]
                                       for o in found)]
    return max(own, default=None, key=lambda e: e[0])


def periodic_events(steps, late_slow, start):
    """(every, phase, hits) of the slow steps that recur, the slowest first;
    late_slow: the slow steps at or after `start`. Each event takes its
    steps out before the next is looked for; what no event takes is
    sporadic."""
    indexes = sorted(steps)
    remaining, events = sorted(late_slow), []
    while len(remaining) >= PERIODIC_MIN:
        event = strongest_event(remaining, steps, start, indexes[-1], set(indexes))
        if not event:
            break
        events.append(event[1:])
        taken = set(event[3])
        remaining = [i for i in remaining if i not in taken]
    return events, remaining


def analyse(steps, count=3):
    """steps: {iteration: ns} of one loop in one thread -> the analysis
    (without the suggestions' commands)."""
    indexes = sorted(steps)
    half = indexes[len(indexes) // 2:]
    m0 = median(steps[i] for i in half)
    d0 = mad([steps[i] for i in half], m0)
    slow = {i for i in indexes if is_slow(steps[i], m0, d0)}
    w = warmup_end(indexes, slow)
    steady = [steps[i] for i in indexes if i >= w and i not in slow]
    m = median(steady)
    events, outliers = periodic_events(steps, [i for i in sorted(slow) if i >= w], w)
    return {
        "iterations": len(indexes),
        "warmup_end": w,
        "steady": {"median_ns": round(m), "spread_pct": round(100 * mad(steady, m) / m, 1) if m else 0.0},
        "periodic": [{"every": e, "phase": p, "ratio": round(median(steps[i] for i in hits) / m, 1),
                      "first": hits[0], "hits": len(hits)} for e, p, hits in events],
        "outliers": outliers,
        "_slow": slow,
        "_ratio": {i: steps[i] / m for i in outliers} if m else {},
        "_steady_start": steady_start(indexes, slow, w, count),
        "_count": count,
    }


def steady_start(indexes, slow, w, count):
    """The first iteration >= w that starts COUNT recorded steps, none slow."""
    recorded = set(indexes)
    for s in indexes:
        if s >= w and all(i in recorded and i not in slow for i in range(s, s + count)):
            return s
    return None


# ---- suggestions ------------------------------------------------------------

def nsys_line(env, range_end, loops_env, program):
    """The suggestion's command line: its variables, then nsys."""
    command = ["nsys", "profile", "-t", "cuda,nvtx", "-c", "cudaProfilerApi",
               f"--capture-range-end={range_end}", "-o", report_name(program)]
    return " ".join([env] + ([loops_env] if loops_env else []) + [
        shlex.join(command + (program or ["PROGRAM"]))])


def report_name(program):
    return program_name(program) if program else "report"


def suggestions(a, loops_env, program):
    out = []
    count = a["_count"]
    if a["_steady_start"] is not None:
        s = a["_steady_start"]
        env = f"CAPTURE_WINDOW={s}:{count}"
        out.append({"why": f"steady state: {count} steps after the warm-up, none slow",
                    "env": env, "nsys": nsys_line(env, "stop", loops_env, program)})
    for e in a["periodic"]:
        every, first = e["every"], e["first"]
        start = first - 1 if first >= 1 else first + every - 1
        times = min(REPEAT, e["hits"])
        env = f"CAPTURE_WINDOW={start}:3/{every}x{times}"
        out.append({"why": f"every {every} steps from {first} ({e['ratio']:.1f}x slower): "
                           f"the slow step and one on either side, {times} times",
                    "env": env, "nsys": nsys_line(env, f"repeat:{times}", loops_env, program)})
    return out


# ---- the step-times file ----------------------------------------------------

# A loop's place: FILE:LINE, and @INSTANCE for a template instantiation's.
PLACE = re.compile(r"(.*):(\d+)(?:@(.+))?")


def read_times(paths):
    """Loops of the files (the format of docs/environment.md, "Step times"),
    in the order their headers come: [{label, file, line, instance, place,
    thread, steps}]."""
    loops = []
    for path in paths:
        by_id = {}
        with open(path, errors="replace") as f:
            for n, line in enumerate(f, 1):
                if not line.endswith("\n"):
                    break  # a last line cut short: the run was killed mid-write
                words = line.split()
                if not words or words[0].startswith("#"):
                    continue
                if words[0] == "loop" and len(words) >= 5 and words[2].startswith("T"):
                    place = line.split(None, 4)[4].rstrip("\n")
                    m = PLACE.fullmatch(place)
                    if not m:
                        raise Usage(f"{ME}: plan: {path}:{n}: not a step-times line: {line.strip()!r}")
                    file, lineno, instance = m.groups()
                    loop = {"label": words[3], "file": file, "line": int(lineno),
                            "instance": instance or "", "place": place,
                            "thread": int(words[2][1:]), "steps": {}}
                    by_id[words[1]] = loop
                    loops.append(loop)
                elif len(words) == 3 and words[0] in by_id:
                    by_id[words[0]]["steps"][int(words[1])] = int(words[2])
                else:
                    raise Usage(f"{ME}: plan: {path}:{n}: not a step-times line: {line.strip()!r}")
    return [l for l in loops if l["steps"]]


# ---- output -----------------------------------------------------------------

def duration(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.3f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3f} us"
    return f"{ns:.0f} ns"


def text_report(loop, a):
    w = a["warmup_end"]
    lines = [f"loop '{loop['label']}' ({loop['place']}) thread {loop['thread']}: "
             f"{a['iterations']} iterations",
             f"  warm-up: {'iterations 0-%d' % (w - 1) if w > 1 else 'iteration 0' if w == 1 else 'none'}"
             f" (steady from {w})",
             f"  steady: median {duration(a['steady']['median_ns'])}, spread {a['steady']['spread_pct']:.1f}%"]
    for e in a["periodic"]:
        lines.append(f"  periodic: every {e['every']} steps from {e['first']}: {e['ratio']:.1f}x slower "
                     "(eval? checkpoint?)")
    shown = [f"{i} ({a['_ratio'][i]:.1f}x)" for i in a["outliers"][:SHOWN_OUTLIERS]]
    more = len(a["outliers"]) - len(shown)
    lines.append("  outliers: " + (", ".join(shown) + (f" and {more} more" if more > 0 else "")
                                    if shown else "none"))
    if a["suggest"]:
        lines.append("  suggestions:")
    for s in a["suggest"]:
        lines += [f"    {s['why']}: {s['env']}", f"      {s['nsys']}"]
    if a["_steady_start"] is None:
        lines.append(f"  no steady state: no {a['_count']} steps in a row after the warm-up "
                     "without a slow one")
    return "\n".join(lines)


def public(loop, a):
    return {"label": loop["label"], "file": loop["file"], "line": loop["line"],
            "instance": loop["instance"], "thread": loop["thread"], "iterations": a["iterations"], "warmup_end": a["warmup_end"],
            "steady": a["steady"],
            "periodic": [{k: e[k] for k in ("every", "phase", "ratio")} for e in a["periodic"]],
            "outliers": a["outliers"], "suggest": a["suggest"]}


# ---- running the program ----------------------------------------------------

def steps_recorded(paths):
    """The most steps any loop of the files holds so far."""
    most = 0
    for path in paths:
        counts = {}
        with open(path, errors="replace") as f:
            for line in f:
                words = line.split()
                if len(words) == 3 and words[0].isdigit():
                    counts[words[0]] = counts.get(words[0], 0) + 1
        most = max([most, *counts.values()])
    return most


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

def parse_plan(args):
    opts = {"json": False, "plot": None, "steps": None, "from": None, "count": 3}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "--json":
            opts["json"], i = True, i + 1
        elif a.split("=")[0] in ("--plot", "--from", "--steps", "--count"):
            name = a.split("=")[0]
            opts[name[2:]], i = option_value(args, i, name)
        elif a.startswith("-"):
            raise Usage(f"{ME}: plan: unknown option '{a}'")
        else:
            break
    if opts["plot"] is not None and not opts["plot"].endswith((".png", ".svg")):
        raise Usage(f"{ME}: plan: --plot takes FILE.png or FILE.svg, got '{opts['plot']}'")
    for name in ("steps", "count"):
        if opts[name] is not None and (not str(opts[name]).isdigit() or int(opts[name]) < 1):
            raise Usage(f"{ME}: plan: --{name} takes a positive integer, got '{opts[name]}'")
        opts[name] = int(opts[name]) if opts[name] is not None else None
    program = args[i:]
    if bool(program) == bool(opts["from"]):
        raise Usage(f"{ME}: plan: give either --from PATH or -- PROGRAM [ARG...]")
    return opts, program


def cmd_plan(args):
    opts, program = parse_plan(args)
    status = 0
    if opts["from"]:
        if not os.path.isfile(opts["from"]):
            print(f"{ME}: plan: no such file: {opts['from']}", file=sys.stderr)
            return 1
        loops = read_times([opts["from"]])
    else:
        with tempfile.TemporaryDirectory(prefix="cw-plan-") as folder:
            rc, stopped = run_program(program, folder, opts["steps"])
            loops = read_times(sorted(glob.glob(os.path.join(folder, "times.*"))))
        if rc != 0 and not stopped:
            print(f"{ME}: plan: {program[0]} exited with status {rc}", file=sys.stderr)
            status = 1
    if opts["steps"]:
        for loop in loops:
            loop["steps"] = {i: loop["steps"][i] for i in sorted(loop["steps"])[:opts["steps"]]}
    if not loops:
        print(f"{ME}: plan: no step times recorded: was the program built with the capture-window "
              "plugin, and did a marked loop run?", file=sys.stderr)
        return 1
    several = len({l["place"] for l in loops}) > 1
    results = []
    for loop in loops:
        a = analyse(loop["steps"], opts["count"])
        at = "@" + loop["instance"] if loop["instance"] else ""
        pick = f"{os.path.basename(loop['file'])}:{loop['line']}{at}"  # tmpl<int>: quoted
        where = f"CAPTURE_WINDOW_LOOPS={shlex.quote(pick)}" if several else None
        a["suggest"] = suggestions(a, where, program)
        results.append((loop, a))
    if opts["json"]:
        print(json.dumps({"loops": [public(l, a) for l, a in results]}))
    else:
        print("\n\n".join(text_report(l, a) for l, a in results))
    if opts["plot"]:
        plot(opts["plot"], results)  # without matplotlib: says so, the report stands
    return status


def help_text():
    """What `capture-window plan --help` prints (the entry point calls it)."""
    from .common import verb_help
    return verb_help("plan")
