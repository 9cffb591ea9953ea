#!/usr/bin/env python3
"""compile_time.py - what the GCC plugin adds to compile time (contract 5).

Compiles the SQLite amalgamation (sqlite3.c, ~270k lines, from the npm
package better-sqlite3@12, deps/sqlite3/) four ways, in interleaved rounds:

  plain     gcc -O2 -c sqlite3.c
  plugin    gcc -O2 -c -fplugin=capture_window.so sqlite3.c    (no pragma)
  one loop  the same on a copy whose one marked loop is the VDBE's
            dispatch loop, the loop that runs every statement, as a user
            marks a training loop (mark_all_loops.py --only)
  marked    the same on a copy with `#pragma capture_window(0,1)` before
            every loop (mark_all_loops.py)

and prints the median wall and CPU (user+sys) seconds of each and their
ratios to plain. Before timing, the marked copy is compiled once with
-fplugin-arg-capture_window-verbose and the instrumented loops are counted
against the pragmas the preprocessor keeps (those outside #if'd-out code).

  bench/compile_time.py --plugin build/plugin/gcc/capture_window.so [--rounds 5]

The package is fetched with `npm pack` into --cache (default
~/.cache/capture-window), never into the source tree.
"""
import argparse
import os
import pathlib
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import time

HERE = pathlib.Path(__file__).resolve().parent
PACKAGE = "better-sqlite3@12"


def fetch_sqlite(cache):
    """Path of sqlite3.c from the package, fetched once into cache."""
    cache.mkdir(parents=True, exist_ok=True)
    source = cache / "sqlite3.c"
    if source.exists():
        return source
    out = subprocess.run(["npm", "pack", "--silent", PACKAGE], cwd=cache,
                         check=True, capture_output=True, text=True).stdout
    tgz = cache / out.strip().splitlines()[-1]
    with tarfile.open(tgz) as tar:
        member = tar.getmember("package/deps/sqlite3/sqlite3.c")
        with tar.extractfile(member) as f:
            source.write_bytes(f.read())
    return source


# The loop sqlite3VdbeExec runs every opcode in.
DISPATCH_LOOP = r"for\(pOp=&aOp\[p->pc\]; 1; pOp\+\+\)"


def mark_loops(source, target, *only):
    n = subprocess.run([sys.executable, str(HERE / "mark_all_loops.py"), str(source),
                        str(target), *only], check=True, capture_output=True,
                       text=True).stdout
    return target, int(n)


def mark_all(source, cache):
    return mark_loops(source, cache / "sqlite3_marked.c")


def mark_one(source, cache):
    one, n = mark_loops(source, cache / "sqlite3_one.c", "--only", DISPATCH_LOOP)
    if n != 1:
        sys.exit(f"{n} loops match {DISPATCH_LOOP} in {source}, expected 1")
    return one


def check_marked(gcc, plugin, marked):
    """Every pragma the preprocessor keeps must instrument one loop."""
    kept = subprocess.run([gcc, "-E", str(marked)], check=True, capture_output=True,
                          text=True, errors="replace").stdout.count("#pragma capture_window")
    # No caret lines: GCC reads the source line of every note, slowly in a
    # file this large.
    res = subprocess.run([gcc, "-O2", "-fsyntax-only", f"-fplugin={plugin}",
                          "-fplugin-arg-capture_window-verbose",
                          "-fno-diagnostics-show-caret", str(marked)],
                         capture_output=True, text=True, errors="replace")
    if res.returncode != 0:
        sys.exit(f"marked copy does not compile:\n{res.stderr[-4000:]}")
    notes = res.stderr.count("capture_window: ")
    if notes != kept:
        sys.exit(f"{kept} pragmas reach the compiler but {notes} loops were instrumented")
    return kept


def timed(cmd):
    """(wall, user+sys CPU) seconds of one compile."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--gcc", default="gcc")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--cache", type=pathlib.Path,
                    default=pathlib.Path.home() / ".cache" / "capture-window")
    args = ap.parse_args()
    # A private copy: a rebuild of the plugin during the rounds must not
    # change what is measured. The file name stays capture_window.so.
    args.cache.mkdir(parents=True, exist_ok=True)
    plugin = str(args.cache / "capture_window.so")
    shutil.copyfile(args.plugin, plugin)

    source = fetch_sqlite(args.cache)
    marked, n_marked = mark_all(source, args.cache)
    kept = check_marked(args.gcc, plugin, marked)
    print(f"sqlite3.c: {n_marked} loops marked, {kept} in compiled code, all instrumented")
    one = mark_one(source, args.cache)

    obj = str(args.cache / "bench.o")
    variants = {
        "plain": [args.gcc, "-O2", "-c", str(source), "-o", obj],
        "plugin, no pragma": [args.gcc, "-O2", "-c", f"-fplugin={plugin}", str(source),
                              "-o", obj],
        "plugin, one loop marked": [args.gcc, "-O2", "-c", f"-fplugin={plugin}", str(one),
                                    "-o", obj],
        "plugin, every loop marked": [args.gcc, "-O2", "-c", f"-fplugin={plugin}",
                                      str(marked), "-o", obj],
    }
    times = {name: [] for name in variants}
    names = list(variants)
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:  # rotate order
            times[name].append(timed(variants[name]))
            print(f"  round {r + 1} {name}: {times[name][-1][0]:.2f} s wall, "
                  f"{times[name][-1][1]:.2f} s CPU", file=sys.stderr)

    base_wall = statistics.median(t[0] for t in times["plain"])
    base_cpu = statistics.median(t[1] for t in times["plain"])
    print(f"\nmedian of {args.rounds} interleaved rounds, gcc -O2 -c sqlite3.c")
    print(f"| {'variant':<26} | wall s | CPU s | wall ratio | CPU ratio |")
    print(f"|{'-' * 28}|-------:|------:|-----------:|----------:|")
    for name in names:
        wall = statistics.median(t[0] for t in times[name])
        cpu = statistics.median(t[1] for t in times[name])
        print(f"| {name:<26} | {wall:6.2f} | {cpu:5.2f} | {wall / base_wall:10.3f} | "
              f"{cpu / base_cpu:9.3f} |")


if __name__ == "__main__":
    main()
