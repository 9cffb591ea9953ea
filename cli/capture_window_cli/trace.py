"""trace.py - one report's SQLite export (nsys export --type sqlite) read
into what the CLI's analyses need: the steps (L#i ranges) and, per step,
the kernels its thread launched inside it, the CUDA graphs traced whole,
the program's own ranges nested in it; the OS calls (-t osrt); the
window's purpose (the runtime's mark L:aimed-every-N); the environment
the run recorded.

API (check, profile --auto and diff read it; keep it stable):
  Trace(path, label)     the export at PATH, the loop labelled LABEL:
    .steps               [Step], by start; .by_thread {globalTid: [Step]}
    .windows             window ranges (one per thread's window)
    .before_window       steps that ran before their thread's window opened
    .pids                the processes whose steps it holds
    .aimed               [N] of the marks L:aimed-every-N
    .kernels, .graphs    kernels in the report; graph launches traced whole
    .short               {kernel name: its short name}
    .osrt                {globalTid: [(start, end, name)]} or None (no -t osrt)
    .recorded            {CAPTURE_WINDOW*: value} the run recorded
    .step_of(gtid, start)  the step of thread GTID that holds time START, or None
  Step                   .gtid .index .start .end; .names Counter of kernel
                         names; .kernel_ns [(name, GPU ns)]; .graphs
                         Counter of graph ids; .launches; .ranges
                         [(start, end, text)]; took(), kernels_in(start, end),
                         range_names(), kernel_count(), graph_count()
  pid_of(gtid), tid_of(gtid)   a globalTid's process and thread ids
  pid_sql(column)        the same as SQL, for joins within one process
"""
import bisect
import collections
import re
import sqlite3

from .recorded import recorded_variables

NVTX_PUSH_POP_RANGE = 59    # NVTX_EVENTS.eventType of nvtxRangePush/Pop ranges
NVTX_MARK = 34              # ... of nvtxMark
# The runtime's mark of a window aimed at a periodic event (docs/nsys.md).
AIM_MARK = r":aimed-every-([1-9][0-9]*)"
# nsys serializes ids as (... << 48) | (pid << 24) | tid (its "Serialized
# process and thread identifiers"): these give a globalTid's parts.
TID_MODULUS = 1 << 24
GRAPH_LAUNCH = ("cudaGraphLaunch%", "cuGraphLaunch%")   # the runtime's and the driver's


def pid_of(gtid):
    """A globalTid's (or globalPid's) process id."""
    return gtid // TID_MODULUS % TID_MODULUS


def tid_of(gtid):
    """A globalTid's thread id."""
    return gtid % TID_MODULUS


def pid_sql(column):
    """pid_of(COLUMN) in SQL."""
    return f"({column} / {TID_MODULUS} % {TID_MODULUS})"


class Step:
    """One L#i range: its thread, index and span, the kernels its thread
    launched inside it (names, and each launch's start), and the program's
    own ranges nested in it."""

    def __init__(self, gtid, index, start, end):
        self.gtid, self.index, self.start, self.end = gtid, index, start, end
        self.names = collections.Counter()
        self.kernel_ns = []   # [(name, its GPU time)], one per kernel
        self.graphs = collections.Counter()   # graph id: launches traced whole (no kernels)
        self.launches = []
        self.ranges = []     # [(start, end, text)], by start

    def holds(self, start):
        return self.start <= start and (self.end is None or start <= self.end)

    def kernels_in(self, start, end):
        """The kernels launched between START and END (launches sorted)."""
        last = len(self.launches) if end is None else bisect.bisect_right(self.launches, end)
        return last - bisect.bisect_left(self.launches, start)

    def range_names(self):
        """The names of its own ranges, digits folded (`iter 20` is `iter N`:
        a range that carries the step's number is the same range each step)."""
        return frozenset(re.sub(r"[0-9]+", "N", text) for _, _, text in self.ranges)

    def took(self):
        return None if self.end is None else self.end - self.start

    def kernel_count(self):
        return sum(self.names.values())

    def graph_count(self):
        return sum(self.graphs.values())


class Trace:
    """What check needs from one report's SQLite export: the NVTX push/pop
    ranges, the kernel count, for each L#i range the kernels its thread
    launched inside it and the program's own ranges in it, and the window's
    purpose (the runtime's mark L:aimed-every-N)."""

    def __init__(self, path, label):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            self.kernels = (db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
                            if "CUPTI_ACTIVITY_KIND_KERNEL" in tables else 0)
            ranges = self._events(db, NVTX_PUSH_POP_RANGE) if "NVTX_EVENTS" in tables else []
            marks = self._events(db, NVTX_MARK) if "NVTX_EVENTS" in tables else []
            launches = (self._launches(db) if {"CUPTI_ACTIVITY_KIND_KERNEL",
                                               "CUPTI_ACTIVITY_KIND_RUNTIME"} <= tables else [])
            graphs = self._graphs(db, tables) if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables else []
            self.osrt = self._os_calls(db) if "OSRT_API" in tables else None
            self.recorded = recorded_variables(db)
        finally:
            db.close()
        step = re.compile(re.escape(label) + r"#([0-9]+)")
        aim = re.compile(re.escape(label) + AIM_MARK)
        ours, own = [], []   # the runtime's ranges (default domain), the program's
        for r in ranges:
            mine = r[4] == 0 and (r[3] == label or step.fullmatch(r[3] or ""))
            (ours if mine else own).append(r)
        self.windows = sum(1 for r in ours if r[3] == label)   # one per thread's window
        self.steps = [Step(gtid, int(step.fullmatch(text).group(1)), start, end)
                      for start, end, gtid, text, _ in ours if text != label]
        opened = {}   # each thread's first window range
        for start, _, gtid, text, _ in ours:
            if text == label:
                opened[gtid] = min(start, opened.get(gtid, start))
        # The steps before their thread's window opened: with one thread's
        # window, a capture that began before the runtime started it.
        self.before_window = sorted({s.index for s in self.steps if s.gtid in opened
                                     and s.start < opened[s.gtid]}) if self.windows == 1 else []
        self.pids = {pid_of(s.gtid) for s in self.steps}
        self.aimed = sorted({int(m.group(1)) for _, _, _, text, _ in marks
                             for m in [aim.fullmatch(text or "")] if m})
        self.short = {}
        self.by_thread = collections.defaultdict(list)
        for s in self.steps:
            self.by_thread[s.gtid].append(s)
        self.starts = {t: [s.start for s in steps] for t, steps in self.by_thread.items()}
        for gtid, start, name, short, ns in launches:   # each launch in its thread's step
            s = self.step_of(gtid, start)
            if s:
                s.names[name] += 1
                s.kernel_ns.append((name, ns))
                s.launches.append(start)
                self.short[name] = short or name
        self.graphs = len(graphs)   # graph launches whose kernels nsys did not trace
        for gtid, start, graph_id in graphs:
            s = self.step_of(gtid, start)
            if s:
                s.graphs[graph_id] += 1
        for s in self.steps:
            s.launches.sort()
        for start, end, gtid, text, _ in own:       # each own range nested in a step
            s = self.step_of(gtid, start)
            if s and text and (s.end is None or (end is not None and end <= s.end)):
                s.ranges.append((start, end, text))

    @staticmethod
    def _events(db, event_type):
        # Registered strings (the window range) have text NULL and a textId.
        return db.execute(
            "SELECT e.start, e.end, e.globalTid, COALESCE(e.text, s.value), "
            "COALESCE(e.domainId, 0) FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId "
            "WHERE e.eventType = ? ORDER BY e.start", (event_type,)).fetchall()

    @staticmethod
    def _launches(db):
        # Every kernel with the API call that launched it (correlation ids
        # are per process, hence the pid test); a graph launch has several.
        return db.execute(
            "SELECT r.globalTid, r.start, d.value, s.value, k.end - k.start "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
            f"ON r.correlationId = k.correlationId AND {pid_sql('r.globalTid')} = "
            f"{pid_sql('k.globalPid')} "
            "LEFT JOIN StringIds d ON d.id = k.demangledName "
            "LEFT JOIN StringIds s ON s.id = k.shortName").fetchall()

    @staticmethod
    def _graphs(db, tables):
        """The graph launches (cudaGraphLaunch, cuGraphLaunch) whose kernels
        the report lacks: nsys's default --cuda-graph-trace=graph records each
        graph's run whole (CUPTI_ACTIVITY_KIND_GRAPH_TRACE, joined by
        correlation id and process); without that table, the launches no
        kernel is joined to. [(globalTid, start, graph id or None)]."""
        launches = db.execute(
            "SELECT r.globalTid, r.start, r.correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
            "JOIN StringIds s ON s.id = r.nameId WHERE s.value LIKE ? OR s.value LIKE ?",
            GRAPH_LAUNCH).fetchall()
        if not launches:
            return []
        if "CUPTI_ACTIVITY_KIND_GRAPH_TRACE" in tables:
            whole = {(pid_of(g), c): graph for c, g, graph in db.execute(
                "SELECT correlationId, globalPid, graphId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")}
            return [(t, start, whole[(pid_of(t), c)]) for t, start, c in launches if (pid_of(t), c) in whole]
        kernels = set()
        if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
            kernels = {(pid_of(g), c) for c, g in db.execute(
                "SELECT correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL")}
        return [(t, start, None) for t, start, c in launches if (pid_of(t), c) not in kernels]

    @staticmethod
    def _os_calls(db):
        """The OS calls nsys traced (-t osrt): {globalTid: [(start, end, name)]}, by start."""
        out = collections.defaultdict(list)
        for gtid, start, end, name in db.execute(
                "SELECT o.globalTid, o.start, o.end, s.value FROM OSRT_API o "
                "JOIN StringIds s ON s.id = o.nameId ORDER BY o.start"):
            out[gtid].append((start, end, name))
        return out

    def step_of(self, gtid, start):
        """The step range of thread GTID that holds time START, or None."""
        steps = self.by_thread.get(gtid)
        if not steps:
            return None
        k = bisect.bisect_right(self.starts[gtid], start) - 1
        return steps[k] if k >= 0 and steps[k].holds(start) else None
