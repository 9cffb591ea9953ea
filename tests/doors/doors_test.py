#!/usr/bin/env python3
"""doors_test.py - the GCC plugin's x86-64 emission (abi.h,
runtime/entry_x86_64.S) held to what the portable one does.

registers: builds SOURCE with the plugin (and --plugin-arg) and without,
  at -O2 with --flags; checks which doors the instrumented program links
  (--doors ISA: cw_iter_begin_v2_x86_64_ISA and the end door; none: the
  portable calls only), then runs both builds under the NVTX recorder,
  which overwrites every scratch register on each push and pop, and
  requires the same stdout, an empty stderr and an `L#i` range for each
  of the --iterations iterations (each one went through a door).
assembly: compiles SOURCE to assembly only (-S, for targets without a C
  library here) and checks the doors it names, as above.
backtrace: stops gdb in cw_iter_begin_v2 and requires the backtrace
  cw_iter_begin_v2, its door, --function, main: the door's CFI lets
  debuggers and sampling profilers unwind into the instrumented code.
Exit 77 (skipped) when --needs names a CPU flag this machine lacks.
"""
import argparse
import os
import re
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(a, out, plugin):
    cmd = [a.cc, "-O2", "-g", "-o", out, a.source] + a.flags
    if plugin:
        cmd += ["-fplugin=" + a.plugin, "-fchecking=1"]
        cmd += ["-fplugin-arg-capture_window-" + x for x in a.plugin_arg]
        cmd += ["-L" + a.runtime_dir, "-Wl,-rpath," + a.runtime_dir, "-lcapture_window"]
    else:
        cmd += ["-Wno-unknown-pragmas"]
    p = run(cmd)
    if p.returncode:
        sys.exit("build failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return out


def linked_doors(exe):
    undefined = run(["nm", "-u", exe]).stdout
    return sorted(set(re.findall(r"\b(cw_iter_(?:begin|end)_v2\w*)", undefined)))


def assembly_doors(a):
    out = os.path.join(a.work_dir, "marked.s")
    cmd = [a.cc, "-O2", "-S", "-o", out, a.source, "-fplugin=" + a.plugin,
           "-fchecking=1"] + a.flags
    p = run(cmd)
    if p.returncode:
        sys.exit("compile failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return sorted(set(re.findall(r"\b(cw_iter_(?:begin|end)_v2\w*)", open(out).read())))


def expected_doors(isa):
    if isa == "none":
        return ["cw_iter_begin_v2", "cw_iter_end_v2"]
    return ["cw_iter_begin_v2_x86_64_" + isa, "cw_iter_end_v2_x86_64_" + isa]


def check_registers(a, plain, marked):
    failures = []
    record = os.path.join(a.work_dir, "record.txt")
    outs = {}
    for name, exe in (("plain", plain), ("marked", marked)):
        if os.path.exists(record):
            os.remove(record)
        env = dict(os.environ, NVTX_INJECTION64_PATH=a.recorder, CW_RECORD=record,
                   CAPTURE_WINDOW_SELFCHECK="0")
        p = run([exe], env=env)
        outs[name] = p
        if name == "marked":
            events = open(record).read() if os.path.exists(record) else ""
            ranges = re.findall(r"push ascii step#(\d+)", events)
            if ranges != [str(i) for i in range(a.iterations)]:
                failures.append("iteration ranges %s, expected step#0..%d"
                                % (ranges, a.iterations - 1))
    for name, p in outs.items():
        if p.returncode or p.stderr:
            failures.append("%s: exit %d, stderr %r" % (name, p.returncode, p.stderr))
    if outs["plain"].stdout != outs["marked"].stdout:
        failures.append("stdout differs:\n--- plain\n%s--- instrumented\n%s"
                        % (outs["plain"].stdout, outs["marked"].stdout))
    return failures


def check_backtrace(a, marked):
    p = run(["gdb", "-nx", "-batch", "-ex", "set breakpoint pending on",
             "-ex", "break cw_iter_begin_v2", "-ex", "run",
             "-ex", "bt", marked])
    frames = re.findall(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(", p.stdout, re.M)
    want = ["cw_iter_begin_v2", expected_doors(a.doors)[0], a.function, "main"]
    if frames != want:
        return ["backtrace %s, expected %s\n%s%s" % (frames, want, p.stdout, p.stderr)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", choices=("registers", "assembly", "backtrace"), required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--plugin-arg", action="append", default=[])
    ap.add_argument("--runtime-dir", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--doors", required=True, choices=("sse", "avx", "avx512", "none"))
    ap.add_argument("--needs", default="")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--function", default="churn")
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    a.flags = a.flags.split()
    if a.needs and a.needs not in open("/proc/cpuinfo").read().split():
        print("skipped: this CPU has no %s" % a.needs)
        sys.exit(77)
    os.makedirs(a.work_dir, exist_ok=True)
    failures = []
    if a.check == "assembly":
        doors = assembly_doors(a)
        if doors != expected_doors(a.doors):
            failures.append("names %s, expected %s" % (doors, expected_doors(a.doors)))
        return finish(a, failures)
    marked = build(a, os.path.join(a.work_dir, "marked"), True)
    doors = linked_doors(marked)
    if doors != expected_doors(a.doors):
        failures.append("links %s, expected %s" % (doors, expected_doors(a.doors)))
    if a.check == "registers":
        plain = build(a, os.path.join(a.work_dir, "plain"), False)
        failures += check_registers(a, plain, marked)
    else:
        failures += check_backtrace(a, marked)
    finish(a, failures)


def finish(a, failures):
    for f in failures:
        print("FAIL: " + f)
    print("%s: %s" % (a.check, "FAILED" if failures else "ok"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
