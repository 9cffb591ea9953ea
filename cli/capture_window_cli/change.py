"""change.py - whether two runs' steps differ beyond noise (issue 42): the
statistics of `capture-window diff`, and nothing else. The callers choose
the steps (diffsteps.py: the steady steps plan finds, after the warm-up,
the periodic events and the slow steps taken out) and pass them in
order, as one or more series (a rank's or a thread's steps, each a
series of its own); change.py says how the new run's typical step
compares with the base's.

Why this method. Step times are
  autocorrelated   a slow stretch (a busy machine, a clock that drops)
                   lasts many steps, so N steps hold far less than N
                   independent draws, and a plain bootstrap or t-test
                   gives intervals too narrow;
  heavy-tailed     a step in a hundred takes 2x or more (a page fault, a
                   preempted thread), so a mean moves with a few steps;
  mixed            periodic events (evaluation, checkpoint) and the
                   warm-up: plan takes them out before this module sees
                   the steps, and diff compares them apart.
So the typical step is the MEDIAN of the steady steps (robust to the
tail), and its 95 % interval comes from a MOVING-BLOCK BOOTSTRAP (Kunsch
1989): each resample is made of blocks of BLOCK consecutive steps drawn
at random from the run, which keeps the dependence within a block. The
block length follows Carlstein's (1986) rule for an AR(1) series,
BLOCK = (2 r / (1 - r^2))^(2/3) * n^(1/3), with r the lag-1
autocorrelation of the steps' ranks (a rank correlation: a few huge
steps do not decide it), between 1 and a quarter of the series. The two
runs are resampled independently, ROUNDS times each, seeded (SEED), so
the same files give the same output; the change is new/base - 1, the
interval the 2.5th and 97.5th percentiles of the resampled ratios.
When a side holds several runs (files: processes, ranks, runs of the
program), each of its resamples first draws as many runs with
replacement, then the blocks of each (a two-stage bootstrap), so the
runs' differences widen the interval: a shared machine's speed moves
between runs by more than any run's own noise shows.

With fewer than FEW values on a side (a window of 3 steps in a report)
there is nothing to resample: the interval is the range of the ratios of
every pair (new value / base value - 1), so `slower` needs every new
step slower than every base step, and block is (0, 0).

The verdict: `slower` when the interval lies above 0 and the change is at
least MIN_CHANGE, `faster` when it lies below 0 and the change is at most
-MIN_CHANGE, else `same` (no change beyond noise). MIN_CHANGE is the
run-to-run wobble of one program on a quiet machine (its CPU clock, where
its memory landed), which no count of steps within one run a side can
see: two runs of the same program differ by a few tenths of a percent
with intervals far narrower than that. `confidently_slower(c, pct)`: the
interval's low end is above pct %, the CI gate (`diff --fail-if-slower
PCT`).

A series longer than SAMPLE steps is read in CHUNKS runs of consecutive
steps spread evenly over it (chunks(); each chunk a series of its own):
the interval then reflects SAMPLE steps, wider than all of them would
give, and the bootstrap costs the same for a million steps as for a few
thousand. The error rates this gives on generated runs (false alarms,
power, the interval's coverage) are measured by bench/diff_rates.py and
written in docs/where-to-cut.md, "Did my change help?": no false alarm
and every 3 % slowdown found in 100 pairs at a 1 % spread; the interval
holds the true change 88-96 times in 100 (a little narrow, as block
bootstraps of a few hundred dependent steps are; MIN_CHANGE covers it).
"""
import math
import random
from array import array
from dataclasses import dataclass
from itertools import chain

from .rule import median

LEVEL = 0.95         # the interval's confidence
ROUNDS = 500         # bootstrap resamples per run
SEED = 42            # the same files give the same interval
MIN_CHANGE = 0.01    # a change under 1 % is `same`: run-to-run wobble
SAMPLE = 1000        # steps resampled per series (a thread's, a rank's) at most ...
CHUNKS = 40          # ... taken as this many runs of consecutive steps
BLOCK_MAX_SHARE = 0.25  # a block is at most a quarter of its series
FEW = 5              # fewer values on a side: the interval is every pair's ratio
R_MAX = 0.95         # the autocorrelation the block rule is given at most


@dataclass
class Change:
    """The new run's typical step against the base's. base_ns, new_ns: the
    medians; change, low, high: fractions (0.05 = 5 % slower), low and high
    the LEVEL interval; verdict: 'faster', 'slower' or 'same'; steps and
    block: (base, new) steps compared and the bootstrap's block lengths."""
    base_ns: float
    new_ns: float
    change: float
    low: float
    high: float
    verdict: str
    steps: tuple
    block: tuple


def lag1_rank_correlation(series):
    """The lag-1 autocorrelation of the ranks of the values (all series
    ranked together, pairs taken within a series); 0 for fewer than 3."""
    values = [v for s in series for v in s]
    if len(values) < 3:
        return 0.0
    order = sorted(range(len(values)), key=values.__getitem__)
    rank = [0.0] * len(values)
    for r, k in enumerate(order):
        rank[k] = r
    mean = (len(values) - 1) / 2
    var = sum((r - mean) ** 2 for r in rank)
    cov, at = 0.0, 0
    for s in series:
        rs = rank[at:at + len(s)]
        cov += sum((a - mean) * (b - mean) for a, b in zip(rs, rs[1:]))
        at += len(s)
    return cov / var if var else 0.0


def block_length(series):
    """Carlstein's rule for an AR(1) series: (2r/(1-r^2))^(2/3) n^(1/3),
    r the lag-1 rank autocorrelation (at most R_MAX; none or negative: 1),
    n the steps of the longest series; at most BLOCK_MAX_SHARE of it."""
    longest = max(map(len, series), default=0)
    r = min(lag1_rank_correlation(series), R_MAX)
    if r <= 0 or longest < 4:
        return 1
    rule = (2 * r / (1 - r * r)) ** (2 / 3) * longest ** (1 / 3)
    return max(1, min(math.ceil(rule), int(BLOCK_MAX_SHARE * longest)))


def draws(rng, k, below):
    """K whole numbers in [0, BELOW), seeded: 32 random bits each from
    rng.randbytes, converted and reduced in C (map; a bias of at most
    BELOW / 2^32)."""
    bits = array("I", rng.randbytes(4 * k)) if array("I").itemsize == 4 else \
        array("L", rng.randbytes(8 * k))
    return map(below.__rmod__, bits)


def resampled_medians(series, block, rounds, rng, runs=None):
    """ROUNDS medians of moving-block resamples of the series: from each
    series, as many blocks of BLOCK consecutive steps (fewer when the
    series is shorter) as cover its length, their starts drawn at random.
    RUNS, the run (process) of each series: when they are several, each
    round first draws as many runs, with replacement, and resamples the
    series of those (a two-stage bootstrap: the runs' differences count)."""
    plans = {}
    for s, run in zip(series, runs or [0] * len(series)):
        b = min(block, len(s))
        plans.setdefault(run, []).append((s, b, len(s) - b + 1, -(-len(s) // b)))
    groups = list(plans.values())
    out = []
    for _ in range(rounds):
        resample = []
        chosen = groups if len(groups) == 1 else [groups[g] for g in draws(rng, len(groups), len(groups))]
        for s, b, starts, k in chain.from_iterable(chosen):
            if b == 1:
                resample += map(s.__getitem__, draws(rng, k, starts))
            else:
                first = list(draws(rng, k, starts))
                resample += chain.from_iterable(map(s.__getitem__, map(slice, first,
                                                                       map(b.__add__, first))))
        out.append(median(resample))
    return out


def percentile(sorted_values, q):
    """The q-quantile of sorted values, interpolated between neighbours."""
    x = q * (len(sorted_values) - 1)
    k = int(x)
    upper = sorted_values[min(k + 1, len(sorted_values) - 1)]
    return sorted_values[k] + (x - k) * (upper - sorted_values[k])


def compare(base, new, min_change=MIN_CHANGE, runs=(None, None)):
    """BASE, NEW: lists of series (lists of step times, ns) of the two
    sides, each series in step order; RUNS: for each side, the run
    (process, file) of each of its series, or None for one run. -> Change,
    or None when a side has no step."""
    runs = [[r for s, r in zip(side, rs or [0] * len(side)) if len(s)] for side, rs in zip((base, new), runs)]
    base = [list(s) for s in base if len(s)]
    new = [list(s) for s in new if len(s)]
    if not base or not new:
        return None
    rng = random.Random(SEED)
    all_b, all_n = [v for s in base for v in s], [v for s in new for v in s]
    bm, nm = median(all_b), median(all_n)
    change = nm / bm - 1 if bm else 0.0
    if min(len(all_b), len(all_n)) < FEW:   # a window of 3 steps: every pair's ratio
        blocks = (0, 0)
        low, high = ((min(all_n) / max(all_b) - 1, max(all_n) / min(all_b) - 1) if min(all_b) > 0
                     else (change, change))
    else:
        blocks = (block_length(base), block_length(new))
        rb = resampled_medians(base, blocks[0], ROUNDS, rng, runs[0])
        rn = resampled_medians(new, blocks[1], ROUNDS, rng, runs[1])
        ratios = sorted(n / b - 1 for b, n in zip(rb, rn) if b > 0)
        tail = (1 - LEVEL) / 2
        low, high = ((percentile(ratios, tail), percentile(ratios, 1 - tail)) if ratios
                     else (change, change))
    return Change(base_ns=bm, new_ns=nm, change=change, low=low, high=high,
                  verdict=verdict(change, low, high, min_change),
                  steps=(sum(map(len, base)), sum(map(len, new))), block=blocks)


def verdict(change, low, high, min_change=MIN_CHANGE):
    """'slower' when the interval lies above 0 and the change is at least
    min_change, 'faster' the other way, else 'same'."""
    if low > 0 and change >= min_change:
        return "slower"
    if high < 0 and change <= -min_change:
        return "faster"
    return "same"


def confidently_slower(c, pct):
    """Whether the new step is, at the interval's low end, more than PCT %
    slower than the base's (the CI gate)."""
    return c is not None and c.low > pct / 100


def chunks(n, size=SAMPLE, count=CHUNKS):
    """The position ranges [(lo, hi)] to read of a series of N steps: all
    of it when N is at most SIZE; else COUNT runs of SIZE/COUNT consecutive
    steps spread evenly over it (each a series: its dependence kept)."""
    if n <= size:
        return [(0, n)]
    length = max(size // count, 1)
    gap = (n - length) / (count - 1)
    return [(round(k * gap), round(k * gap) + length) for k in range(count)]
