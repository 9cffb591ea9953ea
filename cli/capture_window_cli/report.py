"""report.py - `check`: a report's SQLite export read into steps, kernels
and ranks, and the verdicts on them."""
import bisect
import collections
import json
import os
import re
import sqlite3
import subprocess

from .common import (ME, Usage, usage, human, commas, spans, and_list, parse_expect,
                     option_value, nsys_command)
from .straggler import nccl_waits

MAX_BYTES = 1_000_000_000   # a window report larger than this never closed
NVTX_PUSH_POP_RANGE = 59    # NVTX_EVENTS.eventType of nvtxRangePush/Pop ranges
# nsys serializes ids as (... << 48) | (pid << 24) | tid (its "Serialized
# process and thread identifiers"): these give a globalTid's parts.
PID_OF = "({} / 16777216 % 16777216)"
TID_MODULUS = 1 << 24


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
        return None, f"cannot run {nsys_command()}: {e.strerror} (NSYS names the nsys to run)"
    if p.returncode != 0 or not os.path.isfile(db):
        first = next((line for line in p.stdout.splitlines() if line.strip()), f"exit status {p.returncode}")
        return None, first
    return db, None


class Trace:
    """What check needs from one report's SQLite export: the NVTX push/pop
    ranges of the default domain, the kernel count, and for each L#i range
    the kernels its thread launched inside it."""

    def __init__(self, path, label):
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            self.kernels = (db.execute("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
                            if "CUPTI_ACTIVITY_KIND_KERNEL" in tables else 0)
            ranges = self._ranges(db) if "NVTX_EVENTS" in tables else []
            launches = (self._launches(db) if {"CUPTI_ACTIVITY_KIND_KERNEL",
                                               "CUPTI_ACTIVITY_KIND_RUNTIME"} <= tables else [])
        finally:
            db.close()
        step = re.compile(re.escape(label) + r"#([0-9]+)")
        self.windows = sum(1 for r in ranges if r[3] == label)   # one per thread's window
        self.steps = []      # [tid, index, start, end, Counter of kernel names], by start
        for start, end, gtid, text in ranges:
            m = step.fullmatch(text or "")
            if m:
                self.steps.append([gtid, int(m.group(1)), start, end, collections.Counter()])
        self.pids = {gtid // TID_MODULUS % TID_MODULUS for gtid, *_ in self.steps}
        self.short = {}
        self._attribute(launches)

    @staticmethod
    def _ranges(db):
        # Registered strings (the window range) have text NULL and a textId.
        return db.execute(
            "SELECT e.start, e.end, e.globalTid, COALESCE(e.text, s.value) FROM NVTX_EVENTS e "
            "LEFT JOIN StringIds s ON s.id = e.textId "
            "WHERE e.eventType = ? AND COALESCE(e.domainId, 0) = 0 ORDER BY e.start",
            (NVTX_PUSH_POP_RANGE,)).fetchall()

    @staticmethod
    def _launches(db):
        # Every kernel with the API call that launched it (correlation ids
        # are per process, hence the pid test); a graph launch has several.
        return db.execute(
            "SELECT r.globalTid, r.start, d.value, s.value "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
            f"ON r.correlationId = k.correlationId AND {PID_OF.format('r.globalTid')} = "
            f"{PID_OF.format('k.globalPid')} "
            "LEFT JOIN StringIds d ON d.id = k.demangledName "
            "LEFT JOIN StringIds s ON s.id = k.shortName").fetchall()

    def _attribute(self, launches):
        """Counts each launch in the step range of its thread that holds its start."""
        by_thread = collections.defaultdict(list)
        for s in self.steps:
            by_thread[s[0]].append(s)
        starts = {t: [s[2] for s in steps] for t, steps in by_thread.items()}
        for gtid, start, name, short in launches:
            steps = by_thread.get(gtid)
            if not steps:
                continue
            k = bisect.bisect_right(starts[gtid], start) - 1
            if k >= 0 and (steps[k][3] is None or start <= steps[k][3]):
                steps[k][4][name] += 1
                self.short[name] = short or name


def not_steady(trace, label):
    """The verdict when a step launched other kernels than its thread's other
    steps (the most common pattern is the norm), or None."""
    threads = collections.defaultdict(list)
    for gtid, index, _, _, names in trace.steps:
        threads[gtid].append((index, names))
    problems = []
    for gtid in sorted(threads):
        patterns = collections.defaultdict(list)
        for index, names in threads[gtid]:
            patterns[frozenset(names.items())].append(index)
        if len(patterns) < 2:
            continue
        norm = max(patterns, key=lambda p: (len(patterns[p]), -min(patterns[p])))
        norm_names = collections.Counter(dict(norm))
        norm_count = sum(norm_names.values())
        parts = []
        for pattern in sorted((p for p in patterns if p != norm), key=lambda p: min(patterns[p])):
            names = collections.Counter(dict(pattern))
            count = sum(names.values())
            each = " each" if len(patterns[pattern]) > 1 else ""
            part = f"{label}#{spans(patterns[pattern])} launched {commas(count)} kernels{each}"
            if count == norm_count:
                part += f" ({name_difference(names, norm_names, trace.short)})"
            parts.append(part)
        which = "steps" if len(patterns[norm]) > 1 else "step"
        thread = f"thread {gtid % TID_MODULUS}: " if len(threads) > 1 else ""
        problems.append(f"{thread}{', '.join(parts)}, {which} {and_list(patterns[norm])} "
                        f"launched {commas(norm_count)}")
    if not problems:
        return None
    return "; ".join(problems) + ": not steady state (eval? checkpoint?)"


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
              "pids": None, "step_kernels": None}

    def verdict(problem, text):
        result.update(ok=problem is None, problem=problem, verdict=text)
        return result

    if not os.path.isfile(report):
        return verdict("missing", "no such report")
    size = os.path.getsize(report)
    result["bytes"] = size
    if size >= MAX_BYTES:
        return verdict("never_closed", f"report is {human(size)}: the window never closed (nsys "
                       "recorded until the program ended; is the loop shorter than the window, or "
                       "nsys run without -c cudaProfilerApi / -c nvtx?)")
    db, error = export(report)
    if error:
        return verdict("export_failed", f"nsys export failed: {error}")
    trace = Trace(db, label)
    indexes = sorted({s[1] for s in trace.steps})
    result.update(kernels=trace.kernels, threads=trace.windows, steps=indexes,
                  pids=sorted(trace.pids),
                  step_kernels=[{"step": i, "thread": t % TID_MODULUS, "kernels": sum(n.values()),
                                 "names": dict(sorted(n.items()))}
                                for t, i, _, _, n in trace.steps])
    found = f"{len(indexes)} steps ({label}#{spans(indexes)})"
    tail = f"{commas(trace.kernels)} kernels, {human(size)}"
    if trace.kernels == 0:
        return verdict("no_kernels", "no kernels captured: the window closed before any GPU work "
                       f"(or nsys ran without -t cuda); {human(size)}")
    if not indexes and os.environ.get("CAPTURE_WINDOW_STEPS") == "off" and trace.windows > 0:
        return verdict(None, f"ok: window {label} (CAPTURE_WINDOW_STEPS=off: no {label}#i ranges), {tail}")
    if not indexes:
        return verdict("no_ranges", f"no {label}#i ranges: was the program built with the "
                       f"capture-window plugin, nsys run with -t nvtx, and is the loop's label "
                       f"'{label}' (--label)? {tail}")
    extra = ""
    if expect:
        start, count = expect
        start = indexes[0] if start is None else start
        want = range(start, start + count)
        outside = [i for i in indexes if i not in want]
        if len(indexes) - len(outside) != count or (outside and trace.windows <= 1):
            return verdict("other_steps", f"found {found}, expected {count} ({label}#{spans(want)})")
        if outside:   # another thread's window held the profiler on after this one closed
            extra = f" (also {label}#{spans(outside)} of threads whose window closed first)"
        found = f"{count} steps ({label}#{spans(want)})"
    elif "," in spans(indexes):
        return verdict("several_windows", f"found {found}: several windows in one report "
                       "(use --capture-range-end=repeat for a report per window)")
    unsteady = not_steady(trace, label)
    if unsteady:
        return verdict("not_steady", unsteady)
    threads = f" in {trace.windows} threads" if trace.windows > 1 else ""
    return verdict(None, f"ok: {found}{threads}, {tail}{extra}")


def rank_of(reports):
    """A process's reports NAME.R.nsys-rep (NAME.R.W.nsys-rep: repeat windows)
    -> R, or the reports' NAME when it holds no rank."""
    stem = reports[0][: -len(".nsys-rep")]
    if len(reports) > 1:
        stem = re.sub(r"\.[0-9]+$", "", stem)
    m = re.search(r"\.([0-9]+)$", stem)
    return int(m.group(1)) if m else os.path.basename(stem)


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
        if r["pids"]:
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
    results = [check_report(r, label, expect) for r in reports]
    ranks = compare_ranks(results, label)
    for r in results:
        print(json.dumps(r) if as_json else f"{r['report']}: {r['verdict']}")
    if ranks:
        print(json.dumps(ranks[1]) if as_json else "\n".join(ranks[0]))
    return 0 if all(r["ok"] for r in results) and (not ranks or ranks[1]["same_steps"]) else 1
