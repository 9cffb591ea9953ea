#!/usr/bin/env python3
"""defaults_test.py - docs/environment.md's table of variables says what
the runtime's own table (runtime/options.c) says.

The runtime is asked, not read: samples/train_cpu runs with only
CAPTURE_WINDOW_VERBOSE=1 set, and its settings line names every variable
with its default (`by default: NAME=VALUE`) or, for a variable with no
value, what decides instead (`unset: NAME (MEANING)`). The page's table
must list the same variables; a default VALUE must be
the table's default (`VALUE`), and a MEANING must begin it.
CAPTURE_WINDOW_VERBOSE's own default (0) is set here, so the line cannot
show it: every quiet test's empty stderr is what checks it.

Usage: defaults_test.py SOURCE BUILD
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import settings_line  # noqa: E402

ROW = re.compile(r"^\| `(CAPTURE_WINDOW[A-Z_]*)` \|.*\| (.*) \|$")
ITEM = re.compile(r"^(CAPTURE_WINDOW[A-Z_]*)(?:=(.*?))?(?: \((.*)\))?$")


def table(page):
    """[(name, default)] of the page's first table of variables."""
    rows = []
    with open(page) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if m:
                rows.append((m.group(1), m.group(2)))
            elif rows:
                return rows
    return rows


def settings(build):
    """{group: [(name, value, meaning)]} of the settings line of a run
    with only CAPTURE_WINDOW_VERBOSE=1 set."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CAPTURE_WINDOW", "NVTX_")) and k not in
           ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")}
    env.update(CAPTURE_WINDOW_VERBOSE="1", LD_LIBRARY_PATH=os.path.join(build, "runtime"))
    p = subprocess.run([os.path.join(build, "samples", "train_cpu"), "1"], env=env,
                       capture_output=True, text=True, timeout=60)
    shown, _ = settings_line.split(p.stderr.splitlines())
    if len(shown) != 1:
        raise SystemExit("FAIL: no one settings line in:\n" + p.stderr)
    groups = {}
    for group in shown[0][len(settings_line.PREFIX):].split("; "):
        label, items = group.split(": ", 1)
        groups[label] = [ITEM.match(item).groups() for item in items.split(", ")]
    return groups


def main():
    source, build = sys.argv[1:3]
    rows = table(os.path.join(source, "docs", "environment.md"))
    groups = settings(build)
    problems = []
    shown = sorted(name for items in groups.values() for name, _, _ in items)
    if sorted(name for name, _ in rows) != shown:
        problems.append("the page lists %s; the runtime %s" % (sorted(n for n, _ in rows), shown))
    documented = dict(rows)
    for name, value, _ in groups.get("by default", []):
        if documented.get(name) != "`%s`" % value:
            problems.append("%s: the page's default is %r, the runtime's `%s`"
                            % (name, documented.get(name), value))
    for name, _, meaning in groups.get("unset", []):
        if meaning and not documented.get(name, "").startswith(meaning):
            problems.append("%s: the page's default %r does not begin with the runtime's %r"
                            % (name, documented.get(name), meaning))
    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("ok: %d variables, %d defaults and %d meanings as the runtime says" % (
            len(rows), len(groups.get("by default", [])),
            sum(1 for _, _, m in groups.get("unset", []) if m)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
