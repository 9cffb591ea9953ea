#!/usr/bin/env python3
"""emission_test.py - the GCC plugin's emission under conditions the
program tests do not build: a tool that overwrites every scratch register,
a debugger's unwinder, and code generation flags of their own.

registers: builds SOURCE with the plugin and without, at -O2 with --flags,
  runs both under the NVTX recorder, which overwrites every scratch
  register (and the x87 stack, and errno) on each push and pop, and
  requires the same stdout, an empty stderr and an `L#i` range for each of
  the --iterations iterations: every value the loop keeps across the
  runtime survives it.
assembly: compiles SOURCE to assembly only (-S, for targets without a C
  library here, such as -m32 and -mx32) and requires the calls of abi.h
  (cw_loop_enter_v2, cw_iter_begin_v2, cw_iter_end_v2, cw_loop_exit_v2):
  the plugin instruments the loop instead of failing.
backtrace: stops gdb in cw_iter_begin_v2 and requires the backtrace
  cw_iter_begin_v2, --function, main: debuggers and sampling profilers
  unwind from the runtime into the instrumented code.
"""
import argparse
import os
import re
import subprocess
import sys

ABI_CALLS = ["cw_iter_begin_v2", "cw_iter_end_v2", "cw_loop_enter_v2", "cw_loop_exit_v2"]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(a, out, plugin):
    cmd = [a.cc, "-O2", "-g", "-o", out, a.source] + a.flags
    if plugin:
        cmd += ["-fplugin=" + a.plugin, "-fchecking=1"]
        cmd += ["-L" + a.runtime_dir, "-Wl,-rpath," + a.runtime_dir, "-lcapture_window"]
    else:
        cmd += ["-Wno-unknown-pragmas"]
    p = run(cmd)
    if p.returncode:
        sys.exit("build failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return out


def abi_calls(text):
    return sorted(set(re.findall(r"\b(cw_(?:iter|loop)_\w+_v2)\b", text)))


def check_assembly(a):
    out = os.path.join(a.work_dir, "marked.s")
    cmd = [a.cc, "-O2", "-S", "-o", out, a.source, "-fplugin=" + a.plugin,
           "-fchecking=1"] + a.flags
    p = run(cmd)
    if p.returncode:
        return ["compile failed: %s\n%s" % (" ".join(cmd), p.stderr)]
    calls = abi_calls(open(out).read())
    return [] if calls == ABI_CALLS else ["calls %s, expected %s" % (calls, ABI_CALLS)]


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
    want = ["cw_iter_begin_v2", a.function, "main"]
    if frames != want:
        return ["backtrace %s, expected %s\n%s%s" % (frames, want, p.stdout, p.stderr)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", choices=("registers", "assembly", "backtrace"), required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--runtime-dir", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--flags", default="")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--function", default="churn")
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()
    a.flags = a.flags.split()
    os.makedirs(a.work_dir, exist_ok=True)
    if a.check == "assembly":
        failures = check_assembly(a)
    else:
        marked = build(a, os.path.join(a.work_dir, "marked"), True)
        if a.check == "registers":
            plain = build(a, os.path.join(a.work_dir, "plain"), False)
            failures = check_registers(a, plain, marked)
        else:
            failures = check_backtrace(a, marked)
    for f in failures:
        print("FAIL: " + f)
    print("%s: %s" % (a.check, "FAILED" if failures else "ok"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
