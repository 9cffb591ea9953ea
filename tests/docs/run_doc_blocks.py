#!/usr/bin/env python3
"""run_doc_blocks.py - run the commands of the manual, as a reader would.

A fenced ```sh block right after a `<!-- test -->` line is run; the blocks
of one Markdown file run in order, in one scratch folder, each with
`sh -e`, so a later block sees what an earlier one built or installed. An
optional ```text block right after an `<!-- output -->` line that follows
the sh block gives lines its output (stdout and stderr) must contain, in
order; `...` in a line matches any text.

The scratch folder looks like the repository root to the commands: build/
is the build folder, samples/, annotations/, cli/, docs/ link to the
sources (python/ too), and HOME is the folder itself (so `--prefix "$HOME/cw"` installs
there). Blocks that need a GPU are not marked; tests/gpu/gpu_checks.py runs
those.

Usage: run_doc_blocks.py --source DIR --build DIR FILE.md...
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
             "CAPTURE_WINDOW_TIMES",
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


def matches(pattern, line):
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), line.rstrip()) is not None


def contains_in_order(output, expected):
    lines = output.splitlines()
    k = 0
    for want in expected:
        while k < len(lines) and not matches(want, lines[k]):
            k += 1
        if k == len(lines):
            return want
        k += 1
    return None


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
            missing = contains_in_order(output, expected) if expected else None
            if p.returncode != 0 or missing is not None:
                failures += 1
                why = (f"exit status {p.returncode}" if p.returncode
                       else f"output lacks the line {missing!r}")
                print(f"FAIL: {where}: {why}\n--- block:\n{code}--- output:\n{output}")
            else:
                print(f"ok: {where}")
        return failures, len(found)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    failures = total = 0
    for f in a.files:
        n_fail, n = run_file(os.path.abspath(f), os.path.abspath(a.source),
                             os.path.abspath(a.build))
        failures, total = failures + n_fail, total + n
    print(f"{total - failures} of {total} blocks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
