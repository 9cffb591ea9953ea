"""diffsteps.py - `diff` from step-time files (CAPTURE_WINDOW_TIMES): the
findings, as data (StepsDiff), of two runs' marked loops compared.

  steps_diff(base_loops, new_loops) -> StepsDiff
      base_loops, new_loops: steptimes.read_times() of each side's files
      (a side may be one file or several: one per rank or process).

A loop of one side is matched with the other's by its label, and by its
FILE:LINE too when a label names several loops (an edit moves lines; a
label stays). All the series of a loop on a side (its threads, its ranks)
are pooled: each is analysed by plan (analysis.analyse: the warm-up, the
periodic events, the slow steps) and its steady steps (after the warm-up,
neither slow nor an event's) are one series for change.compare. Per loop:
  steady    change.Change: the typical step before and after, the change
            with its 95 % interval, the verdict
  warm-up   the steps before the steady state, before and after (the
            longest of the side's series)
  events    plan's periodic events matched by their period (EVERY), each
            with its cost before and after: the median of its steps
            (none on the side that lacks it)

Speed: plan analyses the first HEAD steps of a series (the warm-up, the
events and the slow limit are found there, as `plan --steps HEAD` finds
them); change.chunks() picks the steps compared, spread over the whole
series, and a step past HEAD is steady when it is on no event's grid and
within the slow limit (rule.py's margin over the median of HEAD's second
half, as plan's). Two runs of a million steps are compared in about a
second (bench/diff_speed.py).
"""
from array import array
from dataclasses import dataclass, field

from . import change
from .analysis import analyse
from .rule import median, slow_margin, sorted_median_mad

HEAD = 100_000


@dataclass
class Event:
    """A periodic event of the loop on either side: its period, and the
    median time of its steps on each side (None where it is not found)."""
    every: int
    base_ns: float = None
    new_ns: float = None


@dataclass
class LoopDiff:
    label: str
    place: str               # the base's FILE:LINE (the new's when it moved: new_place)
    new_place: str
    series: tuple            # (base, new): the threads and ranks pooled on each side
    steps: tuple             # (base, new): the steps recorded
    warmup: tuple            # (base, new): the longest warm-up of a side's series
    steady: change.Change    # None when a side has no steady step
    events: list = field(default_factory=list)


@dataclass
class StepsDiff:
    loops: list
    only_base: list          # [(label, place)] of loops the new run lacks
    only_new: list


def side_loops(loops):
    """{key: [loop, ...]} where key is the label, or (label, place) when
    the label names several places."""
    places = {}
    for loop in loops:
        places.setdefault(loop["label"], set()).add(loop["place"])
    out = {}
    for loop in loops:
        key = loop["label"] if len(places[loop["label"]]) == 1 else (loop["label"], loop["place"])
        out.setdefault(key, []).append(loop)
    return out


def steady_series(loop):
    """One series of a side -> (its steady steps as change's series, its
    warm-up in steps, {every: [ns of its event's steps]})."""
    index, ns = loop["index"], loop["ns"]
    n = len(index)
    head = min(n, HEAD)
    a = analyse(index[:head], ns[:head]) if head < n else analyse(index, ns)
    position = (index[0].__rsub__ if a.consecutive else
                {i: p for p, i in enumerate(index[:head])}.__getitem__)
    events = {}
    for e in a.periodic:
        # its cost: its own steps that hold no other event, when it has some (plan's level)
        alone = [i for i in e.own if a.out[i] == 1] or e.own
        events.setdefault(e.every, []).extend(ns[position(i)] for i in alone)
    limit = None
    if head < n:
        m0, d0 = sorted_median_mad([array("q", sorted(ns[head // 2:head]))])
        limit = m0 + slow_margin(m0, d0)
    grids = [(e.every, e.phase % e.every) for e in a.periodic]

    def steady(p):
        i = index[p]
        if p < head:
            return i not in a.out
        return ns[p] <= limit and not any(i % every == phase for every, phase in grids)
    wp = a.warmup_position
    series = [[ns[p] for p in range(wp + lo, wp + hi) if steady(p)]
              for lo, hi in change.chunks(n - wp)]
    return series, a.warmup_end - index[0], events


def side(loops):
    """A side's series pooled: (series, the run (file) of each, longest
    warm-up, {every: ns list}, steps)."""
    series, runs, warmups, events = [], [], [], {}
    for loop in loops:
        s, w, ev = steady_series(loop)
        series += s
        runs += [loop["source"]] * len(s)
        warmups.append(w)
        for every, times in ev.items():
            events.setdefault(every, []).extend(times)
    return series, runs, max(warmups), events, sum(len(l["index"]) for l in loops)


def loop_diff(key, base, new):
    bs, br, bw, be, bn = side(base)
    ns_, nr, nw, ne, nn = side(new)
    events = [Event(every, median(be[every]) if every in be else None,
                    median(ne[every]) if every in ne else None)
              for every in sorted(set(be) | set(ne))]
    return LoopDiff(label=base[0]["label"], place=base[0]["place"], new_place=new[0]["place"],
                    series=(len(base), len(new)), steps=(bn, nn), warmup=(bw, nw),
                    steady=change.compare(bs, ns_, runs=(br, nr)), events=events)


def steps_diff(base_loops, new_loops):
    b, n = side_loops(base_loops), side_loops(new_loops)
    name = lambda loops: (loops[0]["label"], loops[0]["place"])  # noqa: E731
    return StepsDiff(loops=[loop_diff(k, b[k], n[k]) for k in b if k in n],
                     only_base=[name(b[k]) for k in b if k not in n],
                     only_new=[name(n[k]) for k in n if k not in b])
