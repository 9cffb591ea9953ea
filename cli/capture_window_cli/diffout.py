"""diffout.py - diff's findings written: text and JSON, from the same
dataclasses (diffsteps.StepsDiff for step-time files, diffreports.ReportsDiff
for reports). Changes are fractions in JSON (0.05: 5 % slower), percents
in the text; durations by the one unit rule (common.duration).
"""
from .common import duration, plural, spans

def pct(x):
    return f"{round(100 * x, 1) + 0.0:+.1f}%"   # + 0.0: no "-0.0%"


def steady_words(c):
    if c is None:
        return "no steady step on a side: nothing to compare"
    return (f"{duration(c.base_ns)} -> {duration(c.new_ns)}, {pct(c.change)} "
            f"(95% interval {pct(c.low)} to {pct(c.high)}): {c.verdict}")


# ---- step-time files -------------------------------------------------------

def event_words(e):
    before = duration(e.base_ns) if e.base_ns is not None else "none"
    after = duration(e.new_ns) if e.new_ns is not None else "none"
    return f"every {e.every}: {before} -> {after}"


def runs(n_series, steps):
    return f"{plural(steps, 'step')}" + (f" in {n_series} series" if n_series > 1 else "")


def steps_text(found):
    blocks = []
    for d in found.loops:
        moved = f" -> {d.new_place}" if d.new_place != d.place else ""
        lines = [f"loop '{d.label}' ({d.place}{moved}): {runs(d.series[0], d.steps[0])} -> "
                 f"{runs(d.series[1], d.steps[1])}",
                 f"  steady step: {steady_words(d.steady)}",
                 f"  warm-up: {plural(d.warmup[0], 'step')} -> {plural(d.warmup[1], 'step')}"]
        lines += [f"  {event_words(e)}" for e in d.events]
        blocks.append("\n".join(lines))
    for what, loops in (("base", found.only_base), ("new", found.only_new)):
        blocks += [f"loop '{label}' ({place}): in the {what} run only" for label, place in loops]
    return "\n\n".join(blocks)


def steady_json(c):
    """A change.Change as JSON: the medians in ms, fractions, the verdict."""
    if c is None:
        return None
    return {"base_ms": c.base_ns / 1e6, "new_ms": c.new_ns / 1e6, "change": round(c.change, 6),
            "low": round(c.low, 6), "high": round(c.high, 6), "verdict": c.verdict,
            "steps": list(c.steps), "block": list(c.block)}


def steps_json(found, base_files, new_files):
    loops = [{"label": d.label, "place": d.place, "new_place": d.new_place,
              "series": list(d.series), "steps": list(d.steps),
              "warmup": {"base": d.warmup[0], "new": d.warmup[1]},
              "steady": steady_json(d.steady),
              "periodic": [{"every": e.every,
                            "base_ms": None if e.base_ns is None else e.base_ns / 1e6,
                            "new_ms": None if e.new_ns is None else e.new_ns / 1e6}
                           for e in d.events]}
             for d in found.loops]
    return {"base": base_files, "new": new_files,
            "steady": loops[0]["steady"] if loops else None, "loops": loops,
            "only_base": [{"label": l, "place": p} for l, p in found.only_base],
            "only_new": [{"label": l, "place": p} for l, p in found.only_new]}


# ---- reports ----------------------------------------------------------------

def name_words(d):
    """'gemm: 256 us -> 307 us a step (128 -> 128), each +20.0% (95% interval
    +19.8% to +20.2%): slower, flagged: ...'."""
    if d.change is None:
        side, count, ns = (("base", d.base_count, d.base_step_ns) if d.new_count is None else
                           ("new", d.new_count, d.new_step_ns))
        return f"{d.short}: in the {side} run only ({count:g} a step, {duration(ns)} a step)"
    c = d.change
    flag = ": flagged, slower while the steps' kernels stayed the same" if d.flagged else ""
    return (f"{d.short}: {duration(d.base_step_ns)} -> {duration(d.new_step_ns)} a step "
            f"({d.base_count:g} -> {d.new_count:g} a step), each {pct(c.change)} "
            f"(95% interval {pct(c.low)} to {pct(c.high)}): {c.verdict}{flag}")


def reports_text(found):
    b, n = found.steps
    how = "step k against step k" if found.aligned else "the steady steps pooled"
    # a side of several reports (ranks, runs) says how many it pooled
    of = [f" of {count} reports" if count > 1 else "" for count in found.reports]
    lines = [f"loop '{found.label}': {plural(len(b), 'step')} ({spans(b)}){of[0]} -> "
             f"{plural(len(n), 'step')} ({spans(n)}){of[1]}: {how}",
             f"  step: {steady_words(found.step)}",
             "  kernels, by the time a step they gained or lost"
             + (" (the steps' kernels alike on both sides):" if found.same_kernels else ":")]
    lines += [f"    {name_words(d)}" for d in found.kernels] or ["    none"]
    for title, names in (("the program's own ranges", found.ranges),
                         ("memory copies, memsets and GPU idle time", found.gpu)):
        if names:
            lines.append(f"  {title}:")
            lines += [f"    {name_words(d)}" for d in names]
    return "\n".join(lines)


def name_json(d):
    c = d.change
    return {"name": d.name, "base_ns": d.base_ns, "new_ns": d.new_ns,
            "change": c and round(c.change, 6), "low": c and round(c.low, 6),
            "high": c and round(c.high, 6), "verdict": c and c.verdict, "flagged": d.flagged,
            "base_count": d.base_count, "new_count": d.new_count,
            "base_step_ns": d.base_step_ns, "new_step_ns": d.new_step_ns}


def reports_json(found, base_files, new_files):
    return {"base": base_files, "new": new_files, "label": found.label,
            "steps": {"base": found.steps[0], "new": found.steps[1], "aligned": found.aligned},
            "steady": steady_json(found.step), "same_kernels": found.same_kernels,
            "kernels": [name_json(d) for d in found.kernels],
            "ranges": [name_json(d) for d in found.ranges],
            "gpu": [name_json(d) for d in found.gpu]}
