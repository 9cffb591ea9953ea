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
import math
import operator
import os
import shlex
import signal
import subprocess
import sys
import tempfile
from array import array
from collections import Counter
from itertools import chain, compress, islice

from .common import ME, Usage, duration, nsys_defaults, option_value, plural, program_name
from .plot import plot
from .steady import (LONG_COUNT, SHAPE_MIN, STEADY_SPREAD, durations, run_of, shortest_holding,
                     steadiness)
from .steptimes import read_times, step_files

SLOW_RATIO, SLOW_MADS, SLOW_MIN_NS = 0.5, 4.0, 1000.0
WARMUP_RUN = 5
SMALL_RATIO = 0.1    # a regular slowdown of 1.1x and more may be an event (logging)
PERIODIC_MIN = 4     # a slow event: three equal gaps, as spike wants
PERIODIC_MIN_FAR = 3  # an event FAR times the slow margin above the median: three
FAR = 40
PERIODIC_MIN_SMALL = 8  # below the slow margin: many times
SHARE = 0.8          # of an event's places that hold it
PERIOD_MIN = 3       # every other step slow: the median is no steady step
ALIKE = 3            # the steps of one event take within 3x of each other
ALIKE_FEW = 1.5      # ... and within 1.5x when it is seen fewer than 4 times
NEIGHBOURS = 16      # periods tried: gaps to the next 16 slow steps (noise lies between)
GAPS_TRIED, PHASES_TRIED, GAPS_FROM = 8, 3, 4096
ALPHA = 0.01         # a period's hits: at most this chance by noise among all pairs tried
REPEAT = 3           # windows of a periodic suggestion
SHOWN_OUTLIERS = 10


# ---- the rule ---------------------------------------------------------------

def median(values):
    n = len(values)
    if not n:
        return 0.0
    ordered = sorted(values)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def median_mad(values):
    """The median of values and their median absolute deviation."""
    return sorted_median_mad([sorted(values)])


def sorted_median_mad(runs, taken=()):
    """The median and MAD of the values of sorted runs (ints) less the
    sorted values `taken` out of them, without merging them: a value's
    rank is a few bisections, so the k-th value (and the k-th deviation
    from the median) is a binary search over the values (a deviation is a
    whole number or a half). The steady steps are the two sorted halves of
    the run less the slow and the events' steps: one sort of each half."""
    n = sum(map(len, runs)) - len(taken)
    if n <= 0:
        return 0.0, 0.0
    lo = min(r[0] for r in runs if r)
    hi = max(r[-1] for r in runs if r)

    def at_most(v):  # how many values are <= v
        return sum(bisect.bisect_right(r, v) for r in runs) - bisect.bisect_right(taken, v)

    def kth(k):
        a, b = lo, hi
        while a < b:
            v = (a + b) // 2
            a, b = (v + 1, b) if at_most(v) < k + 1 else (a, v)
        return a

    m = (kth((n - 1) // 2) + kth(n // 2)) / 2

    def kth_deviation(k):  # the smallest 2t with k+1 values within t of m
        a, b = 0, int(2 * (hi - lo)) + 2
        while a < b:
            t2 = (a + b) // 2
            within = at_most(math.floor(m + t2 / 2)) - at_most(math.ceil(m - t2 / 2) - 1)
            a, b = (t2 + 1, b) if within < k + 1 else (a, t2)
        return a / 2

    return m, (kth_deviation((n - 1) // 2) + kth_deviation(n // 2)) / 2


def slow_margin(m0, d0):
    return max(SLOW_RATIO * m0, SLOW_MADS * d0, SLOW_MIN_NS)


def warmup_end(slow, n):
    """The position from which WARMUP_RUN steps in a row are not slow;
    else the first step that is not slow; else 0. slow: sorted positions."""
    before = -1
    for p in slow + [n]:
        if p - before - 1 >= WARMUP_RUN:
            return before + 1
        before = p
    return next((k for k, p in enumerate(slow) if p != k), len(slow) if len(slow) < n else 0)


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
    events = periodic_events(cand, w, index[-1], None if consecutive else set(index), m0, d0)
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


# ---- events that recur ------------------------------------------------------

def periodic_events(cand, start, last, recorded, m0, d0):
    """The events that recur among cand ({iteration: ns} of the steps after
    the warm-up above the small-slowdown level). Levels are taken from the
    slowest down, each a band of a factor ALIKE; an event's occurrences are
    the places of its grid (every EVERY from PHASE) that are at least as
    slow as its band, so a step holding a slower event counts for it too,
    and the run's last step counts when it is that slow."""
    negated = sorted(map(operator.neg, cand.values()))  # rising: a band's end is a bisection
    events, left, above, k, high = [], [], set(), 0, math.inf
    steps = last - start + 1 if recorded is None else sum(1 for i in recorded if i >= start)
    while k < len(negated):
        low = -negated[k] / ALIKE
        band = [i for i, t in cand.items() if low <= t < high]  # cand is in step order
        above.update(band)
        left = find_events(sorted(left + band), above, cand, events,
                           (start, last, recorded, m0, d0, negated, steps))
        k, high = bisect.bisect_right(negated, -low), low
    return events


def find_events(members, above, cand, events, run):
    """Takes the events of one band out of members (its steps and those
    left from slower bands), best first (the most of its own steps); ->
    the steps no event took. A grid may hold steps of the events of
    slower bands (a step holding a slower event too), not those of its own
    band: there a busy machine's time slices would lend their steps to an
    evaluation's grid and the other way round."""
    found = {i for e in events for i in e["occurrences"]}
    explained = set(found)   # and this band's events: no noise for the next one's test
    while len(members) >= 2:
        own, best = set(members), None
        for on_grid, every, phase in candidate_grids(members, events):
            if best and (on_grid < len(best["own"]) or on_grid == len(best["own"]) and every > best["every"]):
                break  # its own steps are at most on_grid: none after it does better
            g = grid((every, phase), own, found, above, cand, run, explained)
            if g and (not best or (len(g["own"]), -every) > (len(best["own"]), -best["every"])):
                best = g
        if not best:
            break
        events.append(best)
        taken = set(best["occurrences"])
        explained |= taken
        members = [i for i in members if i not in taken]
    return members


def candidate_grids(members, events):
    """(at most the steps of members on it, every, phase) worth a look, the
    most first: the commonest gaps between a step and its next NEIGHBOURS
    (noise lies between), each at its commonest phases, both counted over
    the first GAPS_FROM steps, as an event recurs all along (the steps
    after them may all be on a grid: they count in its bound); none that is
    part of an event already found."""
    gaps = Counter()
    first = members[:GAPS_FROM]
    rest = len(members) - len(first)
    for k in range(1, NEIGHBOURS + 1):
        gaps.update(map(operator.sub, first[k:], first))
    out = []
    # A small band: every gap (an evaluation's gap may be rarer than the
    # noise's between); a large one: its commonest.
    for every, _ in gaps.most_common(GAPS_TRIED if len(members) > GAPS_FROM else None):
        if every < PERIOD_MIN:
            continue
        for phase, c in Counter(map(every.__rmod__, first)).most_common(PHASES_TRIED):
            if c + rest >= 2 and not any(every % e["every"] == 0 and phase % e["every"] == e["phase"]
                                         for e in events):
                out.append((c + rest, every, phase))
    return sorted(out, key=lambda t: (-t[0], t[1]))


def grid(every_phase, members, found, above, cand, run, explained=frozenset()):
    """The event every EVERY from PHASE, or None: at least SHARE of its
    places (the last step only when it is slow) hold it (a step of the
    band, or one that holds an event found before: at least as slow),
    enough of them for its level, at least half of them the band's own
    steps, and those alike; the last step off the grid is one more
    occurrence when it is at least as slow as the band."""
    every, phase = every_phase
    start, last, recorded, m0, d0, negated, steps = run
    first = start + (phase - start) % every
    places = range(first, last + 1, every)
    if recorded is not None:  # steps missing: the grid's places that were recorded
        places = ([i for i in places if i in recorded] if len(places) <= len(recorded) else
                  sorted(i for i in recorded if i >= first and (i - first) % every == 0))
    hits = [i for i in places if i in members or i in found]
    n_places = len(places) - (1 if places and places[-1] == last and last not in above else 0)
    own = [i for i in hits if i in members]
    if len(hits) < PERIODIC_MIN_FAR or len(hits) < SHARE * n_places or 2 * len(own) < len(hits):
        return None
    if len(hits) > len(own) and len(members) - len(own) > len(own):
        return None  # it borrows, among more steps like its own off the grid: noise
    times = sorted(cand[i] for i in own)
    level = times[len(times) // 2] - m0
    margin = slow_margin(m0, d0)
    need = (PERIODIC_MIN_FAR if level > FAR * margin else
            PERIODIC_MIN if level > margin else PERIODIC_MIN_SMALL)
    few = len(hits) < PERIODIC_MIN
    # alike: all of them but the slowest few, as many as SHARE lets miss
    # (noise that slows an evaluation's step further does not break it)
    trim = int((1 - SHARE) * len(times) + 1e-9)
    if len(hits) < need or times[-1 - trim] > (ALIKE_FEW if few else ALIKE ** 2) * times[0]:
        return None
    if significance(times[0], places, hits, explained, cand, (last, negated, steps),
                    n_places) > ALPHA:
        return None  # as many hits come by chance among the pairs tried: noise
    extra = [last] if last in above and last not in hits else []
    return {"every": every, "phase": phase, "first": hits[0], "hits": hits,
            "occurrences": hits + extra, "own": own}


def significance(lowest, places, hits, explained, cand, run, n_places):
    """The chance that noise alone puts as many hits on some grid: the
    binomial tail P(X >= hits) over the grid's places, each as slow as the
    grid's least slow own step (LOWEST) by chance with p, the rate of such
    steps off the grid among the steps that are not an event's found
    before ((x + 1) / (n + 2): no such step is not p = 0), times the
    (period, phase) pairs tried (every period from PERIOD_MIN that fits
    three places in the run, at each of its phases: Bonferroni)."""
    last, negated, steps = run
    on_grid = set(places)
    at_least = bisect.bisect_right(negated, -lowest)   # the steps at least as slow as LOWEST
    at_least -= sum(1 for i in places if cand.get(i, 0) >= lowest)
    off_found = [i for i in explained if i not in on_grid]
    at_least -= sum(1 for i in off_found if cand[i] >= lowest)
    off = steps - len(places) - len(off_found)
    if last not in on_grid and last not in explained and cand.get(last, 0) >= lowest:
        at_least, off = at_least - 1, off - 1   # the last step: no place, no noise
    elif last not in on_grid and last not in explained:
        off -= 1
    p = (max(at_least, 0) + 1) / (max(off, 0) + 2)
    periods = max((steps - 1) // (PERIODIC_MIN_FAR - 1), PERIOD_MIN)
    pairs = periods * (periods + 1) // 2 - PERIOD_MIN * (PERIOD_MIN - 1) // 2
    return pairs * binomial_tail(len(hits), n_places, p)


def binomial_tail(k, n, p):
    """P(X >= k) for X ~ Binomial(n, p), summed from k while it counts."""
    if k <= 0:
        return 1.0
    if k > n or p <= 0:
        return 0.0 if p <= 0 or k > n else 1.0
    if k <= n * p:
        return 1.0   # no more hits than chance gives: no evidence (and a bound of the tail)
    log_p, log_q = math.log(p), math.log1p(-p)
    total, j = 0.0, k
    term = math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * log_p + (n - k) * log_q)
    while j <= n and term > 1e-300:
        total += term
        if term < total * 1e-16:
            break
        term *= (n - j) / (j + 1) * p / (1 - p)
        j += 1
    return min(total, 1.0)


# ---- suggestions ------------------------------------------------------------

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
