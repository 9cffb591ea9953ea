"""straggler.py - `check` of a multi-rank capture: which rank the others
waited for at the collectives.

In a synchronous data-parallel job every rank's host step takes the same
time, since the collective makes them wait for each other. The rank that
arrives last at it spends the least time in NCCL's kernels; the others
spend the difference waiting inside theirs. So per step: each rank's time
in NCCL kernels (kernels whose short name starts with "nccl", attributed
to the L#i range of the thread that launched them), the rank(s) within
the tolerance of the least, and how long the others waited for them.

Ranks are even at a step when their NCCL times differ by less than the
tolerance: the larger of 0.1 ms and 5% of the step, above the jitter of
a collective's kernels (tens of us) and below a straggler worth a look.
"""
import collections
import re
import sqlite3
from dataclasses import dataclass

from .common import ME, spans, and_list
from .rule import median
from .trace import NVTX_PUSH_POP_RANGE, pid_sql

TOLERANCE_NS = 100_000
TOLERANCE_SHARE = 0.05
COLLECTIVES = {"AllReduce": "all-reduce", "AllGather": "all-gather", "ReduceScatter": "reduce-scatter",
               "Broadcast": "broadcast", "Reduce": "reduce", "SendRecv": "send/recv"}

# Per L#i range (default domain): its longest duration among the threads
# and the NCCL kernels launched in it, joined by correlation id within a
# process (ids are per process: trace.pid_sql).
STEPS = ("SELECT text, MAX(end - start) FROM NVTX_EVENTS WHERE eventType = ? "
         "AND COALESCE(domainId, 0) = 0 AND text GLOB ? GROUP BY text")
NCCL = ("SELECT e.text, k.end - k.start, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN StringIds s ON s.id = k.shortName AND s.value GLOB 'nccl*' "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
        f"AND {pid_sql('r.globalTid')} = {pid_sql('k.globalPid')} "
        "JOIN NVTX_EVENTS e ON e.globalTid = r.globalTid AND e.start <= r.start "
        "AND r.start <= e.end AND e.eventType = ? AND COALESCE(e.domainId, 0) = 0 "
        "AND e.text GLOB ?")
TABLES = {"NVTX_EVENTS", "StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"}


def ms(ns):
    """2.9 ms; 180 us."""
    return f"{ns / 1e6:.1f} ms" if ns >= 1e6 else f"{ns / 1e3:.0f} us"


def collective(name):
    """ncclDevKernel_AllReduce_Sum_f32_RING_LL -> all-reduce."""
    m = re.match(r"nccl(?:Dev)?Kernel_([A-Za-z]+)", name)
    return COLLECTIVES.get(m.group(1), "collective") if m else "collective"


def rank_steps(paths, label):
    """One rank's SQLite exports -> ({step: host ns}, {step: NCCL kernel ns},
    the collectives' kernel kinds)."""
    step = re.compile(re.escape(label) + r"#([0-9]+)")
    pattern = label + "#[0-9]*"
    host, nccl, kinds = {}, collections.Counter(), set()
    for path in paths:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not TABLES <= tables:
                continue
            for text, ns in db.execute(STEPS, (NVTX_PUSH_POP_RANGE, pattern)):
                m = step.fullmatch(text)
                if m:
                    host[int(m.group(1))] = max(host.get(int(m.group(1)), 0), ns)
            for text, ns, name in db.execute(NCCL, (NVTX_PUSH_POP_RANGE, pattern)):
                m = step.fullmatch(text)
                if m:
                    nccl[int(m.group(1))] += ns
                    kinds.add(collective(name))
        finally:
            db.close()
    return host, nccl, kinds


def judge_step(index, times, step_ns):
    """A step's verdict: the ranks that arrived last (empty when even) and
    how long the others waited for them, on average."""
    least, most = min(times.values()), max(times.values())
    tolerance = max(TOLERANCE_NS, TOLERANCE_SHARE * step_ns)
    last = [r for r, t in times.items() if t - least < tolerance] if most - least >= tolerance else []
    waits = [t - least for r, t in times.items() if r not in last]
    return {"step": index, "step_ns": step_ns,
            "nccl_ns": [{"rank": r, "ns": t} for r, t in times.items()],
            "last": last, "waited_ns": round(sum(waits) / len(waits)) if waits else 0,
            "spread_ns": most - least}


def step_line(label, s, who):
    times = ", ".join(f"{who([t['rank']])} {ms(t['ns'])}" for t in s["nccl_ns"])
    return f"{ME}: {label}#{s['step']} NCCL kernel time: {times} (step {ms(s['step_ns'])})"


def verdict_lines(label, steps, kind, who):
    """Who arrived last at which steps' collectives, or that the ranks were
    even: the verdict's sentences."""
    every = [s["step"] for s in steps]
    groups = collections.OrderedDict()
    for s in steps:
        groups.setdefault(tuple(s["last"]), []).append(s)
    lines = []
    for last, group in groups.items():
        if not last:
            continue
        indexes = [s["step"] for s in group]
        where = (f"every {kind} ({label}#{spans(indexes)})" if len(group) == len(steps)
                 else f"the {kind}s of {label}#{and_list(indexes)}")
        waited = sum(s["waited_ns"] for s in group) / len(group)
        step_ns = sum(s["step_ns"] for s in group) / len(group)
        together = " together" if len(last) > 1 else ""
        lines.append(f"{who(list(last))} arrived last{together} at {where}: the others waited "
                     f"{ms(waited)} of each {ms(step_ns)} step")
    even = groups.get((), [])
    spread = ms(max(s["spread_ns"] for s in even)) if even else ""
    if len(even) == len(steps):
        lines.append(f"ranks even at every {kind} ({label}#{spans(every)}): "
                     f"NCCL kernel times differ by at most {spread} a step")
    elif even:
        lines.append(f"ranks even at the {kind}s of {label}#{and_list([s['step'] for s in even])}")
    return lines


@dataclass
class NcclWaits:
    """Per step every rank captured with NCCL kernels in it: judge_step's
    {step, step_ns, nccl_ns, last, waited_ns, spread_ns}; COLLECTIVE: the
    kind of their kernels ('all-reduce'), or 'collective' for several."""
    collective: str
    steps: list


def nccl_waits(ranks, label):
    """RANKS: (rank, its reports' SQLite exports) of every process ->
    NcclWaits; None without NCCL kernels in the steps every rank captured."""
    read = [(rank, rank_steps(paths, label)) for rank, paths in ranks]
    common = set.intersection(*(set(host) for _, (host, _, _) in read))
    steps = sorted(i for i in common if any(nccl[i] for _, (_, nccl, _) in read))
    if not steps:
        return None
    kinds = set().union(*(k for _, (_, _, k) in read))
    kind = kinds.pop() if len(kinds) == 1 else "collective"
    judged = []
    for i in steps:
        step_ns = round(median([host[i] for _, (host, _, _) in read]))
        judged.append(judge_step(i, {rank: nccl[i] for rank, (_, nccl, _) in read}, step_ns))
    return NcclWaits(kind, judged)


def nccl_lines(w, label, who):
    """check's lines: one per step, then the verdict (WHO: ranks in words)."""
    return ([step_line(label, s, who) for s in w.steps] +
            [f"{ME}: {v}" for v in verdict_lines(label, w.steps, w.collective, who)])


def nccl_json(w, label, who):
    return {"collective": w.collective, "steps": w.steps,
            "verdict": verdict_lines(label, w.steps, w.collective, who)}
