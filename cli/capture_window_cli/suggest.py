"""suggest.py - plan's suggestions: the CAPTURE_WINDOW values that
capture the steady state (or, without one, each level or the drift's
ends) and each periodic event, with their nsys commands.

API (plan, profile --auto and diff use it; keep it stable):
  suggestions(a, left=()) -> [Suggestion], A: an analysis.Analysis, LEFT
      the sorted steps after which the loop was left (steptimes' loop
      "left"): every window lies inside one entry of the loop
  Suggestion(start, count, every, times, aim, detail): a window of COUNT
      steps from START, or TIMES of them EVERY steps apart (every 0: one);
      AIM what it captures ('steady state', 'every 25 steps from 25 (6.0x
      slower)'), DETAIL which steps and why; .value() is CAPTURE_WINDOW's
      value, .range_end() nsys's --capture-range-end, .why() the words
  shown(s, loops_env, program) -> {why, env, nsys}: the edge, plan's text
      and --json
"""
import shlex
from bisect import bisect_left
from dataclasses import dataclass

from .common import duration, nsys_defaults, plural, program_name
from .rule import median
from .steady import LONG_COUNT, run_of, shortest_holding

REPEAT = 3           # windows of a periodic suggestion


@dataclass
class Suggestion:
    start: int
    count: int
    every: int = 0      # windows EVERY steps apart; 0: one window
    times: int = 1      # how many
    aim: str = ""       # what it captures
    detail: str = ""    # which steps, and why

    def value(self):
        """CAPTURE_WINDOW's value: START:COUNT or START:COUNT/EVERYxTIMES."""
        periodic = f"/{self.every}x{self.times}" if self.every else ""
        return f"{self.start}:{self.count}{periodic}"

    def range_end(self):
        return f"repeat:{self.times}" if self.every else "stop"

    def why(self):
        return f"{self.aim}: {self.detail}"


def shown(s, loops_env, program):
    """A suggestion as plan shows it: {why, env, nsys} (LOOPS_ENV: the
    CAPTURE_WINDOW_LOOPS=... that picks its loop, or None)."""
    env = f"CAPTURE_WINDOW={s.value()}"
    return {"why": s.why(), "env": env, "nsys": nsys_line(env, s.range_end(), loops_env, program)}


def nsys_line(env, range_end, loops_env, program):
    """The suggestion's command line: its variables, then nsys."""
    command = ["nsys", "profile", *nsys_defaults([], range_end, suggested=True),
               "-o", report_name(program)]
    return " ".join([env] + ([loops_env] if loops_env else []) + [
        shlex.join(command + (program or ["PROGRAM"]))])


def report_name(program):
    return program_name(program) if program else "report"


# Where a periodic window puts the slow step: the steps before it, its words.
AROUND = ((1, "the slow step and one on either side"), (0, "the slow step and the two after it"),
          (2, "the two steps before the slow step and it"))


def crosses(start, count, left):
    """Whether steps START..START+COUNT-1 span a point where the loop was
    left (LEFT: the sorted steps after which it was): the runtime closes a
    window when its loop is left."""
    k = bisect_left(left, start)
    return k < len(left) and left[k] < start + count - 1


def evenly(points, spacing, times, avoid):
    """The first TIMES of POINTS in a row SPACING apart that hold none of
    AVOID, else the first such run, else None."""
    runs = [points[k:k + times] for k in range(len(points) - times + 1)]
    runs = [r for r in runs if all(b - a == spacing for a, b in zip(r, r[1:]))]
    return next((r for r in runs if not avoid & set(r)), runs[0] if runs else None)


def periodic_windows(e, coinciding, left=()):
    """Where one event's windows go: (steps before the slow step, spacing,
    the slow steps they hold). TIMES (at most REPEAT) consecutive
    occurrences on its grid that hold no other event, when there are such
    (a window on a step that also checkpoints would not show the
    evaluation alone), else its first TIMES; step 0 has no step before it.
    They are evenly spaced, so the suggestion is one START:3/EVERYxTIMES,
    the form the runtime marks as aimed at the event (docs/nsys.md). Where
    the loop was left (LEFT), each window fits inside one entry: the slow
    step first or last in its window, or every other occurrence (a
    multiple of the period), or fewer windows."""
    hits = [i for i in e.hits if i >= 1]
    if not left:
        times = min(REPEAT, len(hits))
        return 1, e.every, evenly(hits, e.every, times, coinciding) or hits[:times]
    for times in range(min(REPEAT, len(hits)), 0, -1):
        for before, _ in AROUND:
            fit = [i for i in hits if i >= before and not crosses(i - before, 3, left)]
            for spacing in range(e.every, (hits[-1] - hits[0]) // max(times - 1, 1) + 1, e.every):
                run = evenly(fit, spacing, times, coinciding)
                if run:
                    return before, spacing, run
    return 1, e.every, []


def inside_one_entry(s, a, left):
    """Suggestion S (one window) moved inside one entry of the loop when it
    spans a point where the loop was left: just before that point, else
    just after it, where COUNT steps in a row are none slow and after the
    warm-up; else S as it is."""
    if s.every or not crosses(s.start, s.count, left):
        return s
    at = left[bisect_left(left, s.start)]
    for start in (at - s.count + 1, at + 1):
        steps = range(start, start + s.count)
        if start >= a.warmup_end and steps[-1] <= a.last and not any(i in a.out for i in steps) \
                and not crosses(start, s.count, left):
            s.start = start
            s.detail += f" (inside one entry: the loop was left after step {at})"
            return s
    return s


def shape_windows(a):
    """No steady state: a window per level (COUNT of its steps in a row,
    else its longest run) and the shortest one that holds every level; or
    the drift's first and last COUNT steps, none slow, to compare."""
    count, shape, out, index, ns = a.count, a.shape, a.out, a.index, a.ns
    w = a.warmup_position
    steps = range(w, len(index))
    if shape.levels:
        in_level = shape.in_level

        def level(p):
            return None if out.get(index[p]) else in_level(ns[p])
        found = []
        for k, lv in enumerate(shape.levels):
            start, length = run_of(index, steps, lambda p: level(p) == k, count)
            if start is not None:
                few = "" if length == count else f" (no {count} in a row)"
                found.append(Suggestion(start, length, aim=f"level {duration(lv['median_ns'])}",
                                        detail=f"{plural(length, 'step')} in a row at it{few}"))
        start, length = shortest_holding(index, steps, level, len(shape.levels))
        if start is not None:
            kinds = len(shape.levels)
            found.append(Suggestion(start, length, aim="every level in one window",
                                    detail="the shortest run after the warm-up that holds "
                                           f"{'both' if kinds == 2 else f'all {kinds}'}"))
        return found
    drift = shape.drift

    def calm(p):
        return index[p] not in out
    first = run_of(index, steps, calm, count)
    last = run_of(index, range(len(index) - 2, w - 1, -1), calm, count)  # none on the last step
    found = []
    for (start, length), end in ((first, "start"), (last, "end")):
        if length == count and (end == "start" or start != first[0]):
            took = median([ns[p] for p in range(start - index[0], start - index[0] + length)]
                          if a.consecutive else [drift["from_ns" if end == "start" else "to_ns"]])
            found.append(Suggestion(start, count, aim=f"the drift's {end} ({duration(took)} steps)",
                                    detail=f"{plural(count, 'step')}, none slow, to compare"))
    return found


def suggestions(a, left=()):
    """The windows to capture of analysis A: [Suggestion], each inside one
    entry of the loop (LEFT: the steps after which it was left)."""
    out = []
    count, shape = a.count, a.shape
    if shape.levels or shape.drift:
        out += shape_windows(a)
    elif a.steady is False and a.long_start is not None and LONG_COUNT > count:
        out.append(Suggestion(a.long_start, LONG_COUNT, aim="a longer window",
                              detail=f"{LONG_COUNT} steps after the warm-up, none slow (the steps "
                                     f"vary by {a.spread_pct:.1f}%: {count} may not be typical)"))
    elif a.steady_start is not None:
        out.append(Suggestion(a.steady_start, count, aim="steady state",
                              detail=f"{plural(count, 'step')} after the warm-up, none slow"))
    out = [inside_one_entry(s, a, left) for s in out]
    coinciding = set(a.coinciding)
    for e in a.periodic:
        before, spacing, centres = periodic_windows(e, coinciding, left)
        times = len(centres)
        if not times:
            continue
        alone = "" if not coinciding & set(e.hits) else (
            ", at steps that hold no other event" if not coinciding & set(centres) else
            ", some holding another event too")
        words = dict(AROUND)[before]
        apart = "" if spacing == e.every else f", {spacing} steps apart"
        entry = " (each inside one entry of the loop)" if left else ""
        out.append(Suggestion(centres[0] - before, 3, spacing, times,
                              aim=f"every {e.every} steps from {e.first} ({e.ratio:.1f}x slower)",
                              detail=f"{words}, {times} times{apart}{alone}{entry}"))
    return out
