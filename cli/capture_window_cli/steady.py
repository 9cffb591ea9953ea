"""steady.py - whether a loop has a steady state (issue 31, item 3): the
steps after the warm-up that hold no event drift (a measured slope) or jump
among levels (named), else they are steady when their spread (MAD over
median) is within STEADY_SPREAD, and noisy when it is not. plan.py asks;
docs/where-to-cut.md, "The rule", says the same.

  levels   the sorted step times split where one is LEVEL_GAP times the
           one before; two groups or more of LEVEL_SHARE of the steps
           each, each with its middle 80 % within LEVEL_GAP, together
           LEVEL_COVER of the steps
  drift    else the least-squares line through the steps that are not
           slow moves by more than DRIFT_CHANGE of the median over the run
           and leaves at most DRIFT_EXPLAINED of the spread around it
  steady   neither, and a spread within STEADY_SPREAD
"""
from dataclasses import dataclass

from .rule import median

STEADY_SPREAD = 10.0  # steady: a spread (MAD over median) within 10 %, no drift, no levels
DRIFT_CHANGE = 0.2   # a drift: the fitted line moves by a fifth of the median over the run
DRIFT_EXPLAINED = 0.5  # ... and leaves at most half the spread around the median
LEVEL_GAP = 1.2      # levels: the sorted step times jump by 20 % between them
LEVEL_SHARE = 0.1    # ... each holds a tenth of the steps, its middle 80 % within LEVEL_GAP
LEVEL_COVER = 0.8    # ... and together 80 % of them
SHAPE_MIN = 12       # steps needed to judge a drift or levels
SHAPE_SAMPLE = 5000  # steps looked at for them (evenly spaced)
LONG_COUNT = 10      # the longer window of a noisy loop


@dataclass
class Shape:
    """What steadiness found: whether there were steps enough to judge, a
    drift {ns_per_step, from_ns, to_ns, first, last} or levels
    [{median_ns, steps}] (None when not), and in_level(t): the level a
    time lies in (its index), or None."""
    judged: bool
    drift: dict = None
    levels: list = None
    in_level: object = None


def steadiness(index, ns, wp, out, m, mad):
    """Whether the steps after the warm-up that hold no event drift or jump
    among levels (SHAPE_SAMPLE of them at most, evenly spaced). Levels:
    the sorted times split where one is LEVEL_GAP times the one before;
    the groups of LEVEL_SHARE of the steps or more, each with its middle
    80 % within LEVEL_GAP, two or more, together LEVEL_COVER of the steps.
    Else a drift: the least-squares line through the steps that are not
    slow moves by more than DRIFT_CHANGE of the median over the run and
    leaves a spread (MAD of what it does not explain) of at most
    DRIFT_EXPLAINED of the spread around the median."""
    n = len(index)
    stride = max(1, (n - wp) // SHAPE_SAMPLE)
    pos = [p for p in range(wp, n, stride) if not out.get(index[p])]  # no event's step
    found = levels_of([ns[p] for p in pos]) if len(pos) >= SHAPE_MIN else None
    bounds = [(lo / LEVEL_GAP ** 0.5, hi * LEVEL_GAP ** 0.5) for lo, hi, _, _ in found or ()]

    def in_level(t):
        return next((k for k, (lo, hi) in enumerate(bounds) if lo <= t <= hi), None)

    shape = Shape(judged=len(pos) >= SHAPE_MIN, in_level=in_level)
    if found:
        shape.levels = [{"median_ns": round(med), "steps": k} for _, _, med, k in found]
        return shape
    calm = [p for p in pos if index[p] not in out]
    if len(calm) < SHAPE_MIN or not m:
        return shape
    xs, ys = [index[p] for p in calm], [ns[p] for p in calm]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    f0, f1 = my + b * (xs[0] - mx), my + b * (xs[-1] - mx)
    residual = [y - my - b * (x - mx) for x, y in zip(xs, ys)]
    centre = median(residual)
    left = median([abs(r - centre) for r in residual])
    if abs(f1 - f0) > DRIFT_CHANGE * m and left <= DRIFT_EXPLAINED * mad:
        shape.drift = {"ns_per_step": round(b, 1), "from_ns": round(f0), "to_ns": round(f1),
                          "first": xs[0], "last": xs[-1]}
    return shape


def levels_of(times):
    """[(low, high, median, steps)] of the levels among times, or None."""
    s = sorted(times)
    groups = [[s[0]]]
    for a, b in zip(s, s[1:]):
        if b > LEVEL_GAP * a:
            groups.append([])
        groups[-1].append(b)
    big = [g for g in groups if len(g) >= max(LEVEL_SHARE * len(s), 3)
           and g[max(len(g) * 9 // 10 - 1, len(g) // 10)] <= LEVEL_GAP * g[len(g) // 10]]
    if len(big) < 2 or sum(map(len, big)) < LEVEL_COVER * len(s):
        return None
    return [(g[0], g[-1], median(g), len(g)) for g in big]


def run_of(index, positions, ok, count):
    """(first iteration, length) of the first COUNT recorded steps in a row
    among positions (walked in their order, either way) that are all ok;
    else of the longest such run; (None, 0) when none is."""
    best, run, first, prev = (None, 0), 0, None, None
    for p in positions:
        if not ok(p):
            run = 0
        elif run and abs(index[p] - index[prev]) == 1:
            run += 1
        else:
            run, first = 1, index[p]
        prev = p
        if run > best[1]:
            best = (min(first, index[p]), run)
            if run == count:
                break
    return best


def shortest_holding(index, positions, level, kinds):
    """(first iteration, length) of the shortest run of recorded steps in
    a row that holds a step of each of KINDS levels (level(p): its level,
    or None for an event's step, which breaks the run); (None, 0) if none."""
    best, seen, prev = (None, 0), {}, None
    for p in positions:
        k = level(p)
        if k is None or (prev is not None and index[p] - index[prev] != 1):
            seen = {}
        if k is not None:
            seen[k] = index[p]
            if len(seen) == kinds:
                start = min(seen.values())
                if not best[1] or index[p] - start + 1 < best[1]:
                    best = (start, index[p] - start + 1)
        prev = p
    return best

