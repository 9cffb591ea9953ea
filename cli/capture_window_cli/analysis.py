"""analysis.py - plan's analysis of one loop in one thread: where the
warm-up ends, what a steady step takes, which slow steps recur and which
are sporadic, and whether the loop has a steady state at all. It returns
an Analysis (data); plan.py writes text and JSON from it, suggest.py the
windows, profile --auto and diff read it.

API (plan, suggest, profile --auto and diff use it; keep it stable):
  analyse(index, ns, count=3) -> Analysis; INDEX, NS: arrays of int64
  Analysis    iterations, warmup_end (the first steady iteration),
              median_ns, spread_pct, steady (True, False, or None: too few
              steps to judge), drift, levels (steady.Shape's), periodic
              [Event], outliers, coinciding (steps holding several
              events), last (the last iteration), ratio {outlier: its
              time over the median}, steady_start and long_start (where
              COUNT and LONG_COUNT calm steps in a row begin, or None),
              count, shape (steady.Shape), out {iteration: events it holds;
              0: slow, no event} of the steps that are not steady,
              warmup_position (the warm-up's end as a position in INDEX),
              consecutive (INDEX has no gap), index, ns
  Event       every, phase, first, hits, occurrences, own (periods.py's),
              ratio (its level over the median), held (frozenset of its
              occurrences)
  events_of(a, i): the events step I holds, as 'every 20 and every 30'

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
from array import array
from collections import Counter
from dataclasses import dataclass
from itertools import chain, compress, islice

from .periods import periodic_events
from .rule import SLOW_MADS, SLOW_MIN_NS, median, slow_margin, sorted_median_mad, warmup_end
from .steady import LONG_COUNT, STEADY_SPREAD, steadiness

SMALL_RATIO = 0.1    # a regular slowdown of 1.1x and more may be an event (logging)


@dataclass
class Event:
    """A periodic event (periods.py finds it): every EVERY steps from PHASE."""
    every: int
    phase: int
    first: int          # its first occurrence
    hits: list          # the places of its grid that are slow
    occurrences: list   # hits, and the last step when it is that slow
    own: list           # its steps that are its own (none slower's)
    ratio: float        # its level over the steady median, 0.0 without one
    held: frozenset     # its occurrences, to ask


@dataclass
class Analysis:
    iterations: int
    warmup_end: int
    median_ns: int
    spread_pct: float
    steady: object      # True, False, or None: too few steps to judge
    drift: dict         # steady.Shape's, or None
    levels: list        # steady.Shape's, or None
    periodic: list      # [Event], the slowest first
    outliers: list
    coinciding: list    # the steps holding several events
    last: int
    ratio: dict         # {slow step after the warm-up: its time over the median}
    steady_start: int   # the first of COUNT calm steps in a row, or None
    long_start: int     # ... of LONG_COUNT, or None
    count: int
    shape: object       # steady.Shape
    out: Counter        # {iteration: events it holds (0: slow, none)}: the steps not steady
    warmup_position: int
    consecutive: bool
    index: array
    ns: array


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
    events = sorted((Event(e["every"], e["phase"], e["first"], e["hits"], e["occurrences"], e["own"],
                           round(level / m, 1) if m else 0.0, frozenset(e["occurrences"]))
                     for e, level in zip(events, levels)), key=lambda e: -e.ratio)
    shape = steadiness(index, ns, wp, out, m, mad)
    spread = round(100 * mad / m, 1) if m else 0.0
    return Analysis(
        iterations=n, warmup_end=w, median_ns=round(m), spread_pct=spread,
        steady=(not shape.drift and not shape.levels and spread <= STEADY_SPREAD
                if shape.judged else None),
        drift=shape.drift, levels=shape.levels, periodic=events,
        outliers=[i for i in late_slow if not out[i] and shape.in_level(ns[position(i)]) is None],
        coinciding=sorted(i for i, k in out.items() if k > 1), last=index[-1],
        ratio={i: ns[position(i)] / m for i in late_slow} if m else {},
        steady_start=steady_start(index, wp, out, count, consecutive),
        long_start=steady_start(index, wp, out, LONG_COUNT, consecutive),
        count=count, shape=shape, out=out, warmup_position=wp, consecutive=consecutive,
        index=index, ns=ns)


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


def events_of(a, i):
    """The events step i holds, as 'every 20 and every 30'."""
    names = [f"every {e.every}" for e in a.periodic if i in e.held]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
