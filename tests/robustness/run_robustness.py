#!/usr/bin/env python3
"""run_robustness.py - semantic preservation on real code (issue 7).

A program is built plain and with every loop instrumented
(-fplugin-arg-capture_window-all-loops), and the builds must not be told
apart by what they print:

  fetch      (sqlite only) sqlite3.c from the npm package better-sqlite3@12,
             fetched once with `npm pack` into --cache and reused; an
             unreachable registry is a failure, never a skip
  plain      the plain build runs; its stdout and exit status are the
             reference (written to WORK/reference.out)
  all-loops  the instrumented build: stdout and exit status identical to
             the reference with no NVTX tool, with CAPTURE_WINDOW=off, and
             under the NVTX recorder, whose record must pass
             check_trace.py's invariants (balanced ranges per thread,
             iteration indexes 0, 1, 2, ... per loop and thread, window
             ranges exactly around their iterations, profiler start/stop
             paired and off at the end); stderr stays empty
  sanitize   the instrumented build with -fsanitize=address,undefined
             (no recovery): same stdout, no sanitizer report, under the
             recorder too

Usage: run_robustness.py STEP --source DRIVER.c --work DIR [--sqlite]
       [--cache DIR] --plugin capture_window.so --runtime libcapture_window.so
       --recorder libcw_nvtx_recorder.so --fakecuda-dir DIR [--args ...]
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import check_trace  # noqa: E402

PACKAGE = "better-sqlite3@12"
MEMBER = "package/deps/sqlite3/sqlite3.c"
# The window every loop gets in the all-loops build (the plugin's default).
ALL_LOOPS_WINDOW = [(0, 1)]
RESTART_RE = re.compile(r"iteration '[^']+#0', expected index \d+ ")
HEADER_RE = re.compile(r"window range '[^']+' of T\d+ directly contains push ")
SQLITE_FLAGS = ["-DSQLITE_THREADSAFE=1", "-DSQLITE_OMIT_LOAD_EXTENSION"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def sh(cmd, **kw):
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", **kw)
    print("$ %s  (%.0fs, exit %d)" % (shlex.join(cmd)[:300], time.time() - t,
                                      p.returncode))
    return p


# ---------------------------------------------------------------- sources

def fetch_sqlite(cache):
    """sqlite3.c and sqlite3.h extracted from a cached better-sqlite3 package
    (npm pack runs only when no package is cached)."""
    out_dir = os.path.join(cache, "robustness")
    source = os.path.join(out_dir, "sqlite3.c")
    if os.path.exists(source) and os.path.exists(os.path.join(out_dir, "sqlite3.h")):
        return out_dir
    os.makedirs(out_dir, exist_ok=True)
    tgzs = sorted(glob.glob(os.path.join(cache, "better-sqlite3-12.*.tgz")))
    if not tgzs:
        p = sh(["npm", "pack", "--silent", PACKAGE], cwd=cache)
        if p.returncode != 0:
            fail("npm pack %s failed (is the npm registry reachable?):\n%s"
                 % (PACKAGE, p.stdout + p.stderr))
        tgzs = [os.path.join(cache, p.stdout.strip().splitlines()[-1])]
    with tarfile.open(tgzs[-1]) as tar:
        for name in ("sqlite3.c", "sqlite3.h"):
            data = tar.extractfile("package/deps/sqlite3/" + name).read()
            tmp = os.path.join(out_dir, name + ".%d.tmp" % os.getpid())
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(out_dir, name))  # atomic for parallel runs
    print("sqlite from %s" % tgzs[-1])
    return out_dir


# ---------------------------------------------------------------- builds

def build(a, kind):
    """Build the program; kind is plain, all-loops or sanitize. Returns the
    executable's path."""
    exe = os.path.join(a.work, "program." + kind)
    is_cxx = a.source.endswith((".cpp", ".cc"))
    cc = a.cxx if is_cxx else a.cc
    flags = ["-O1", "-g", "-pthread"]
    if kind != "plain":
        flags += ["-fplugin=" + a.plugin, "-fplugin-arg-capture_window-all-loops"]
    if kind == "sanitize":
        flags += ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                  "-fno-omit-frame-pointer"]
    objs = []
    if a.sqlite:
        sqlite_dir = fetch_sqlite(a.cache)
        obj = os.path.join(a.work, "sqlite3.%s.o" % kind)
        p = sh([a.cc, "-c", "-o", obj, os.path.join(sqlite_dir, "sqlite3.c")]
               + flags + SQLITE_FLAGS)
        if p.returncode != 0:
            fail("sqlite3.c (%s) does not compile:\n%s" % (kind, p.stderr[-5000:]))
        if kind != "plain" and ("internal compiler error" in p.stderr):
            fail("the plugin crashed on sqlite3.c:\n%s" % p.stderr[-5000:])
        objs = [obj, "-I" + sqlite_dir]
    std = ["-std=gnu++17"] if is_cxx else ["-std=gnu11"]
    cmd = [cc] + std + flags + ["-o", exe, a.source] + objs + ["-ldl", "-lm"]
    if kind != "plain":
        cmd += [a.runtime, "-Wl,-rpath," + os.path.dirname(a.runtime)]
    p = sh(cmd)
    if p.returncode != 0:
        fail("%s build does not compile:\n%s" % (kind, p.stderr[-5000:]))
    if kind != "plain" and p.stderr.strip():
        fail("the plugin build prints diagnostics:\n%s" % p.stderr[-3000:])
    return exe


# ---------------------------------------------------------------- runs

CLEAN = ("CAPTURE_WINDOW", "CAPTURE_WINDOW_LOOPS", "CAPTURE_WINDOW_RANKS",
         "CAPTURE_WINDOW_TRIGGER", "CAPTURE_WINDOW_VERBOSE", "NVTX_INJECTION64_PATH",
         "CW_RECORD")


def execute(a, exe, record=None, **extra):
    env = {k: v for k, v in os.environ.items() if k not in CLEAN}
    env["LD_LIBRARY_PATH"] = a.fakecuda_dir or ""
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=99"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=98"
    if record:
        env["NVTX_INJECTION64_PATH"] = a.recorder
        env["CW_RECORD"] = record
        if os.path.exists(record):
            os.unlink(record)
    env.update(extra)
    t = time.time()
    # The program's arguments: a scratch file (the SQL driver's database)
    # and --args.
    p = subprocess.run([exe, os.path.join(a.work, "db." + os.path.basename(exe))]
                       + a.args, capture_output=True, text=True, errors="replace",
                       env=env, cwd=a.work, timeout=a.timeout)
    print("ran %s %s (%.1fs, exit %d)" % (os.path.basename(exe),
                                          " ".join("%s=%s" % kv for kv in extra.items()),
                                          time.time() - t, p.returncode))
    return p


def reference(a):
    path = os.path.join(a.work, "reference.out")
    if not os.path.exists(path):
        fail("no reference output %s: the plain step must run first" % path)
    with open(path) as f:
        rc, out = f.read().split("\n", 1)
    return int(rc), out


def same_as_reference(a, what, p):
    rc, out = reference(a)
    if p.returncode != rc or p.stdout != out:
        diff = [(i, x, y) for i, (x, y) in enumerate(
            zip(out.splitlines(), p.stdout.splitlines()), 1) if x != y][:5]
        fail("%s: output differs from the plain build (exit %d vs %d, %d vs %d "
             "lines; first differences %s)\nstderr:\n%s"
             % (what, p.returncode, rc, len(p.stdout.splitlines()),
                len(out.splitlines()), diff, p.stderr[-3000:]))


def check_record(what, record, windows_of_every_loop):
    with open(record) as f:
        text = f.read()
    events, problems = check_trace.parse_record(text)
    labels = {m.group(1) for e in events if e.verb == "push" and e.kind == "ascii"
              for m in [check_trace.ITER_RE.match(e.text)] if m}
    if not labels:
        problems.append("no iteration range at all: nothing was instrumented")
    windows = {label: windows_of_every_loop for label in labels}
    # Loops that share a label - the instantiations of one template loop,
    # loops of one function on one line - each count from 0: an index that
    # restarts at 0 is another loop, not a gap.
    # A window of several iterations also spans the loop's own condition
    # and increment between them; in real code those call other loops, whose
    # ranges then sit directly inside the window range (the test programs'
    # loop headers call nothing, so check_trace.py forbids it).
    problems += [p for p in check_trace.check_invariants(events, "both", windows)
                 if not RESTART_RE.search(p) and not HEADER_RE.search(p)]
    pushes = sum(1 for e in events if e.verb == "push")
    print("%s: %d events, %d ranges, %d instrumented loops ran" %
          (what, len(events), pushes, len(labels)))
    if problems:
        fail("%s: the record breaks %d invariant(s):\n  %s" %
             (what, len(problems), "\n  ".join(problems[:20])))


def step_plain(a):
    p = execute(a, build(a, "plain"))
    if p.returncode != 0:
        fail("the plain build exits with %d:\n%s" % (p.returncode, p.stderr))
    with open(os.path.join(a.work, "reference.out"), "w") as f:
        f.write("%d\n%s" % (p.returncode, p.stdout))
    print("reference: %d lines" % len(p.stdout.splitlines()))


def step_all_loops(a):
    exe = build(a, "all-loops")
    record = os.path.join(a.work, "all-loops.record")
    for what, extra, record, windows in (
            ("no tool attached", {}, None, None),
            ("CAPTURE_WINDOW=off", {"CAPTURE_WINDOW": "off"}, None, None),
            ("under the recorder", {}, record, ALL_LOOPS_WINDOW),
            ("under the recorder, CAPTURE_WINDOW=3:2,10:5",
             {"CAPTURE_WINDOW": "3:2,10:5"}, record, [(3, 2), (10, 5)])):
        p = execute(a, exe, record, **extra)
        same_as_reference(a, what, p)
        # The runtime may report on stderr, always in its own lines.
        noise = [l for l in p.stderr.splitlines() if not l.startswith("capture_window: ")]
        if noise or (p.stderr and not record):
            fail("%s: unexpected stderr:\n%s" % (what, p.stderr[-3000:]))
        if record:
            check_record(what, record, windows)


def step_sanitize(a):
    exe = build(a, "sanitize")
    for what, record in (("ASan+UBSan, no tool", None),
                         ("ASan+UBSan, under the recorder",
                          os.path.join(a.work, "sanitize.record"))):
        p = execute(a, exe, record)
        if "Sanitizer" in p.stderr or "runtime error:" in p.stderr:
            fail("%s: sanitizer report:\n%s" % (what, p.stderr[-6000:]))
        same_as_reference(a, what, p)
        if record:
            check_record(what, record, ALL_LOOPS_WINDOW)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=("fetch", "plain", "all-loops", "sanitize"))
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sqlite", action="store_true")
    ap.add_argument("--cache", default=os.path.join(os.path.expanduser("~"), ".cache",
                                                    "capture-window"))
    ap.add_argument("--plugin")
    ap.add_argument("--runtime")
    ap.add_argument("--recorder")
    ap.add_argument("--fakecuda-dir")
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--args", nargs="*", default=[])
    a = ap.parse_args()
    a.source = os.path.abspath(a.source)
    a.work = os.path.abspath(a.work)
    if a.step in ("all-loops", "sanitize") and not (
            a.plugin and a.runtime and a.recorder and a.fakecuda_dir):
        ap.error("%s needs --plugin, --runtime, --recorder and --fakecuda-dir" % a.step)
    os.makedirs(a.work, exist_ok=True)
    if a.step == "fetch":
        os.makedirs(a.cache, exist_ok=True)
        print("ok: %s" % fetch_sqlite(a.cache))
        return 0
    {"plain": step_plain, "all-loops": step_all_loops,
     "sanitize": step_sanitize}[a.step](a)
    print("ok: %s %s" % (a.step, a.source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
