"""report.py - `check`: a report's SQLite export read into steps, kernels
and ranks, and the verdicts on them."""
import bisect
import collections
import json
import os
import re
import sqlite3
import subprocess

from .common import (ME, Usage, usage, cannot_run, plural, human, commas, spans, and_list, parse_expect,
                     option_value, nsys_command, duration, problem)
from .differ import calls_in, differing, phrase, totals
from .ncu import check_ncu_report
from .recorded import nearest_window, recorded_variables, recorded_window
from .straggler import nccl_waits

MAX_BYTES = 1_000_000_000   # a window report larger than this never closed
NVTX_PUSH_POP_RANGE = 59    # NVTX_EVENTS.eventType of nvtxRangePush/Pop ranges
NVTX_MARK = 34              # ... of nvtxMark
# The runtime's mark of a window aimed at a periodic event (docs/nsys.md).
AIM_MARK = r":aimed-every-([1-9][0-9]*)"
# nsys serializes ids as (... << 48) | (pid << 24) | tid (its "Serialized
# process and thread identifiers"): these give a globalTid's parts.
PID_OF = "({} / 16777216 % 16777216)"
TID_MODULUS = 1 << 24
# A step of an aimed window that did the same work as its thread's other
# steps is the event when its wall time (from the end of the step before to
# its own end: its range and the loop's own code before it) is at least
# HOST_RATIO times theirs (docs/cli.md, "Host work").
HOST_RATIO = 3.0
HOST_MIN_NS = 1000
GRAPH_LAUNCH = ("cudaGraphLaunch%", "cuGraphLaunch%")   # the runtime's and the driver's


def sqlite_of(report):
    return report[: -len(".nsys-rep")] + ".sqlite" if report.endswith(".nsys-rep") else report + ".sqlite"


def export(report):
    """nsys export of REPORT to REPORT.sqlite, afresh (nsys stats refused an
    export it had made itself as older than the report); (path, None) or
    (None, the first line nsys printed)."""
    db = sqlite_of(report)
    try:
        p = subprocess.run([nsys_command(), "export", "--type", "sqlite", "-f", "true",
                            "-o", db, report], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    except OSError as e:
        return None, cannot_run(nsys_command(), e, "NSYS", "nsys")
    if p.returncode != 0 or not os.path.isfile(db):
        first = next((line for line in p.stdout.splitlines() if line.strip()), f"exit status {p.returncode}")
        return None, first
    return db, None


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

    def work(self):
        """What it launched: 497 kernels; 2 CUDA graphs (traced whole); 2 kernels and 1 CUDA graph."""
        kernels, graphs = sum(self.names.values()), sum(self.graphs.values())
        graph = plural(graphs, "CUDA graph")
        return (graph if graphs and not kernels else
                f"{plural(kernels, 'kernel')} and {graph}" if graphs else plural(kernels, 'kernel'))


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
        self.pids = {s.gtid // TID_MODULUS % TID_MODULUS for s in self.steps}
        self.aimed = sorted({int(m.group(1)) for _, _, _, text, _ in marks
                             for m in [aim.fullmatch(text or "")] if m})
        self.short = {}
        self.by_thread = collections.defaultdict(list)
        for s in self.steps:
            self.by_thread[s.gtid].append(s)
        self.starts = {t: [s.start for s in steps] for t, steps in self.by_thread.items()}
        for gtid, start, name, short, ns in launches:   # each launch in its thread's step
            s = self._step_of(gtid, start)
            if s:
                s.names[name] += 1
                s.kernel_ns.append((name, ns))
                s.launches.append(start)
                self.short[name] = short or name
        self.graphs = len(graphs)   # graph launches whose kernels nsys did not trace
        for gtid, start, graph_id in graphs:
            s = self._step_of(gtid, start)
            if s:
                s.graphs[graph_id] += 1
        for s in self.steps:
            s.launches.sort()
        for start, end, gtid, text, _ in own:       # each own range nested in a step
            s = self._step_of(gtid, start)
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
            f"ON r.correlationId = k.correlationId AND {PID_OF.format('r.globalTid')} = "
            f"{PID_OF.format('k.globalPid')} "
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
        pid = lambda gtid: gtid // TID_MODULUS % TID_MODULUS
        if "CUPTI_ACTIVITY_KIND_GRAPH_TRACE" in tables:
            whole = {(pid(g), c): graph for c, g, graph in db.execute(
                "SELECT correlationId, globalPid, graphId FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE")}
            return [(t, start, whole[(pid(t), c)]) for t, start, c in launches if (pid(t), c) in whole]
        kernels = set()
        if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
            kernels = {(pid(g), c) for c, g in db.execute(
                "SELECT correlationId, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL")}
        return [(t, start, None) for t, start, c in launches if (pid(t), c) not in kernels]

    @staticmethod
    def _os_calls(db):
        """The OS calls nsys traced (-t osrt): {globalTid: [(start, end, name)]}, by start."""
        out = collections.defaultdict(list)
        for gtid, start, end, name in db.execute(
                "SELECT o.globalTid, o.start, o.end, s.value FROM OSRT_API o "
                "JOIN StringIds s ON s.id = o.nameId ORDER BY o.start"):
            out[gtid].append((start, end, name))
        return out

    def _step_of(self, gtid, start):
        """The step range of thread GTID that holds time START, or None."""
        steps = self.by_thread.get(gtid)
        if not steps:
            return None
        k = bisect.bisect_right(self.starts[gtid], start) - 1
        return steps[k] if k >= 0 and steps[k].holds(start) else None


def odd_steps(trace, label):
    """The steps that did other work than their thread's other steps (other
    kernels, or ranges of the program's own that the others lack; the most
    common pattern is the norm), one phrase per thread, and whether any
    phrase names the program's own ranges; ([], False) when all are alike."""
    threads = collections.defaultdict(list)
    for s in trace.steps:
        threads[s.gtid].append(s)
    problems, named = [], False
    trace.odd_kernels = []   # what each odd pattern's kernels differ by (--json)
    for gtid in sorted(threads):
        patterns = collections.defaultdict(list)
        for s in threads[gtid]:
            patterns[(frozenset(s.names.items()), s.range_names(), frozenset(s.graphs.items()))].append(s)
        if len(patterns) < 2:
            continue
        norm = max(patterns, key=lambda p: (len(patterns[p]), -min(s.index for s in patterns[p])))
        norm_names = collections.Counter(dict(norm[0]))
        norm_count = sum(norm_names.values())
        parts = []
        for pattern in sorted((p for p in patterns if p != norm), key=lambda p: patterns[p][0].index):
            steps = patterns[pattern]
            names = collections.Counter(dict(pattern[0]))
            count = sum(names.values())
            each = " each" if len(steps) > 1 else ""
            work = steps[0].work() if pattern[2] or norm[2] else plural(count, 'kernel')
            part = f"{label}#{spans(s.index for s in steps)} launched {work}{each}"
            if count == norm_count and names != norm_names:
                part += f" ({name_difference(names, norm_names, trace.short)})"
            held = own_ranges(steps[0], pattern[1] - norm[1])
            if held:
                part += " and holds " + and_words(held)
                named = True
            parts.append(part)
        norm_steps = [s.index for s in patterns[norm]]
        which = "steps" if len(norm_steps) > 1 else "step"
        thread = f"thread {gtid % TID_MODULUS}: " if len(threads) > 1 else ""
        norm_work = patterns[norm][0].work() if norm[2] else commas(norm_count)
        kernels = [odd_kernels(patterns[p], patterns[norm], label, trace.short)
                   for p in sorted((p for p in patterns if p != norm), key=lambda p: patterns[p][0].index)]
        trace.odd_kernels += [{"thread": gtid % TID_MODULUS, "steps": [s.index for s in steps],
                               "others": norm_steps, "kernels": found} for found, _, steps in kernels]
        problems.append(f"{thread}{', '.join(parts)}, {which} {and_list(norm_steps)} "
                        f"launched {norm_work}" + "".join(f"; {k[1]}" for k in kernels if k[1]))
    return problems, named


def odd_kernels(steps, norm, label, short):
    """The kernels STEPS spent much longer on than the NORM's steps (differ.py):
    (the --json list, the verdict's words, STEPS)."""
    found = differing([totals(s.kernel_ns) for s in steps], [totals(s.kernel_ns) for s in norm])
    who = spans(s.index for s in steps)
    return found, phrase(found, f"{label}#{who}'s kernels", [s.index for s in norm], short), steps


def own_ranges(step, extra):
    """'validation' (2,960 kernels): the outermost of STEP's own ranges whose
    (digit-folded) name is in EXTRA, with the kernels launched inside them."""
    picked = [r for r in step.ranges if re.sub(r"[0-9]+", "N", r[2]) in extra]
    outer = [r for r in picked
             if not any(o is not r and o[0] <= r[0] and (o[1] is None or (r[1] is not None and r[1] <= o[1]))
                        for o in picked)]
    kernels = collections.OrderedDict()
    for start, end, text in outer:
        kernels[text] = kernels.get(text, 0) + step.kernels_in(start, end)
    return [f"'{text}' ({commas(n) if n else 'no'} kernel{'s' * (n != 1)})" for text, n in kernels.items()]


def and_words(words):
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def name_difference(names, norm, short):
    """+2 fill, -2 gemm: the kernels a step launched more and fewer than the norm."""
    more, fewer = names - norm, norm - names
    words = [f"+{n} {short.get(k, k)}" for k, n in sorted(more.items())]
    words += [f"-{n} {short.get(k, k)}" for k, n in sorted(fewer.items())]
    return ", ".join(words[:4]) + (", ..." if len(words) > 4 else "")


def check_report(report, label, expect):
    """The verdict on one report: a dict with ok, problem, verdict and what
    was read (the --json object)."""
    result = {"report": report, "ok": False, "problem": None, "verdict": None, "bytes": None,
              "label": label, "kernels": None, "threads": None, "steps": None,
              "pids": None, "purpose": None, "step_kernels": None, "graph_launches": None,
              "host_work": None, "odd_kernels": None, "window": None, "recorded": None}

    def verdict(name, text):
        result.update(ok=name is None, problem=name, verdict=text)
        return result

    if not os.path.isfile(report):
        return verdict(*problem("missing"))
    size = os.path.getsize(report)
    result["bytes"] = size
    if size >= MAX_BYTES:
        return verdict(*problem("never_closed", size=human(size)))
    db, error = export(report)
    if error:
        return verdict(*problem("export_failed", error=error))
    trace = Trace(db, label)
    indexes = sorted({s.index for s in trace.steps})
    result.update(kernels=trace.kernels, threads=trace.windows, steps=indexes,
                  pids=sorted(trace.pids),
                  purpose={"aimed_every": trace.aimed[0]} if trace.aimed else None,
                  step_kernels=[{"step": s.index, "thread": s.gtid % TID_MODULUS,
                                 "kernels": sum(s.names.values()), "names": dict(sorted(s.names.items())),
                                 "ranges": own_range_kernels(s), "took_ns": s.took(),
                                 "graphs": sum(s.graphs.values())} for s in trace.steps],
                  graph_launches=trace.graphs)
    found = f"{plural(len(indexes), 'step')} ({label}#{spans(indexes)})"
    tail = f"{plural(trace.kernels, 'kernel')}, {human(size)}"
    if trace.graphs:   # graphs traced whole: GPU work whose kernels the report lacks
        launches = f"{commas(trace.graphs)} CUDA graph launch{'es' * (trace.graphs != 1)}"
        kernels = f"{plural(trace.kernels, 'kernel')} and " if trace.kernels else ""
        tail = (f"{kernels}{launches} (nsys traced each graph whole: --cuda-graph-trace=node "
                f"shows their kernels), {human(size)}")
    if trace.kernels == 0 and trace.graphs == 0:
        return verdict(*problem("no_kernels", size=human(size)))
    # The report is judged by what the run recorded, not by this command's
    # environment: window ranges without a step range are a run with
    # CAPTURE_WINDOW_STEPS=off (any other value pushes L#i inside a window).
    if not indexes and trace.windows > 0:
        return verdict(None, f"ok: window {label} (CAPTURE_WINDOW_STEPS=off: no {label}#i ranges), {tail}")
    if not indexes:
        return verdict(*problem("no_ranges", label=label, tail=tail))
    extra = ""
    if isinstance(expect, list):   # the planned windows: the one this report's steps began at
        expect = nearest_window(expect, indexes[0])
        result["window"] = expect
    recorded, source = trace.recorded, ""
    result["recorded"] = recorded or None
    if not expect and "CAPTURE_WINDOW" in recorded:
        expect = recorded_window(recorded, indexes[0])
        source = f": CAPTURE_WINDOW={recorded['CAPTURE_WINDOW']}, recorded in the report"
    outside = own_capture(trace, recorded, label)
    if outside:
        return verdict(*problem("own_capture", found=found, label=label, outside=outside))
    if expect:
        start, count = expect
        start = indexes[0] if start is None else start
        want = range(start, start + count)
        outside = [i for i in indexes if i not in want]
        if len(indexes) - len(outside) != count or (outside and trace.windows <= 1):
            return verdict(*problem("other_steps", found=found, count=count,
                                    want=f" ({label}#{spans(want)}{source})"))
        if outside:   # another thread's window held the profiler on after this one closed
            extra = f" (also {label}#{spans(outside)} of threads whose window closed first)"
        found = f"{plural(count, 'step')} ({label}#{spans(want)})"
    elif "," in spans(indexes):
        return verdict(*problem("several_windows", found=found))
    threads = f" in {trace.windows} threads" if trace.windows > 1 else ""
    result["host_work"] = host_work(trace) or None
    judged = judge(trace, label, f"{found}{threads}", f"{tail}{extra}", result["host_work"])
    result["odd_kernels"] = trace.odd_kernels or None
    return verdict(*judged)


def own_capture(trace, recorded, label):
    """How the report's steps lie outside the runtime's window, when its
    capture was not the window's ('step#0 ran before window 'step'
    opened'), else None: steps before the window range of the one thread
    that opened one; or steps with no window range at all in a run that
    recorded its environment and pushes window ranges (any trigger but
    CAPTURE_WINDOW_TRIGGER=cuda)."""
    if trace.before_window:
        return f"{label}#{spans(trace.before_window)} ran before window '{label}' opened"
    ranges_pushed = recorded and recorded.get("CAPTURE_WINDOW_TRIGGER") != "cuda"
    if trace.windows == 0 and trace.steps and ranges_pushed:
        indexes = sorted({s.index for s in trace.steps})
        return f"{label}#{spans(indexes)} ran with no window '{label}' open"
    return None


def host_work(trace):
    """The steps (after each thread's first) whose wall time, from the end of
    the step before to their own end, is at least HOST_RATIO times the
    others' (each other step's range, plus the median gap between ranges):
    [{thread, step, took_ns, gap_ns, others_ns, ...}], the slowest of
    each thread, by thread. The range and the gap before it say where the
    time went: in the step's body, or in the loop's own code between steps."""
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
        reference = median_of(others) + (median_of(other_gaps) if other_gaps else 0)
        if walls[k] >= HOST_RATIO * reference and walls[k] - reference >= HOST_MIN_NS:
            out.append({"thread": gtid % TID_MODULUS, "step": steps[k].index, "took_ns": took[k],
                        "gap_ns": gaps[k], "others_took_ns": sorted(others),
                        "others_gap_ns": sorted(other_gaps), "between": gaps[k] > took[k],
                        "work": steps[k].work(), "before": steps[k - 1].index,
                        "others": [s.index for j, s in enumerate(steps) if j != k],
                        "calls": os_calls(trace, steps, k, gaps[k] > took[k])})
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


def median_of(values):
    ordered = sorted(values)
    n = len(ordered)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def durations(values):
    """19.0 ms, or 18.0-21.0 ms when they differ as written."""
    low, high = duration(min(values)), duration(max(values))
    if low == high:
        return low
    if low.split()[1] == high.split()[1]:
        return f"{low.split()[0]}-{high}"
    return f"{low}-{high}"


def host_phrases(slow, label, threads):
    """The verdict's words for host_work's steps."""
    see = "add `-t osrt` or `--sample=cpu` to see it"
    out = []
    for h in slow:
        who = f"thread {h['thread']}: " if threads > 1 else ""
        others = h["others"]
        steps = f"step{'s' * (len(others) > 1)} {and_list(others)}"
        tell = see
        if h.get("calls") is not None:   # the report has the OS calls: name the slow ones
            # between the ranges, they are compared with the gaps before the other steps
            against = [i for i in others if i > min(others)] if h["between"] else others
            tell = (phrase(h["calls"], "OS calls", against) or
                    "no OS call differs; `--sample=cpu` samples the CPU")
        if h["between"]:
            apart = (f", {durations(h['others_gap_ns'])} apart otherwise" if h["others_gap_ns"] else "")
            every = and_list(sorted(others + [h["step"]]))
            out.append(f"{who}{label}#{h['step']} began {duration(h['gap_ns'])} after {label}#{h['before']} "
                       f"ended (steps {every} took {durations(h['others_took_ns'] + [h['took_ns']])}"
                       f"{apart}), with the same {h['work']}: host work between the steps (the loop's "
                       f"own code: fetching the next batch?); {tell}")
        else:
            out.append(f"{who}{label}#{h['step']} took {duration(h['took_ns'])}, {steps} took "
                       f"{durations(h['others_took_ns'])}, with the same {h['work']}: host work "
                       f"(a checkpoint, a data-loader stall); {tell}")
    return out


def judge(trace, label, found, tail, slow=None):
    """Whether the window's steps are what it was for: (problem, verdict).
    A window meant for steady state must hold steps alike; one aimed at an
    event every N steps (the runtime's mark) must hold the step that differs:
    by its work, or, doing the same work, by its time (host work: SLOW)."""
    odd, named = odd_steps(trace, label)
    if trace.aimed:
        aim = f"aimed at every {trace.aimed[0]} steps"
        if odd:
            return None, f"ok: {found}, {aim}: {'; '.join(odd)}; {tail}"
        if slow:
            return None, f"ok: {found}, {aim}: {'; '.join(host_phrases(slow, label, len(trace.by_thread)))}; {tail}"
        return problem("missed_event", found=found, aim=aim, tail=tail)
    if odd:
        return problem("not_steady", odd="; ".join(odd), why="" if named else " (eval? checkpoint?)")
    return None, f"ok: {found}, {tail}"


def own_range_kernels(step):
    """{range name: kernels launched in it} over a step's own ranges (--json)."""
    out = collections.Counter()
    for start, end, text in step.ranges:
        out[text] += step.kernels_in(start, end)
    return dict(sorted(out.items()))


def rank_of(reports):
    """A process's reports -> its rank R, or the reports' NAME when they
    hold none. profile names them NAME.R.nsys-rep (one window of rank R),
    NAME.R.W.nsys-rep (repeat window W of rank R: one report or several)
    and, without a rank variable, NAME.nsys-rep or NAME.W.nsys-rep."""
    names = [re.fullmatch(r"(.*?)\.([0-9]+)(?:\.([0-9]+))?", r[: -len(".nsys-rep")])
             for r in reports]
    if all(m and m.group(3) for m in names) and len({m.group(2) for m in names}) == 1:
        return int(names[0].group(2))        # NAME.R.W...
    if len(names) == 1 and names[0]:
        return int(names[0].group(2))        # NAME.R
    stem = reports[0][: -len(".nsys-rep")]
    return os.path.basename(re.sub(r"\.[0-9]+$", "", stem) if len(reports) > 1 else stem)


def who(ranks):
    """rank 2; ranks 0, 1 and 4-7; or the names of reports without a rank."""
    if all(isinstance(r, int) for r in ranks):
        return f"rank {ranks[0]}" if len(ranks) == 1 else f"ranks {and_list(ranks)}"
    return ", ".join(str(r) for r in ranks)


def compare_ranks(results, label):
    """With the reports of several processes, a line per process and whether
    they all captured the same steps: (lines, the --json object), or None."""
    processes = collections.OrderedDict()
    for r in results:
        if r.get("pids"):
            processes.setdefault(min(r["pids"]), []).append(r)
    if len(processes) < 2:
        return None
    ranks = [{"rank": rank_of([r["report"] for r in rs]), "pid": pid,
              "reports": [r["report"] for r in rs],
              "steps": sorted({i for r in rs for i in r["steps"]})}
             for pid, rs in processes.items()]
    lines = [f"{ME}: {who([r['rank']])} ({', '.join(r['reports'])}): {label}#{spans(r['steps'])}"
             for r in ranks]
    groups = collections.OrderedDict()
    for r in ranks:
        groups.setdefault(tuple(r["steps"]), []).append(r["rank"])
    if len(groups) == 1:
        verdict = f"all {len(ranks)} ranks captured the same steps ({label}#{spans(ranks[0]['steps'])})"
    else:
        norm = max(groups, key=lambda g: len(groups[g]))
        odd = [f"{who(groups[g])} captured {label}#{spans(g)}" for g in groups if g != norm]
        verdict = (f"ranks differ: {', '.join(odd)}, {who(groups[norm])} {label}#{spans(norm)} "
                   "(windows opened by a signal? set CAPTURE_WINDOW_ALIGN)")
    lines.append(f"{ME}: {verdict}")
    found = {"ranks": ranks, "same_steps": len(groups) == 1, "verdict": verdict}
    waits = nccl_waits([(r["rank"], [sqlite_of(p) for p in r["reports"]]) for r in ranks], label, who)
    if waits:   # which rank the others waited for at the collectives
        lines += waits[0]
        found["nccl"] = waits[1]
    return lines, found


def cmd_check(args):
    label, expect, as_json, i = "step", None, False, 0
    while i < len(args) and args[i].startswith("-"):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "--json":
            as_json, i = True, i + 1
        elif a == "--label" or a.startswith("--label="):
            label, i = option_value(args, i, "--label")
        elif a == "--expect" or a.startswith("--expect="):
            expect, i = option_value(args, i, "--expect")
        else:
            raise Usage(f"{ME}: check: unknown option '{a}'")
    reports = args[i:]
    if not reports:
        raise usage()
    expect = parse_expect(expect) if expect else None
    results = [check_ncu_report(r, label, expect) if r.endswith(".ncu-rep") else
               check_report(r, label, expect) for r in reports]
    ranks = compare_ranks(results, label)
    for r in results:
        print(json.dumps(r) if as_json else f"{r['report']}: {r['verdict']}")
    if ranks:
        print(json.dumps(ranks[1]) if as_json else "\n".join(ranks[0]))
    return 0 if all(r["ok"] for r in results) and (not ranks or ranks[1]["same_steps"]) else 1
