"""periods.py - plan's events that recur: slow steps on a grid (every
EVERY from PHASE), band by band from the slowest, each grid kept only when
its hits could not come by chance among all the grids tried
(docs/where-to-cut.md, "Periods"; spike runs the same test online)."""
import bisect
import math
import operator
from collections import Counter

from .rule import median

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


def periodic_events(cand, start, last, recorded, m0, margin):
    """The events that recur among cand ({iteration: ns} of the steps after
    the warm-up above the small-slowdown level). Levels are taken from the
    slowest down, each a band of a factor ALIKE; an event's occurrences are
    the places of its grid (every EVERY from PHASE) that are at least as
    slow as its band, so a step holding a slower event counts for it too,
    and the run's last step counts when it is that slow. MARGIN: the slow
    margin over the median M0 (rule.slow_margin)."""
    negated = sorted(map(operator.neg, cand.values()))  # rising: a band's end is a bisection
    events, left, above, k, high = [], [], set(), 0, math.inf
    steps = last - start + 1 if recorded is None else sum(1 for i in recorded if i >= start)
    while k < len(negated):
        low = -negated[k] / ALIKE
        band = [i for i, t in cand.items() if low <= t < high]  # cand is in step order
        above.update(band)
        left = find_events(sorted(left + band), above, cand, events,
                           (start, last, recorded, m0, margin, negated, steps))
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
    start, last, recorded, m0, margin, negated, steps = run
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
    level = median(times) - m0
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
