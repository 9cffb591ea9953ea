"""check.py - the `check` verb: one verdict per report, from what the
report's SQLite export holds (trace.py) and the step analyses (steps.py);
the ranks compared when the reports are several processes' (ranks.py).

API (profile, profile --auto and diff use it; keep it stable):
  check(report, label, expect) -> (result, findings): result is the --json
      object (ok, problem, verdict and what was read); findings the
      steps.Findings the verdict was made from, or None when the report
      was judged before its steps were analysed
  check_report(report, label, expect) -> result
EXPECT: (start or None, count), a list of them (the planned windows: the
one nearest the report's first step), or None (the recorded window).
"""
import collections
import json
import os

from .common import ME, BadArguments, commas, plural, human, spans, option_value, problem
from .export import export
from .ncu import check_ncu_report
from .ranks import compare_ranks, rank_json, rank_lines
from .recorded import nearest_window, recorded_window
from .runtime import parse_expect
from .steps import (analyse, host_phrases, names_own_ranges, odd_json, odd_phrases, slower_json,
                    slower_phrases)
from .trace import Trace, tid_of

MAX_BYTES = 1_000_000_000   # a window report larger than this never closed


def check_report(report, label, expect):
    """The verdict on one report: the --json object."""
    return check(report, label, expect)[0]


def check(report, label, expect):
    """The verdict on one report: (a dict with ok, problem, verdict and what
    was read: the --json object, the step analyses' findings or None)."""
    result = {"report": report, "ok": False, "problem": None, "verdict": None, "bytes": None,
              "label": label, "kernels": None, "threads": None, "steps": None,
              "pids": None, "purpose": None, "step_kernels": None, "graph_launches": None,
              "host_work": None, "odd_kernels": None, "slower_kernels": None, "window": None,
              "recorded": None}

    findings = None

    def verdict(name, text):
        result.update(ok=name is None, problem=name, verdict=text)
        return result, findings

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
                  step_kernels=[{"step": s.index, "thread": tid_of(s.gtid),
                                 "kernels": s.kernel_count(), "names": dict(sorted(s.names.items())),
                                 "ranges": own_range_kernels(s), "took_ns": s.took(),
                                 "graphs": s.graph_count()} for s in trace.steps],
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
    findings = analyse(trace)
    result["host_work"] = [h.to_json() for h in findings.host] or None
    result["odd_kernels"] = odd_json(findings) or None
    result["slower_kernels"] = slower_json(findings) or None
    return verdict(*judge(trace, findings, label, f"{found}{threads}", f"{tail}{extra}"))


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


def judge(trace, findings, label, found, tail):
    """Whether the window's steps are what it was for: (problem, verdict).
    A window meant for steady state must hold steps alike; one aimed at an
    event every N steps (the runtime's mark) must hold the step that differs:
    by its work, or, doing the same work, by its time (host work)."""
    odd = odd_phrases(findings, label) + slower_phrases(findings, label)
    if trace.aimed:
        aim = f"aimed at every {trace.aimed[0]} steps"
        if odd:
            return None, f"ok: {found}, {aim}: {'; '.join(odd)}; {tail}"
        if findings.host:
            return None, f"ok: {found}, {aim}: {'; '.join(host_phrases(findings, label))}; {tail}"
        return problem("missed_event", found=found, aim=aim, tail=tail)
    if odd:
        plain = names_own_ranges(findings) or not findings.odd   # a kernel slower: no guess
        return problem("not_steady", odd="; ".join(odd), why="" if plain else " (eval? checkpoint?)")
    return None, f"ok: {found}, {tail}"


def own_range_kernels(step):
    """{range name: kernels launched in it} over a step's own ranges (--json)."""
    out = collections.Counter()
    for start, end, text in step.ranges:
        out[text] += step.kernels_in(start, end)
    return dict(sorted(out.items()))


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
            raise BadArguments(f"{ME}: check: unknown option '{a}'")
    reports = args[i:]
    if not reports:
        raise BadArguments()
    expect = parse_expect(expect) if expect else None
    results = [check_ncu_report(r, label, expect) if r.endswith(".ncu-rep") else
               check_report(r, label, expect) for r in reports]
    ranks = compare_ranks(results, label)
    for r in results:
        print(json.dumps(r) if as_json else f"{r['report']}: {r['verdict']}")
    if ranks:
        print(json.dumps(rank_json(ranks, label)) if as_json else "\n".join(rank_lines(ranks, label)))
    return 0 if all(r["ok"] for r in results) and (not ranks or ranks.same_steps) else 1
