"""gpuwork.py - what a step's GPU did besides its kernels, for diff: its
memory copies (by direction) and memsets, and its GPU idle time, read from
a report's SQLite export and given to the steps of a trace.Trace.

  gpu_work(path, trace) -> {(gtid, step index): [(name, ns)]}
      name: 'memcpy HtoD' (DtoH, DtoD, ...: nsys's copyKind), 'memset',
      or 'GPU idle'; ns: each copy's or memset's GPU time, and the step's
      idle time once

A copy, a memset or a kernel belongs to the step whose thread made the
API call that started it (CUPTI's correlation id, within one process, as
trace.py joins kernels), at the call's time. A step's GPU idle time: from
the start of the first GPU work it started to the end of the last, the
time in which none of it ran (the GPU waiting on the host, or on other
work). Tables the report lacks (no copy in the capture) give nothing.
"""
import collections
import sqlite3

from .trace import pid_sql

COPY_KINDS = {1: "HtoD", 2: "DtoH", 3: "HtoA", 4: "AtoH", 5: "AtoA", 6: "AtoD", 7: "DtoA",
              8: "DtoD", 9: "HtoH", 10: "PtoP"}   # CUDA's cudaMemcpyKind as CUPTI names it
IDLE = "GPU idle"


def activities(db, table, extra):
    """[(globalTid, call start, GPU start, GPU end, EXTRA)] of TABLE's rows,
    each with the API call that started it."""
    return db.execute(
        f"SELECT r.globalTid, r.start, a.start, a.end, {extra} FROM {table} a "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = a.correlationId AND "
        f"{pid_sql('r.globalTid')} = {pid_sql('a.globalPid')}").fetchall()


def gpu_work(path, trace):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "CUPTI_ACTIVITY_KIND_RUNTIME" not in tables:
            return {}
        rows = []
        if "CUPTI_ACTIVITY_KIND_MEMCPY" in tables:
            rows += [(t, c, s, e, f"memcpy {COPY_KINDS.get(k, f'kind {k}')}")
                     for t, c, s, e, k in activities(db, "CUPTI_ACTIVITY_KIND_MEMCPY", "a.copyKind")]
        if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:
            rows += activities(db, "CUPTI_ACTIVITY_KIND_MEMSET", "'memset'")
        if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
            rows += activities(db, "CUPTI_ACTIVITY_KIND_KERNEL", "NULL")
    finally:
        db.close()
    work, spans = collections.defaultdict(list), collections.defaultdict(list)
    for gtid, call, start, end, name in rows:
        step = trace.step_of(gtid, call)
        if step:
            key = (step.gtid, step.index)
            spans[key].append((start, end))
            if name:
                work[key].append((name, end - start))
    for key, intervals in spans.items():
        work[key].append((IDLE, idle(intervals)))
    return dict(work)


def idle(intervals):
    """The time from the first start to the last end that no interval covers."""
    intervals.sort()
    gap, reach = 0, intervals[0][1]
    for start, end in intervals[1:]:
        if start > reach:
            gap += start - reach
        reach = max(reach, end)
    return gap
