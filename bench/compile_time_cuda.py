#!/usr/bin/env python3
"""compile_time_cuda.py - what the GCC plugin adds to an nvcc build whose
training loop is marked (contract section 5: the unit's real loops).

Compiles a CUDA source (default samples/train_cuda.cu, whose training loop
carries `#pragma capture_window(30, 3)`) with `nvcc -O2 -c` two ways:

  plain   without the plugin (the pragma is an unknown one, ignored)
  marked  -Xcompiler -fplugin=capture_window.so: the plugin is loaded into
          every gcc that nvcc runs (the preprocessing passes and the host
          compilation) and instruments the loop

and prints, for each, the instructions of the whole build (valgrind's
callgrind, following nvcc into every child: cicc, ptxas, cudafe++, gcc,
cc1plus...) and the median wall and CPU seconds of --rounds interleaved
builds, with their ratios to plain.

  bench/compile_time_cuda.py --plugin build/plugin/gcc/capture_window.so [--rounds 5]
"""
import argparse
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


def nvcc_command(a, variant, out):
    cmd = [a.nvcc, "-O2", "-c", f"-arch={a.arch}", str(a.source), "-o", str(out)]
    if variant == "marked":
        return cmd + ["-Xcompiler", f"-fplugin={a.plugin}"]
    return cmd + ["-Xcompiler", "-Wno-unknown-pragmas"]


def instructions(cmd, work):
    """Instructions of the command and all its children (callgrind)."""
    p = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes",
                        f"--callgrind-out-file={work}/cg.%p"] + cmd,
                       capture_output=True, text=True, cwd=work)
    counts = [int(n) for n in re.findall(r"Collected : (\d+)", p.stderr)]
    if p.returncode or not counts:
        sys.exit(f"build under callgrind failed:\n{p.stderr[-3000:]}")
    return sum(counts), len(counts)


def timed(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--source", type=pathlib.Path, default=HERE.parent / "samples" / "train_cuda.cu")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-callgrind", action="store_true")
    a = ap.parse_args()
    a.plugin = str(pathlib.Path(a.plugin).resolve())
    variants = ("plain", "marked")
    with tempfile.TemporaryDirectory(prefix="cw-nvcc-") as tmp:
        work = pathlib.Path(tmp)
        counts = {}
        if not a.no_callgrind:
            for v in variants:
                counts[v] = instructions(nvcc_command(a, v, work / f"{v}.o"), work)
                print(f"{v}: {counts[v][0]:,} instructions in {counts[v][1]} processes",
                      file=sys.stderr)
        times = {v: [] for v in variants}
        for r in range(a.rounds):
            for v in variants[r % 2:] + variants[:r % 2]:
                times[v].append(timed(nvcc_command(a, v, work / f"{v}.o")))
    print(f"nvcc -O2 -c {a.source.name}, {a.rounds} interleaved rounds")
    print("| variant | instructions | ratio | median wall s | median CPU s | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    base_cpu = statistics.median(t[1] for t in times["plain"])
    for v in variants:
        n = f"{counts[v][0] / 1e9:.3f} G | {counts[v][0] / counts['plain'][0]:.4f}" \
            if counts else "- | -"
        wall = statistics.median(t[0] for t in times[v])
        cpu = statistics.median(t[1] for t in times[v])
        print(f"| {v} | {n} | {wall:.2f} | {cpu:.2f} | {cpu / base_cpu:.3f} |")


if __name__ == "__main__":
    main()
