"""steps.py - the step analyses of one trace (trace.Trace): the steps that
did other work than their thread's other steps (the odd step), and the
steps that did the same work in much more time (host work). They return
findings (dataclasses); the verdict's words and the --json objects are
made from the findings here, at the edge, for check and profile --auto.

API (check, profile --auto and diff use it; keep it stable):
  analyse(trace) -> Findings(threads, odd, host, short, slower)
  odd_steps(trace) -> [OddThread(thread, norm, odd)], one per thread whose
      steps differ; norm and each of odd a Pattern(steps, kernels, graphs,
      names, ranges, slower): steps alike in their kernels, graphs and own
      ranges (the norm: the most common; ranges: the program's own ranges
      the norm lacks, with their kernels; slower: differ.differing, the
      kernels they spent much longer on than the norm's steps)
  host_work(trace) -> [HostWork], the slowest step of each thread when it
      took HOST_RATIO times the others with the same work
  slower_steps(trace) -> [SlowerStep(thread, step, others, kernels)], the
      steps that launched the same kernels as their thread's other steps
      but ran some slower (samekernels.py's rule, the one diff flags by)
  odd_phrases(findings, label), host_phrases(findings, label, hint=True):
      check's words, one per thread; odd_json, HostWork.to_json: --json
"""
import collections
import re
from dataclasses import dataclass, field

from .common import and_list, commas, duration, duration_range, plural, spans
from .differ import calls_in, differing, phrase, totals
from .rule import median
from .samekernels import STEP_MIN_CHANGE, matters, slower_kernels, waits
from .trace import tid_of

# A step of an aimed window that did the same work as its thread's other
# steps is the event when its wall time (from the end of the step before to
# its own end: its range and the loop's own code before it) is at least
# HOST_RATIO times theirs (docs/cli.md, "Host work").
HOST_RATIO = 3.0
HOST_MIN_NS = 1000


@dataclass
class Pattern:
    """Steps of one thread that launched the same work."""
    steps: list        # their indexes, rising
    kernels: int       # kernels each launched
    graphs: int        # CUDA graph launches each (graphs traced whole)
    names: dict        # {kernel name: launches} of each
    ranges: list = field(default_factory=list)   # [(own range, its kernels)] the norm lacks
    slower: list = field(default_factory=list)   # differ.differing against the norm's steps


@dataclass
class OddThread:
    thread: int        # the thread id
    norm: Pattern      # the most common pattern (ties: the one that comes first)
    odd: list          # [Pattern], by their first step


@dataclass
class HostWork:
    """A step that took HOST_RATIO times its thread's other steps with the
    same work: in its range, or BETWEEN (in the gap before it)."""
    thread: int
    step: int
    took_ns: int
    gap_ns: int
    others_took_ns: list
    others_gap_ns: list
    between: bool
    kernels: int
    graphs: int
    before: int        # the step before it
    others: list       # the thread's other steps
    calls: list        # differ.differing of its OS calls; None without -t osrt

    def to_json(self):
        return {"thread": self.thread, "step": self.step, "took_ns": self.took_ns,
                "gap_ns": self.gap_ns, "others_took_ns": self.others_took_ns,
                "others_gap_ns": self.others_gap_ns, "between": self.between,
                "work": work_words(self.kernels, self.graphs), "before": self.before,
                "others": self.others, "calls": self.calls}


@dataclass
class SlowerStep:
    """A step that launched the same kernels as its thread's other steps
    (OTHERS) but ran KERNELS slower: [(name, change.Change)]."""
    thread: int
    step: int
    others: list
    kernels: list


@dataclass
class Findings:
    threads: int       # threads with steps
    odd: list          # [OddThread]
    host: list         # [HostWork]
    short: dict        # {kernel name: short name}, for the words
    slower: list = field(default_factory=list)   # [SlowerStep]


def analyse(trace):
    return Findings(len(trace.by_thread), odd_steps(trace), host_work(trace), trace.short,
                    slower_steps(trace))


def slower_steps(trace):
    """Each step of a thread of 3 steps or more against the thread's other
    steps: [SlowerStep] where they all launched the same kernels and this
    one ran some STEP_MIN_CHANGE slower or more, beyond noise, adding at
    least STEP_MIN_SHARE of a step's GPU time; not the
    communication kernels, whose time is the wait for the other ranks
    (straggler.py's subject)."""
    found = []
    for gtid in sorted(trace.by_thread):
        steps = [s for s in trace.by_thread[gtid] if s.end is not None]
        for s in steps if len(steps) >= 3 else ():
            others = [o for o in steps if o is not s]
            kernels = [(name, c) for name, c in slower_kernels([s], others, STEP_MIN_CHANGE)
                       if not waits(trace.short.get(name, name)) and matters(s, others, name)]
            if kernels:
                found.append(SlowerStep(tid_of(gtid), s.index, [o.index for o in others], kernels))
    return found


# ---- the odd step -----------------------------------------------------------

def odd_steps(trace):
    """The steps that did other work than their thread's other steps (other
    kernels, or ranges of the program's own that the others lack; the most
    common pattern is the norm): [OddThread], [] when all are alike."""
    found = []
    for gtid in sorted(trace.by_thread):
        patterns = collections.defaultdict(list)
        for s in trace.by_thread[gtid]:
            patterns[(frozenset(s.names.items()), s.range_names(), frozenset(s.graphs.items()))].append(s)
        if len(patterns) < 2:
            continue
        norm = max(patterns, key=lambda p: (len(patterns[p]), -min(s.index for s in patterns[p])))
        others = sorted((p for p in patterns if p != norm), key=lambda p: patterns[p][0].index)
        norm_steps = patterns[norm]
        odd = [pattern_of(patterns[p], own_ranges(patterns[p][0], p[1] - norm[1]),
                          differing([totals(s.kernel_ns) for s in patterns[p]],
                                    [totals(s.kernel_ns) for s in norm_steps]))
               for p in others]
        found.append(OddThread(tid_of(gtid), pattern_of(norm_steps), odd))
    return found


def pattern_of(steps, ranges=(), slower=()):
    first = steps[0]
    return Pattern([s.index for s in steps], first.kernel_count(), first.graph_count(),
                   dict(first.names), list(ranges), list(slower))


def own_ranges(step, extra):
    """[(text, kernels)]: the outermost of STEP's own ranges whose
    (digit-folded) name is in EXTRA, with the kernels launched inside them."""
    picked = [r for r in step.ranges if re.sub(r"[0-9]+", "N", r[2]) in extra]
    outer = [r for r in picked
             if not any(o is not r and o[0] <= r[0] and (o[1] is None or (r[1] is not None and r[1] <= o[1]))
                        for o in picked)]
    kernels = collections.OrderedDict()
    for start, end, text in outer:
        kernels[text] = kernels.get(text, 0) + step.kernels_in(start, end)
    return list(kernels.items())


# ---- host work --------------------------------------------------------------

def host_work(trace):
    """The steps (after each thread's first) whose wall time, from the end of
    the step before to their own end, is at least HOST_RATIO times the
    others' (each other step's range, plus the median gap between ranges):
    [HostWork], the slowest of each thread, by thread. The range and the
    gap before it say where the time went: in the step's body, or in the
    loop's own code between steps."""
    out = []
    for gtid in sorted(trace.by_thread):
        steps = trace.by_thread[gtid]
        if len(steps) < 2 or any(s.end is None for s in steps):
            continue
        took = [s.took() for s in steps]
        gaps = [None] + [b.start - a.end for a, b in zip(steps, steps[1:])]
        walls = [None] + [b.end - a.end for a, b in zip(steps, steps[1:])]
        k = max(range(1, len(steps)), key=lambda j: (walls[j], -j))
        others = took[:k] + took[k + 1:]
        other_gaps = [g for j, g in enumerate(gaps) if g is not None and j != k]
        reference = median(others) + (median(other_gaps) if other_gaps else 0)
        if walls[k] >= HOST_RATIO * reference and walls[k] - reference >= HOST_MIN_NS:
            out.append(HostWork(tid_of(gtid), steps[k].index, took[k], gaps[k], sorted(others),
                                sorted(other_gaps), gaps[k] > took[k], steps[k].kernel_count(),
                                steps[k].graph_count(), steps[k - 1].index,
                                [s.index for j, s in enumerate(steps) if j != k],
                                os_calls(trace, steps, k, gaps[k] > took[k])))
    return out


def os_calls(trace, steps, k, between):
    """The OS calls (-t osrt) step K of a thread's STEPS spent much longer on
    than the others (differ.py), in its range or, BETWEEN, in the gap before
    it, against the others' ranges or gaps; None without an OSRT_API table."""
    if trace.osrt is None:
        return None
    calls = trace.osrt.get(steps[k].gtid, [])
    span = ((lambda j: (steps[j - 1].end, steps[j].start)) if between else
            (lambda j: (steps[j].start, steps[j].end)))
    others = [j for j in range(len(steps)) if j != k and (j > 0 or not between)]
    return differing([totals(calls_in(calls, *span(k)))], [totals(calls_in(calls, *span(j))) for j in others])


# ---- the edge: words and JSON -----------------------------------------------

def work_words(kernels, graphs):
    """What a step launched: 497 kernels; 2 CUDA graphs (traced whole); 2 kernels and 1 CUDA graph."""
    graph = plural(graphs, "CUDA graph")
    return (graph if graphs and not kernels else
            f"{plural(kernels, 'kernel')} and {graph}" if graphs else plural(kernels, 'kernel'))


def and_words(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def name_difference(names, norm, short):
    """+2 fill, -2 gemm: the kernels a step launched more and fewer than the norm."""
    names, norm = collections.Counter(names), collections.Counter(norm)
    more, fewer = names - norm, norm - names
    words = [f"+{n} {short.get(k, k)}" for k, n in sorted(more.items())]
    words += [f"-{n} {short.get(k, k)}" for k, n in sorted(fewer.items())]
    return ", ".join(words[:4]) + (", ..." if len(words) > 4 else "")


def odd_phrase(t, label, short, threads):
    """One thread's odd steps in the verdict's words."""
    norm = t.norm
    parts = []
    for p in t.odd:
        each = " each" if len(p.steps) > 1 else ""
        part = f"{label}#{spans(p.steps)} launched {work_words(p.kernels, p.graphs)}{each}"
        if p.kernels == norm.kernels and p.names != norm.names:
            part += f" ({name_difference(p.names, norm.names, short)})"
        if p.ranges:
            part += " and holds " + and_words([f"'{text}' ({commas(n) if n else 'no'} kernel{'s' * (n != 1)})"
                                               for text, n in p.ranges])
        parts.append(part)
    which = "steps" if len(norm.steps) > 1 else "step"
    thread = f"thread {t.thread}: " if threads > 1 else ""
    norm_work = work_words(norm.kernels, norm.graphs) if norm.graphs else commas(norm.kernels)
    slower = [phrase(p.slower, f"{label}#{spans(p.steps)}'s kernels", norm.steps, short) for p in t.odd]
    return (f"{thread}{', '.join(parts)}, {which} {and_list(norm.steps)} launched {norm_work}"
            + "".join(f"; {k}" for k in slower if k))


def odd_phrases(findings, label):
    """The verdict's words for the odd steps: one phrase per thread."""
    return [odd_phrase(t, label, findings.short, findings.threads) for t in findings.odd]


def slower_phrases(findings, label):
    """The verdict's words for the steps that ran a kernel slower: 'step#31
    launched the same kernels as steps 30 and 32 but ran Kernel2 +20.0%
    slower (95% interval +19.5% to +20.4%)'."""
    out = []
    for t in findings.slower:
        who = f"thread {t.thread}: " if findings.threads > 1 else ""
        kernels = and_words([f"{findings.short.get(name, name)} {100 * c.change:+.1f}% slower "
                             f"(95% interval {100 * c.low:+.1f}% to {100 * c.high:+.1f}%)"
                             for name, c in t.kernels[:3]])
        out.append(f"{who}{label}#{t.step} launched the same kernels as step"
                   f"{'s' * (len(t.others) > 1)} {and_list(t.others)} but ran {kernels}")
    return out


def slower_json(findings):
    """--json's slower_kernels: per step, the kernels it ran slower (fractions)."""
    return [{"thread": t.thread, "step": t.step, "others": t.others,
             "kernels": [{"name": name, "ns": c.new_ns, "others_ns": c.base_ns,
                          "change": round(c.change, 6), "low": round(c.low, 6),
                          "high": round(c.high, 6)} for name, c in t.kernels]}
            for t in findings.slower]


def names_own_ranges(findings):
    """Whether an odd step holds ranges of the program's own (they say what it did)."""
    return any(p.ranges for t in findings.odd for p in t.odd)


def odd_json(findings):
    """--json's odd_kernels: what each odd pattern's kernels differ by."""
    return [{"thread": t.thread, "steps": p.steps, "others": t.norm.steps, "kernels": p.slower}
            for t in findings.odd for p in t.odd]


def host_phrases(findings, label, hint=True):
    """The verdict's words for the host work; HINT: with how to see what the
    host did when the report lacks the OS calls."""
    out = []
    for h in findings.host:
        who = f"thread {h.thread}: " if findings.threads > 1 else ""
        steps = f"step{'s' * (len(h.others) > 1)} {and_list(h.others)}"
        tell = "; add `-t osrt` or `--sample=cpu` to see it" if hint else ""
        if h.calls is not None:   # the report has the OS calls: name the slow ones
            # between the ranges, they are compared with the gaps before the other steps
            against = [i for i in h.others if i > min(h.others)] if h.between else h.others
            tell = "; " + (phrase(h.calls, "OS calls", against) or
                           "no OS call differs; `--sample=cpu` samples the CPU")
        work = work_words(h.kernels, h.graphs)
        if h.between:
            apart = f", {duration_range(h.others_gap_ns)} apart otherwise" if h.others_gap_ns else ""
            every = and_list(sorted(h.others + [h.step]))
            out.append(f"{who}{label}#{h.step} began {duration(h.gap_ns)} after {label}#{h.before} "
                       f"ended (steps {every} took {duration_range(h.others_took_ns + [h.took_ns])}"
                       f"{apart}), with the same {work}: host work between the steps (the loop's "
                       f"own code: fetching the next batch?){tell}")
        else:
            out.append(f"{who}{label}#{h.step} took {duration(h.took_ns)}, {steps} took "
                       f"{duration_range(h.others_took_ns)}, with the same {work}: host work "
                       f"(a checkpoint, a data-loader stall){tell}")
    return out
