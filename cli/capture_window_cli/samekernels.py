"""samekernels.py - one rule that diff and check share (issue 42): a kernel
that got slower while the steps' kernels stayed the same. The steps' kernels
are the same when every step on both sides launched the same names, as
many of each (pattern()); a kernel is then slower when change.compare of
its instances' times says `slower` at the given minimum change.

  pattern(step)                the step's kernels: names and counts
  same_kernels(steps, others)  every step of both lists has one pattern
  instances(steps, of)         {name: [[ns of each instance] per step]}
  slower_kernels(steps, others, min_change) -> [(name, Change)], the
      kernels STEPS ran slower than OTHERS when their kernels are the same,
      the largest change first; [] when they are not the same
  waits(short_name)            a communication kernel (NCCL's), which
      check leaves out: its time is the wait for the other ranks
  matters(step, others, name)  the kernel's extra time in STEP is at
      least STEP_MIN_SHARE of the other steps' GPU time (check's filter)

diff (diffreports.py) compares two reports' windows at change.MIN_CHANGE
and flags the kernels. check (steps.py) compares each step of a window
with its thread's other steps at STEP_MIN_CHANGE: a window of 3 steps
gives each side one to a few instances, whose interval is the range of
every pair's ratio, and kernels differ by a few percent from step to step.
"""
import collections

from .change import compare
from .rule import median

STEP_MIN_CHANGE = 0.2   # check: a kernel 20 % slower than in the thread's other steps
STEP_MIN_SHARE = 0.05   # ... whose extra time is 5 % of a step's GPU time: a small kernel's
                        # jitter (a 3 us kernel taking 4 us) is no finding in a step of 263
COMMUNICATION = "nccl"  # short names of the kernels that wait for other ranks (straggler.py's)


def waits(short_name):
    """Whether a kernel's time is mostly waiting for the other ranks (NCCL's):
    check leaves those to straggler.py."""
    return short_name.startswith(COMMUNICATION)


def pattern(step):
    return frozenset(step.names.items())


def same_kernels(steps, others):
    return bool(steps) and bool(others) and len({pattern(s) for s in steps + others}) == 1


def instances(steps, of):
    """{name: [[ns of its instances in step 1], [... step 2], ...]} over
    STEPS; OF(step) -> [(name, ns)]."""
    out = collections.defaultdict(lambda: [[] for _ in steps])
    for k, s in enumerate(steps):
        for name, ns in of(s):
            out[name][k].append(ns)
    return out


def slower_kernels(steps, others, min_change):
    if not same_kernels(steps, others):
        return []
    mine, theirs = instances(steps, kernel_ns), instances(others, kernel_ns)
    # `slower` needs a change of min_change or more: only those are resampled
    worth = [name for name in sorted(mine) if median([t for s in mine[name] for t in s]) >=
             (1 + min_change) * median([t for s in theirs[name] for t in s])]
    found = [(name, compare(theirs[name], mine[name], min_change)) for name in worth]
    found = [(name, c) for name, c in found if c and c.verdict == "slower"]
    return sorted(found, key=lambda nc: (-nc[1].change, nc[0]))


def matters(step, others, name):
    """Whether NAME's extra time in STEP, over its time in the typical
    other step, is at least STEP_MIN_SHARE of that step's GPU time."""
    mine = sum(ns for n, ns in step.kernel_ns if n == name)
    theirs = median([sum(ns for n, ns in o.kernel_ns if n == name) for o in others])
    total = median([sum(ns for _, ns in o.kernel_ns) for o in others])
    return mine - theirs >= STEP_MIN_SHARE * total


def kernel_ns(step):
    return step.kernel_ns
