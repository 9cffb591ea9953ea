#!/usr/bin/env python3
"""doors_test.py - every argument the manual documents for a front door is
accepted by it and does what the manual says.

The documented arguments are read from the manual itself:

    GCC plugin    docs/pragma.md, section "Plugin options"
    Clang plugin  docs/clang.md, section "Command lines"
    rewriter      docs/rewrite.md, section "Use" (its usage line and the
                  -fplugin-arg-capture_window-* it names)

(docs/zero-edit.md's table names loop=SPEC for all three, and --loop for
the rewriter: each is in the sections above too.)  ROWS below holds, per
front door and argument, what the manual says it does, checked on a real
compilation of SOURCE: the exit status and lines stderr must hold (the
verbose notes, an error text), or what the rewriter writes.  A documented
argument without a row fails, and so does a row whose argument the manual
does not document: the table and the manual move together.  An unknown argument's error lists
exactly the plugin arguments the manual documents for that door.

Usage: doors_test.py --source-dir DIR [--gcc-plugin SO --cc CC]
                     [--clang-plugin SO --clang CLANG] [--rewriter EXE]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

SOURCE = """\
int f(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
#pragma capture_window(1, 2, "mine")
  while (s > 0) s--;
  return s;
}
"""
ARG = "-fplugin-arg-capture_window-"
MINE = "while loop at t.c:5 in 'f' instrumented, label \"mine\", window 1:2"


def note(kind, line, label, window):
    return f"{kind} loop at t.c:{line} in 'f' instrumented, label \"{label}\", window {window}"


# (front door, argument as documented, arguments given, exit status, texts
# stderr must contain (the front doors note loops in different orders);
# "OUT:" lines are checked in the rewriter's
# output file instead, "!TEXT" must not appear).
PLUGIN_ROWS = [
    ("verbose", ["verbose"], 0, [MINE]),
    ("portable", ["portable", "verbose"], 0, [MINE]),
    ("loop", ["verbose", "loop=t.c:3:4:2:lp"], 0, [note("for", 3, "lp", "4:2"), MINE]),
    ("loop-optional", ["loop-optional=t.c:99"], 0, ["!error"]),
    ("all-loops", ["verbose", "all-loops"], 0, [note("for", 3, "f.3", "0:1"), MINE]),
    ("all-loops", ["verbose", "all-loops=2:3"], 0, [note("for", 3, "f.3", "2:3"), MINE]),
    # "loops with a pragma keep its arguments", and so do a spec's, once.
    ("all-loops", ["verbose", "all-loops", "loop=t.c:3:4:2:lp"], 0,
     [note("for", 3, "lp", "4:2"), '!label "f.3"', MINE]),
]
ROWS = [(door,) + row for door in ("gcc", "clang") for row in PLUGIN_ROWS] + [
    ("rewrite", "-o", ["-o", "OUT"], 0, ["OUT:cw_loop_enter_v2(&__cw_site_0)"]),
    ("rewrite", "-v", ["-v"], 0, [MINE]),
    ("rewrite", "--verbose", ["--verbose"], 0, [MINE]),
    ("rewrite", "--loop", ["-v", "--loop", "t.c:3:4:2:lp"], 0, [note("for", 3, "lp", "4:2")]),
    ("rewrite", ARG + "verbose", ["--", ARG + "verbose"], 0, [MINE]),
    ("rewrite", ARG + "portable", ["-v", "--", ARG + "portable"], 0, [MINE]),
    ("rewrite", ARG + "loop", ["-v", "--", ARG + "loop=t.c:3:4:2:lp"], 0,
     [note("for", 3, "lp", "4:2")]),
    ("rewrite", ARG + "loop-optional", ["--", ARG + "loop-optional=t.c:99"], 0, ["!error"]),
    ("rewrite", ARG + "all-loops", ["-v", "--", ARG + "all-loops=2:3"], 0,
     [note("for", 3, "f.3", "2:3"), MINE]),
]
# What a row needs to be meaningful: a contrast showing the argument did
# something (without loop-optional, the same spec is an error).
CONTRASTS = [
    ("gcc", ["loop=t.c:99"], 1, ["matches no loop in this unit"]),
    ("clang", ["loop=t.c:99"], 1, ["matches no loop in this unit"]),
    ("rewrite", ["--", ARG + "loop=t.c:99"], 1, ["matches no loop in this unit"]),
]


def section(path, title):
    text = open(path).read()
    m = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        raise SystemExit(f"{path}: no section '## {title}'")
    return m.group(1)


def documented(docs):
    """{door: set of documented arguments}, read from the manual."""
    plugin = re.compile(re.escape(ARG) + r"([a-z][a-z-]*)")
    out = {
        "gcc": set(plugin.findall(section(os.path.join(docs, "pragma.md"), "Plugin options"))),
        "clang": set(plugin.findall(section(os.path.join(docs, "clang.md"), "Command lines"))),
    }
    use = section(os.path.join(docs, "rewrite.md"), "Use")
    usage = next(l for l in use.splitlines() if l.startswith("capture-window-rewrite "))
    out["rewrite"] = (set(re.findall(r"\[(--?[a-z]+)", usage))
                      | set(re.findall(r"`(--[a-z]+)`", use))
                      | {ARG + name for name in plugin.findall(use)})
    return out


def run(door, args, tools, work):
    src = os.path.join(work, "t.c")
    with open(src, "w") as f:
        f.write(SOURCE)
    out = os.path.join(work, "out.c")
    if door == "rewrite":
        cmd = [tools["rewrite"]] + [out if a == "OUT" else a for a in args]
        if "--" in cmd:
            cmd[cmd.index("--"):cmd.index("--")] = ["t.c"]
        else:
            cmd.append("t.c")
    else:
        cmd = [tools[door + "_cc"], "-fplugin=" + tools[door], "-c", "t.c", "-o", "t.o"]
        cmd += [ARG + a for a in args]
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr, open(out).read() if os.path.exists(out) else ""


def check(name, door, args, status, wanted, tools, work):
    rc, err, written = run(door, args, tools, work)
    problems = [] if rc == status else [f"exit status {rc}, expected {status}"]
    for w in wanted:
        if w.startswith("!"):
            if w[1:] in err:
                problems.append(f"stderr holds {w[1:]!r}")
        elif w.startswith("OUT:"):
            if w[4:] not in written:
                problems.append(f"the copy lacks {w[4:]!r}")
        elif w not in err:
            problems.append(f"stderr lacks {w!r}")
    print(("FAIL: " if problems else "PASS: ") + name + "".join("\n  " + p for p in problems)
          + (f"\n  stderr:\n{err}" if problems else ""))
    return not problems


def listed_arguments(door, documented_args, tools, work):
    """The unknown-argument error lists exactly the plugin arguments the
    manual documents for DOOR (one table in plugin/common/cw_args.c)."""
    args = ["--", ARG + "bogus"] if door == "rewrite" else ["bogus"]
    rc, err, _ = run(door, args, tools, work)
    m = re.search(r"unknown argument '" + re.escape(ARG) + r"bogus' for plugin "
                  r"capture_window \(the arguments are (.*)\)$", err, re.M)
    listed = set(re.findall(re.escape(ARG) + r"([a-z][a-z-]*)", m.group(1))) if m else None
    want = {a[len(ARG):] if a.startswith(ARG) else a for a in documented_args
            if door != "rewrite" or a.startswith(ARG)}
    ok = rc == 1 and listed == want
    print(("PASS: " if ok else "FAIL: ") + f"{door} unknown argument lists {sorted(want)}"
          + ("" if ok else f"\n  exit status {rc}, listed {listed}\n  stderr:\n{err}"))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--gcc-plugin")
    ap.add_argument("--cc")
    ap.add_argument("--clang-plugin")
    ap.add_argument("--clang")
    ap.add_argument("--rewriter")
    a = ap.parse_args()
    tools = {"gcc": a.gcc_plugin, "gcc_cc": a.cc, "clang": a.clang_plugin,
             "clang_cc": a.clang, "rewrite": a.rewriter}
    doors = [d for d in ("gcc", "clang", "rewrite") if tools[d]]
    docs = documented(os.path.join(a.source_dir, "docs"))
    ok = True
    for door in doors:
        rows = {arg for d, arg, *_ in ROWS if d == door}
        for arg in sorted(docs[door] - rows):
            print(f"FAIL: {door}: '{arg}' is documented but the table has no row for it")
            ok = False
        for arg in sorted(rows - docs[door]):
            print(f"FAIL: {door}: the table has '{arg}', which the manual does not document")
            ok = False
    with tempfile.TemporaryDirectory(prefix="cw-doors-") as work:
        for door, arg, args, status, wanted in ROWS:
            if door in doors:
                ok &= check(f"{door} {arg}: {' '.join(args)}", door, args, status, wanted, tools, work)
        for door, args, status, wanted in CONTRASTS:
            if door in doors:
                ok &= check(f"{door} (contrast) {' '.join(args)}", door, args, status, wanted,
                            tools, work)
        for door in doors:
            ok &= listed_arguments(door, docs[door], tools, work)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
