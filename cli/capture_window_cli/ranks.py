"""ranks.py - check of several processes' reports (ranks): which steps
each captured, and whether they all captured the same; with NCCL kernels
in them, which rank the others waited for (straggler.py).

API (check and diff use it; keep it stable):
  compare_ranks(results, label) -> RankComparison, or None for fewer than
      two processes; RESULTS: check's result objects (report, pids, steps)
  RankComparison.ranks [Rank(rank, pid, reports, steps)], .groups
      {steps captured: [rank]} in rank order, .same_steps, .nccl
      (straggler.NcclWaits) or None
  rank_lines(comparison, label), rank_json(comparison, label): the edge
  rank_of(reports), who(ranks): a process's rank and ranks in words
"""
import collections
import os
import re
from dataclasses import asdict, dataclass

from .common import ME, and_list, spans
from .export import sqlite_of
from .straggler import nccl_json, nccl_lines, nccl_waits


@dataclass
class Rank:
    rank: object       # its number, or its reports' NAME when they hold none
    pid: int
    reports: list
    steps: list        # the steps its reports hold, sorted


@dataclass
class RankComparison:
    ranks: list        # [Rank], in the order of their first report
    groups: dict       # {tuple of steps: [rank]}: ranks that captured the same steps
    nccl: object       # straggler.NcclWaits, or None

    @property
    def same_steps(self):
        return len(self.groups) == 1


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
    """With the reports of several processes, which steps each captured:
    a RankComparison, or None."""
    processes = collections.OrderedDict()
    for r in results:
        if r.get("pids"):
            processes.setdefault(min(r["pids"]), []).append(r)
    if len(processes) < 2:
        return None
    ranks = [Rank(rank_of([r["report"] for r in rs]), pid, [r["report"] for r in rs],
                  sorted({i for r in rs for i in r["steps"]}))
             for pid, rs in processes.items()]
    groups = collections.OrderedDict()
    for r in ranks:
        groups.setdefault(tuple(r.steps), []).append(r.rank)
    # which rank the others waited for at the collectives
    waits = nccl_waits([(r.rank, [sqlite_of(p) for p in r.reports]) for r in ranks], label)
    return RankComparison(ranks, groups, waits)


def verdict(c, label):
    """Whether every rank captured the same steps, in words."""
    if c.same_steps:
        return f"all {len(c.ranks)} ranks captured the same steps ({label}#{spans(c.ranks[0].steps)})"
    norm = max(c.groups, key=lambda g: len(c.groups[g]))
    odd = [f"{who(c.groups[g])} captured {label}#{spans(g)}" for g in c.groups if g != norm]
    return (f"ranks differ: {', '.join(odd)}, {who(c.groups[norm])} {label}#{spans(norm)} "
            "(windows opened by a signal? set CAPTURE_WINDOW_ALIGN)")


def rank_lines(c, label):
    """A line per process, the verdict, and the NCCL waits' lines."""
    lines = [f"{ME}: {who([r.rank])} ({', '.join(r.reports)}): {label}#{spans(r.steps)}"
             for r in c.ranks]
    lines.append(f"{ME}: {verdict(c, label)}")
    return lines + (nccl_lines(c.nccl, label, who) if c.nccl else [])


def rank_json(c, label):
    """The --json object of the ranks."""
    found = {"ranks": [asdict(r) for r in c.ranks], "same_steps": c.same_steps,
             "verdict": verdict(c, label)}
    if c.nccl:
        found["nccl"] = nccl_json(c.nccl, label, who)
    return found
