"""planranks.py - plan over several processes' step-time files (the ranks
of one job, CAPTURE_WINDOW_TIMES=steps.%r): what each file held, why one
holds no step, and per marked loop a table across the ranks, naming those
that differ.

API (plan and diff use it; keep it stable):
  across_ranks(results) -> [Across]; RESULTS: [(loop, analysis.Analysis)]
      of several files. One Across per loop (label and place) that two
      files or more hold: its rows, one per file and thread, and the rows
      that differ: a steady median SLOWER_SHARE or more off the ranks'
      median (slower, or faster), a last step before the others' (stopped
      early)
  file_lines(files), across_lines(across), across_json(across): the edge

Why a file holds no step (steptimes.FileSteps.why): the runtime writes
the header when the process starts (CAPTURE_WINDOW_TIMES opened) and its
steps every 256 steps, every second and at exit, so a file of the header
alone is a process that never completed a step of a marked loop, or
crashed or was killed (SIGKILL) before its steps were written; an empty
file was never written by the runtime.
"""
from dataclasses import dataclass

from .common import duration, plural
from .rule import median

SLOWER_SHARE = 0.05   # a rank whose steady median is 5 % off the ranks' median differs

WHY = {
    "header_only": "no steps, only the header: the process started the runtime but wrote no "
                   "step (it never completed a step of a marked loop, or it crashed or was "
                   "killed before its steps were written)",
    "no_steps": "no steps: its loops are named, but none completed a step before the process "
                "ended, crashed or was killed",
    "empty": "empty: no header, so the runtime never wrote to it (a process killed as it "
             "started, or a file of something else)",
    "not_step_times": "not a step-times file: its first line is not "
                      "'# capture-window step times VERSION'",
}


@dataclass
class Row:
    source: str         # the file
    thread: int
    iterations: int
    last: int           # its last iteration
    median_ns: int      # the steady median
    warmup_end: int     # the first steady iteration
    periods: list       # [(every, ratio)]


@dataclass
class Across:
    label: str
    place: str
    rows: list          # [Row], in the files' order
    median_ns: float    # the median of the rows' steady medians
    last: int           # the last iteration any row reached
    slower: list        # [(Row, its median over median_ns)], off by SLOWER_SHARE or more
    early: list         # [Row] that stopped before `last`


def across_ranks(results):
    loops = {}
    for loop, a in results:
        row = Row(loop["source"], loop["thread"], a.iterations, a.last, a.median_ns, a.warmup_end,
                  [(e.every, e.ratio) for e in a.periodic])
        loops.setdefault((loop["label"], loop["place"]), []).append(row)
    found = []
    for (label, place), rows in loops.items():
        if len({r.source for r in rows}) < 2:
            continue
        typical = median([r.median_ns for r in rows])
        last = max(r.last for r in rows)
        off = [(r, r.median_ns / typical) for r in rows
               if typical and abs(r.median_ns / typical - 1) >= SLOWER_SHARE]
        found.append(Across(label, place, rows, typical, last, off, [r for r in rows if r.last < last]))
    return found


# ---- the edge ---------------------------------------------------------------

def file_lines(files):
    """Each file and what it held: steps.3: 240 steps (1 loop)."""
    return [f"  {f.path}: " + (WHY[f.why] if f.why else
                               f"{plural(f.steps, 'step')} ({plural(f.loops, 'loop')})")
            for f in files]


def name(row, across):
    """A row's name: its file, and its thread when the file holds several."""
    several = sum(1 for r in across.rows if r.source == row.source) > 1
    return f"{row.source} thread {row.thread}" if several else row.source


def differ_words(across):
    words = [f"{name(r, across)} is {abs(ratio - 1) * 100:.0f}% {'slower' if ratio > 1 else 'faster'} "
             f"({duration(r.median_ns)} a step, the ranks' median {duration(across.median_ns)})"
             for r, ratio in across.slower]
    words += [f"{name(r, across)} stopped early, at step {r.last} (the others ran to {across.last})"
              for r in across.early]
    return words


def across_lines(across):
    """The table of one loop across the ranks, and which ranks differ."""
    head = ("file", "iterations", "steady median", "warm-up end", "periods")
    rows = [head] + [(name(r, across), str(r.iterations), duration(r.median_ns), str(r.warmup_end),
                      ", ".join(f"every {every} ({ratio:.1f}x)" for every, ratio in r.periods) or "none")
                     for r in across.rows]
    widths = [max(len(r[k]) for r in rows) for k in range(len(head) - 1)]
    files = len({r.source for r in across.rows})
    threads = f", {plural(len(across.rows), 'thread')}" if len(across.rows) > files else ""
    lines = [f"ranks of loop '{across.label}' ({across.place}): {plural(files, 'file')}{threads}"]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]
    differ = differ_words(across)
    lines.append("  " + ("; ".join(differ) if differ else
                         f"alike: steady medians within {SLOWER_SHARE * 100:.0f}% of "
                         f"{duration(across.median_ns)}, every rank ran to step {across.last}"))
    return lines


def across_json(across):
    return [{"label": a.label, "place": a.place, "median_ns": round(a.median_ns), "last": a.last,
             "ranks": [{"source": r.source, "thread": r.thread, "iterations": r.iterations,
                        "last": r.last, "median_ns": r.median_ns, "warmup_end": r.warmup_end,
                        "periodic": [{"every": e, "ratio": x} for e, x in r.periods]}
                       for r in a.rows],
             "slower": [{"source": r.source, "thread": r.thread, "ratio": round(x, 3)}
                        for r, x in a.slower],
             "stopped_early": [{"source": r.source, "thread": r.thread, "last": r.last}
                               for r in a.early]}
            for a in across]
