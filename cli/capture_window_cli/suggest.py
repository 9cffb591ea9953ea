"""suggest.py - plan's suggestions: the CAPTURE_WINDOW values that
capture the steady state (or, without one, each level or the drift's
ends) and each periodic event, with their nsys commands.

API (plan, profile --auto and diff use it; keep it stable):
  suggestions(a) -> [Suggestion], A: an analysis.Analysis
  Suggestion(start, count, every, times, aim, detail): a window of COUNT
      steps from START, or TIMES of them EVERY steps apart (every 0: one);
      AIM what it captures ('steady state', 'every 25 steps from 25 (6.0x
      slower)'), DETAIL which steps and why; .value() is CAPTURE_WINDOW's
      value, .range_end() nsys's --capture-range-end, .why() the words
  shown(s, loops_env, program) -> {why, env, nsys}: the edge, plan's text
      and --json
"""
import shlex
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


def periodic_windows(e, coinciding):
    """The slow steps one event's windows centre on: TIMES (at most REPEAT)
    consecutive occurrences on its grid that hold no other event, when
    there are such (a window on a step that also checkpoints would not show
    the evaluation alone), else its first TIMES; step 0 has no step before
    it. They are evenly spaced, so the suggestion is one START:3/EVERYxTIMES,
    the form the runtime marks as aimed at the event (docs/nsys.md)."""
    hits = [i for i in e.hits if i >= 1]
    times = min(REPEAT, len(hits))
    for k in range(len(hits) - times + 1):
        run = hits[k:k + times]
        if all(b - a == e.every for a, b in zip(run, run[1:])) and not coinciding & set(run):
            return run
    return hits[:times]


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


def suggestions(a):
    """The windows to capture of analysis A: [Suggestion]."""
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
    coinciding = set(a.coinciding)
    for e in a.periodic:
        centres = periodic_windows(e, coinciding)
        times = len(centres)
        if not times:
            continue
        alone = "" if not coinciding & set(e.hits) else (
            ", at steps that hold no other event" if not coinciding & set(centres) else
            ", some holding another event too")
        out.append(Suggestion(centres[0] - 1, 3, e.every, times,
                              aim=f"every {e.every} steps from {e.first} ({e.ratio:.1f}x slower)",
                              detail=f"the slow step and one on either side, {times} times{alone}"))
    return out
