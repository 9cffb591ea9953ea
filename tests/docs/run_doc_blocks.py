#!/usr/bin/env python3
"""run_doc_blocks.py - run the commands of the manual, as a reader would.

A fenced ```sh block right after a `<!-- test -->` line is run; the blocks
of one Markdown file run in order, in one scratch folder, each with
`sh -e`, so a later block sees what an earlier one built or installed.

Every block that shows output is checked or says it is not:
  <!-- output -->    right after a test block, before a ```text block: the
                     block is the output (stdout and stderr) of the test
                     block, every line, in order; `...` in a line matches
                     any text, and a line of just `...` any number of lines
                     (so a reader sees where lines were left out).
  <!-- excerpt -->   before any other block of output (```text or a block
                     with no language): shown, not run here (it needs a
                     GPU, or it is the output of a reader's own program).
--lint checks that every ```text block and every block with no language
carries one of the two, and runs nothing.

The scratch folder looks like the repository root to the commands: build/
is the build folder, samples/, annotations/, cli/, docs/ link to the
sources (python/ too), and HOME is the folder itself (so `--prefix "$HOME/cw"` installs
there). Blocks that need a GPU are not marked; tests/gpu/gpu_checks.py runs
those.

Usage: run_doc_blocks.py --source DIR --build DIR FILE.md...
       run_doc_blocks.py --lint FILE.md...
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\s*$")
CLEAN_ENV = ("CAPTURE_WINDOW", "CAPTURE_WINDOW_LOOPS", "CAPTURE_WINDOW_RANKS",
             "CAPTURE_WINDOW_TRIGGER", "CAPTURE_WINDOW_VERBOSE", "CAPTURE_WINDOW_SIGNAL",
             "CAPTURE_WINDOW_ALIGN", "CAPTURE_WINDOW_COUNT", "CAPTURE_WINDOW_STEPS", "CAPTURE_WINDOW_SELFCHECK",
             "CAPTURE_WINDOW_TIMES", "CAPTURE_WINDOW_WATCH",
             "RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
             "NVTX_INJECTION64_PATH", "PKG_CONFIG_PATH", "CMAKE_PREFIX_PATH")


def blocks(path):
    """(line, code, expected lines or None) of each marked block."""
    lines = open(path).read().splitlines()
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "<!-- test -->":
            start, code, i = i + 1, [], i + 1
            if i >= len(lines) or FENCE.match(lines[i]).group(1) != "sh":
                raise SystemExit(f"{path}:{start}: <!-- test --> is not followed by a ```sh block")
            i += 1
            while not lines[i].startswith("```"):
                code.append(lines[i])
                i += 1
            i += 1
            expected = None
            if i < len(lines) and lines[i].strip() == "<!-- output -->":
                expected, i = [], i + 2
                while not lines[i].startswith("```"):
                    expected.append(lines[i])
                    i += 1
            out.append((start, "\n".join(code) + "\n", expected))
        i += 1
    return out


def pattern_of(expected):
    """A regex for output lines as EXPECTED shows them (each line ends in \\n)."""
    return "".join("(?:.*\n)*?" if want.strip() == "..." else
                   ".*".join(map(re.escape, want.rstrip().split("..."))) + "[ \t]*\n"
                   for want in expected)


def first_difference(output, expected):
    """None if OUTPUT's lines are EXPECTED's (a line `...`: any lines), else
    the first expected line that does not fit."""
    text = "".join(line.rstrip() + "\n" for line in output.splitlines())
    if re.fullmatch(pattern_of(expected), text):
        return None
    fits = max((n for n in range(len(expected) + 1) if re.match(pattern_of(expected[:n]), text)))
    return (f"the line {expected[fits]!r} where the output has other lines" if fits < len(expected)
            else "no more lines, the output has more")


def unmarked(path):
    """FILE:LINE of each output block (```text, or no language) that is
    neither <!-- output --> nor <!-- excerpt -->."""
    lines = open(path).read().splitlines()
    out, i, fenced = [], 0, False
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if not m and not line.startswith("```"):
            continue
        if fenced:
            fenced = False
            continue
        fenced = True
        before = next((l.strip() for l in reversed(lines[:i]) if l.strip()), "")
        if m and m.group(1) in ("", "text") and before != "<!-- output -->" \
                and not before.startswith("<!-- excerpt"):
            out.append(f"{path}:{i + 1}")
    return out


def run_file(path, source, build):
    scratch = tempfile.mkdtemp(prefix="cw-docs-")
    try:
        os.symlink(build, os.path.join(scratch, "build"))
        for d in ("samples", "annotations", "cli", "docs", "scripts", "python"):
            os.symlink(os.path.join(source, d), os.path.join(scratch, d))
        env = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
        env["HOME"] = scratch
        failures = 0
        found = blocks(path)
        for line, code, expected in found:
            where = f"{os.path.relpath(path, source)}:{line}"
            p = subprocess.run(["sh", "-e", "-c", code], cwd=scratch, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=600)
            output = p.stdout
            differs = first_difference(output, expected) if expected is not None else None
            if p.returncode != 0 or differs is not None:
                failures += 1
                why = (f"exit status {p.returncode}" if p.returncode
                       else f"output differs: expected {differs}")
                print(f"FAIL: {where}: {why}\n--- block:\n{code}--- output:\n{output}")
            else:
                print(f"ok: {where}")
        return failures, len(found)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source")
    ap.add_argument("--build")
    ap.add_argument("--lint", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.lint:
        bad = [where for f in a.files for where in unmarked(f)]
        for where in bad:
            print(f"{where}: a block of output without <!-- output --> or <!-- excerpt -->")
        print(f"{len(bad)} unmarked block(s) in {len(a.files)} file(s)")
        return 1 if bad else 0
    failures = total = 0
    for f in a.files:
        n_fail, n = run_file(os.path.abspath(f), os.path.abspath(a.source),
                             os.path.abspath(a.build))
        failures, total = failures + n_fail, total + n
    print(f"{total - failures} of {total} blocks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
