"""suggest.py - plan's suggestions: the CAPTURE_WINDOW values that
capture the steady state (or, without one, each level or the drift's
ends) and each periodic event, with their nsys commands."""
import shlex

from .common import duration, nsys_defaults, plural, program_name
from .rule import median
from .steady import LONG_COUNT, run_of, shortest_holding

REPEAT = 3           # windows of a periodic suggestion


def nsys_line(env, range_end, loops_env, program):
    """The suggestion's command line: its variables, then nsys."""
    command = ["nsys", "profile", *nsys_defaults([], range_end, suggested=True),
               "-o", report_name(program)]
    return " ".join([env] + ([loops_env] if loops_env else []) + [
        shlex.join(command + (program or ["PROGRAM"]))])


def report_name(program):
    return program_name(program) if program else "report"


def periodic_windows(e, coinciding):
    """The slow steps one event's windows centre on: TIMES (at most REPEAT)
    consecutive occurrences on its grid that hold no other event, when
    there are such (a window on a step that also checkpoints would not show
    the evaluation alone), else its first TIMES; step 0 has no step before
    it. They are evenly spaced, so the suggestion is one START:3/EVERYxTIMES,
    the form the runtime marks as aimed at the event (docs/nsys.md)."""
    hits = [i for i in e["hits"] if i >= 1]
    times = min(REPEAT, len(hits))
    for k in range(len(hits) - times + 1):
        run = hits[k:k + times]
        if all(b - a == e["every"] for a, b in zip(run, run[1:])) and not coinciding & set(run):
            return run
    return hits[:times]


def window(why, start, count, loops_env, program):
    env = f"CAPTURE_WINDOW={start}:{count}"
    return {"why": why, "env": env, "nsys": nsys_line(env, "stop", loops_env, program)}


def shape_windows(a, loops_env, program):
    """No steady state: a window per level (COUNT of its steps in a row,
    else its longest run) and the shortest one that holds every level; or
    the drift's first and last COUNT steps, none slow, to compare."""
    count, shape, out, index, ns = a["_count"], a["_shape"], a["_out"], a["_index"], a["_ns"]
    w = a["_warmup_position"]
    steps = range(w, len(index))
    if shape["levels"]:
        in_level = shape["_in_level"]

        def level(p):
            return None if out.get(index[p]) else in_level(ns[p])
        found = []
        for k, lv in enumerate(shape["levels"]):
            start, length = run_of(index, steps, lambda p: level(p) == k, count)
            if start is not None:
                few = "" if length == count else f" (no {count} in a row)"
                found.append(window(f"level {duration(lv['median_ns'])}: {plural(length, 'step')} "
                                    f"in a row at it{few}", start, length, loops_env, program))
        start, length = shortest_holding(index, steps, level, len(shape["levels"]))
        if start is not None:
            kinds = len(shape["levels"])
            found.append(window("every level in one window: the shortest run after the warm-up that "
                                f"holds {'both' if kinds == 2 else f'all {kinds}'}", start, length,
                                loops_env, program))
        return found
    drift = shape["drift"]

    def calm(p):
        return index[p] not in out
    first = run_of(index, steps, calm, count)
    last = run_of(index, range(len(index) - 2, w - 1, -1), calm, count)  # none on the last step
    found = []
    for (start, length), end in ((first, "start"), (last, "end")):
        if length == count and (end == "start" or start != first[0]):
            took = median([ns[p] for p in range(start - index[0], start - index[0] + length)]
                          if a["_consecutive"] else [drift["from_ns" if end == "start" else "to_ns"]])
            found.append(window(f"the drift's {end} ({duration(took)} steps): {plural(count, 'step')}, "
                                "none slow, to compare", start, count, loops_env, program))
    return found


def suggestions(a, loops_env, program):
    out = []
    count = a["_count"]
    shape = a["_shape"]
    if shape["levels"] or shape["drift"]:
        out += shape_windows(a, loops_env, program)
    elif a["steady"]["steady"] is False and a["_long_start"] is not None and LONG_COUNT > count:
        out.append(window(f"a longer window: {LONG_COUNT} steps after the warm-up, none slow (the "
                          f"steps vary by {a['steady']['spread_pct']:.1f}%: {count} may not be typical)",
                          a["_long_start"], LONG_COUNT, loops_env, program))
    elif a["_steady_start"] is not None:
        out.append(window(f"steady state: {plural(count, 'step')} after the warm-up, none slow",
                          a["_steady_start"], count, loops_env, program))
    coinciding = set(a["coinciding"])
    for e in a["periodic"]:
        every, first = e["every"], e["first"]
        centres = periodic_windows(e, coinciding)
        times = len(centres)
        if not times:
            continue
        env = f"CAPTURE_WINDOW={centres[0] - 1}:3/{every}x{times}"
        alone = "" if not coinciding & set(e["hits"]) else (
            ", at steps that hold no other event" if not coinciding & set(centres) else
            ", some holding another event too")
        out.append({"why": f"every {every} steps from {first} ({e['ratio']:.1f}x slower): "
                           f"the slow step and one on either side, {times} times{alone}",
                    "env": env, "nsys": nsys_line(env, f"repeat:{times}", loops_env, program)})
    return out
