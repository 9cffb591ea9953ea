"""recorded.py - the CAPTURE_WINDOW* variables a report was recorded with.
nsys keeps the profiled program's environment in the export's
META_DATA_CAPTURE table: rows named PROCESS_<k>:ENVIRONMENT_VARIABLE whose
value is NAME="VALUE" (nsys 2025.3.1 on the H200, docs/verification.md).
check judges a report by them, not by its own environment."""
import re
import sqlite3

from .runtime import AT_START, BY_AUTO, windows

VARIABLE = re.compile(r'(CAPTURE_WINDOW[A-Z0-9_]*)="(.*)"', re.S)


def recorded_variables(db):
    """{NAME: VALUE} of the CAPTURE_WINDOW* variables in the open export DB
    (the connection Trace reads); {} when it has no META_DATA_CAPTURE (an
    older nsys, a cut-down export)."""
    try:
        rows = db.execute("SELECT value FROM META_DATA_CAPTURE "
                          "WHERE name LIKE 'PROCESS_%:ENVIRONMENT_VARIABLE'").fetchall()
    except sqlite3.Error:
        rows = []
    return {m.group(1): m.group(2) for (value,) in rows for m in [VARIABLE.fullmatch(value or "")]
            if m}


def nearest_window(windows, first):
    """Of WINDOWS ((START or None, COUNT)), the one whose start is nearest
    step FIRST (START None: it starts wherever the run decides: FIRST)."""
    return min(windows, key=lambda w: abs((first if w[0] is None else w[0]) - first), default=None)


def recorded_window(variables, first):
    """The (START or None, COUNT) the recorded CAPTURE_WINDOW meant for a
    window whose first step is FIRST: of the windows it opens at set steps,
    the one that starts nearest FIRST; auto:COUNT's COUNT steps anywhere.
    None when it names no such window (unset, spike, a bad value)."""
    found = windows(variables.get("CAPTURE_WINDOW", ""),
                    "the report's recorded CAPTURE_WINDOW not checked") or []
    if len(found) == 1 and found[0].placed == BY_AUTO:
        return None, found[0].count
    near = []   # each window's occurrence nearest FIRST
    for w in found:
        if w.placed != AT_START:
            continue
        k = max(0, round((first - w.start) / w.every)) if w.every else 0
        k = min(k, w.times - 1) if w.every and w.times else k
        near.append((w.start + k * w.every, w.count))
    return nearest_window(near, first)
