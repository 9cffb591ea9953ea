"""differ.py - what an odd step did that its thread's other steps did not,
by time (docs/cli.md, "What the odd step holds"): its kernels, or, for a
step that did host work only, its OS calls (nsys -t osrt). One rule for
both: a name is reported when the odd step spent at least LONGER times the
others' mean on it (and MIN_NS more), a name the others lack included; the
TOP names by the time added."""
import collections

from .common import duration, and_list

TOP = 3
LONGER = 2.0
MIN_NS = 1000


def totals(items):
    """[(name, ns)] -> {name: [ns, count]}."""
    out = collections.defaultdict(lambda: [0, 0])
    for name, ns in items:
        out[name][0] += ns
        out[name][1] += 1
    return out


def differing(odd, others):
    """ODD and OTHERS: lists of {name: [ns, count]}, one per step. The names
    the odd steps spent much longer on than the others, per step (means):
    [{"name", "ns", "count", "others_ns", "others_count"}], the TOP by the
    time added."""
    def mean(steps, name, k):
        return sum(s[name][k] for s in steps if name in s) / len(steps) if steps else 0
    found = []
    for name in sorted({n for s in odd for n in s}):
        ns, other_ns = mean(odd, name, 0), mean(others, name, 0)
        if ns >= LONGER * other_ns and ns - other_ns >= MIN_NS:
            found.append({"name": name, "ns": round(ns), "count": round(mean(odd, name, 1)),
                          "others_ns": round(other_ns), "others_count": round(mean(others, name, 1))})
    found.sort(key=lambda d: (-(d["ns"] - d["others_ns"]), d["name"]))
    return found[:TOP]


def phrase(found, what, others, short=None):
    """"kernels that differ, by time: evaluate 130 us (not in steps 19 and
    21), gemm 2.00 ms (482 us in them)"; "" when none differ."""
    if not found:
        return ""
    where = f"step{'s' * (len(others) > 1)} {and_list(others)}"
    words = []
    for k, d in enumerate(found):
        place = where if k == 0 else ("them" if len(others) > 1 else "it")
        there = f"{duration(d['others_ns'])} in {place}" if d["others_count"] else f"not in {place}"
        words.append(f"{(short or {}).get(d['name'], d['name'])} {duration(d['ns'])} ({there})")
    return f"{what} that differ, by time: {', '.join(words)}"


def calls_in(calls, start, end):
    """CALLS: a thread's OS calls [(start, end, name)], by start; those that
    start within START..END as [(name, ns)]."""
    return [(name, e - s) for s, e, name in calls if start <= s and (end is None or s <= end)]
