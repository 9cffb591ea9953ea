"""diffreports.py - `diff` from nsys reports (or their SQLite exports): the
findings, as data (ReportsDiff), of two captures of a loop's window.

  reports_diff(base, new, label) -> ReportsDiff
      base, new: lists of (trace.Trace, gpuwork.gpu_work of it), one per
      report (a side may be several: one per rank, or per run); rank against
      rank is one report a side, `diff report.0.nsys-rep report.3.nsys-rep`.

The steps compared. When both sides captured the same step numbers, step
k is compared with step k: all of them. When the numbers differ, each
side's steady steps are pooled: those whose kernels (names and counts) are
the side's commonest (an evaluation's step is left out).

What is compared, each the same way (change.compare, its 95 % interval
and verdict):
  step      the steps' durations (their L#i ranges)
  kernels   per kernel name: instances and GPU time per step on each side;
            the change is that of the median instance (its spread across
            instances gives the interval); largest changes of time per
            step first; a kernel on one side only has no change
  ranges    the program's own NVTX ranges nested in the steps, by name
            (digits folded: `layer 3` is `layer N`), the same way
  gpu       the steps' memory copies (by direction) and memsets, and
            their GPU idle time (gpuwork.py), the same way
A side of several reports (ranks, or runs of the program) is resampled
as runs (change.py's two-stage bootstrap: each resample draws the side's
reports with replacement, then the steps or instances of each), so the
reports' differences widen every interval: one run a side cannot show
how much two runs of the same program differ.
A kernel `slower` while the steps' kernels stayed the same (the same
names, as many of each, in every step of both sides) is flagged
(same_kernels and Name.flagged: samekernels.py's rule, which check uses
within one report): the kernel itself got slower, not the step's shape.
"""
import collections
import re
from dataclasses import dataclass, field

from .change import MIN_CHANGE, Change, compare
from .rule import median
from .samekernels import instances, pattern, same_kernels

FOLD = re.compile(r"[0-9]+")


@dataclass
class Name:
    """A kernel or a range compared: NAME (SHORT to show), instances a step
    and time a step on each side (None where it is absent), the change
    of its median instance (BASE_NS, NEW_NS; None on one side only), FLAGGED: slower while
    the step's kernels stayed the same."""
    name: str
    short: str
    base_ns: float = None    # its median instance
    new_ns: float = None
    base_count: float = None
    new_count: float = None
    base_step_ns: float = None
    new_step_ns: float = None
    change: Change = None
    flagged: bool = False

    def moved(self):
        """The time a step it gained (or lost): the order of the list."""
        return abs((self.new_step_ns or 0) - (self.base_step_ns or 0))


@dataclass
class ReportsDiff:
    label: str
    steps: tuple              # (base, new): the step numbers compared
    aligned: bool             # the same step numbers: step k against step k
    step: Change              # the steps' durations
    same_kernels: bool        # the steps' kernels (names, counts) alike on both sides
    reports: tuple = (1, 1)   # (base, new): the reports (ranks) of each side
    kernels: list = field(default_factory=list)   # [Name], largest change first
    ranges: list = field(default_factory=list)
    gpu: list = field(default_factory=list)       # memcpy, memset, GPU idle


def steps_of(side):
    """A side's whole steps (ended), in order."""
    return [s for t, _ in side for s in sorted(t.steps, key=lambda s: (s.gtid, s.index))
            if s.end is not None]


def steady(steps):
    """The steps whose kernels are the commonest pattern."""
    common = collections.Counter(map(pattern, steps)).most_common(1)
    return [s for s in steps if common and pattern(s) == common[0][0]]


def own_ranges(step):
    return [(FOLD.sub("N", text), end - start) for start, end, text in step.ranges if end is not None]


def compare_names(base, new, of, short, same, runs):
    b, n = instances(base, of), instances(new, of)
    found = []
    for name in sorted(set(b) | set(n)):
        d = Name(name, short.get(name, name))
        for side, steps, per in (("base", base, b), ("new", new, n)):
            if name in per:
                setattr(d, f"{side}_count", sum(map(len, per[name])) / len(steps))
                setattr(d, f"{side}_step_ns", sum(map(sum, per[name])) / len(steps))
                setattr(d, f"{side}_ns", median([ns for step in per[name] for ns in step]))
        if name in b and name in n:
            d.change = compare(b[name], n[name], MIN_CHANGE, runs)
            d.flagged = same and d.change.verdict == "slower"   # samekernels' rule
        found.append(d)
    found.sort(key=lambda d: (-d.moved(), d.name))
    return found


def report_of(side):
    """{id(step): the number of its report in SIDE}."""
    return {id(s): r for r, (t, _) in enumerate(side) for s in t.steps}


def durations(steps, reports, count):
    """The steps' durations as a series per report, 0 to COUNT - 1
    (compare's series; their runs are the reports' numbers); REPORTS: each
    step's report."""
    return [[s.took() for s, r in zip(steps, reports) if r == k] for k in range(count)]


def reports_diff(base, new, label):
    bs, ns = steps_of(base), steps_of(new)
    aligned = sorted(s.index for s in bs) == sorted(s.index for s in ns)
    if not aligned:
        bs, ns = steady(bs), steady(ns)
    short, gpu = {}, {}
    for t, work in base + new:
        short.update(t.short)
        gpu.update((id(s), work.get((s.gtid, s.index), [])) for s in t.steps)
    same = same_kernels(bs, ns)
    rb, rn = report_of(base), report_of(new)
    runs = ([rb[id(s)] for s in bs], [rn[id(s)] for s in ns])   # each step's report
    return ReportsDiff(
        label=label, steps=(sorted({s.index for s in bs}), sorted({s.index for s in ns})),
        aligned=aligned, same_kernels=same, reports=(len(base), len(new)),
        step=compare(durations(bs, runs[0], len(base)), durations(ns, runs[1], len(new)),
                     MIN_CHANGE, (list(range(len(base))), list(range(len(new))))),
        kernels=compare_names(bs, ns, lambda s: s.kernel_ns, short, same, runs),
        ranges=compare_names(bs, ns, own_ranges, {}, False, runs),
        gpu=compare_names(bs, ns, lambda s: gpu[id(s)], {}, False, runs))
