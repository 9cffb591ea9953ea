"""rule.py - plan's slow-step rule (docs/where-to-cut.md, "The rule"): the
reference median and MAD of the loop's second half, the slow margin, the
warm-up's end. runtime/stats.c holds the same numbers; plan.rules checks
that they are the runtime's (capture_window/rules.h)."""
import bisect
import math

SLOW_RATIO, SLOW_MADS, SLOW_MIN_NS = 0.5, 4.0, 1000.0
WARMUP_RUN = 5


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
