#!/usr/bin/env python3
"""run_program_test.py - build one test program with and without the
capture-window plugin, run it, and check what it emitted.

A test program is a small C, C++ or CUDA source whose comments say how to
run it and what each run must emit (notation: see check_trace.py):

    // cw-run: CAPTURE_WINDOW=1:2 RANK=3     a run; words are VAR=VALUE
    //                                       (shell quoting) or options:
    //     --mode=both|cuda|nvtx|off         what the checker expects the
    //                                       runtime to do (default: from
    //                                       CAPTURE_WINDOW/..._TRIGGER)
    //     --no-libcuda                      no libcuda.so.1 on the path
    //     --open-at-exit                    the program exits inside a
    //                                       window: ranges may stay open
    //                                       (see check_trace.py)
    //     --auto=LABEL:MIN:COUNT[:EVERY:AT] one window the run places itself
    //                                       (auto, spike): it starts at MIN
    //                                       or later (at an iteration i with
    //                                       i % EVERY == AT)
    // cw-expect: step#0..1(.) S step[ ...   this thread's events (lines join)
    // cw-thread: ...                        another thread's events
    // cw-stderr: TEXT                       a line the run must print to
    //                                       stderr (all lines, in order;
    //                                       none given: stderr is empty)
    // cw-stderr-re: REGEX                   the same, matched as a regex
    //                                       (a verbose run's settings line
    //                                       is compared only where a line
    //                                       names it: settings_line.py)
    //
    // cw-windows: LABEL=S:C[,S:C] ...       (file) windows of each label
    //                                       when not readable from the
    //                                       pragmas themselves
    // cw-flags: -DX ...                     (file) extra compiler flags
    // cw-exit: N                            (file) expected exit status
    // cw-link: static                       (file) link libcapture_window.a
    // cw-library: FILE.c                    (file) also build FILE.c (next to
    //                                       the source) as a shared library,
    //                                       with the plugin and the runtime
    //                                       when the program has them; the
    //                                       program gets its path as the
    //                                       string macro CW_TEST_LIBRARY
    // cw-plugin-args: NAME ...              (file) -fplugin-arg-capture_window-NAME
    //                                       for the instrumented build (the
    //                                       rewriter takes them too)
    // cw-skip: FAMILY REASON                (file) not built by that front
    //                                       door (exit 77: CTest's skip)

--compiler-family picks the front door: gcc (gcc/g++ and the GCC plugin),
clang (clang/clang++ and capture_window_clang.so) or rewrite
(capture-window-rewrite, --rewriter, makes an instrumented copy of each
source, which --cc/--cxx or nvcc build with no plugin). .cu sources are
built by nvcc -ccbin --cxx, the plugin loaded into that host compiler.
--part2-cc/--part2-plugin build a mixed program: the source compiled
twice, -DCW_PART=1 by --cc/--cxx with --plugin and -DCW_PART=2 by
--part2-cc with --part2-plugin, linked into one program (its plain build
compiles both parts with --cc/--cxx, without plugins).
--cflags adds flags (e.g. -fsanitize=address) to every compilation and
link of the programs, both builds.

Each source is built twice per optimization level (-O0 and -O2): with the
plugin and linked with libcapture_window, and without. For every run:
the same environment runs both builds (NVTX_INJECTION64_PATH = recorder,
CW_RECORD = a fresh file, LD_LIBRARY_PATH = the stand-in libcuda.so.1,
plus the run's variables); stdout and the exit status must be identical;
the plugin build's record must pass check_trace.check and its stderr must
be exactly the declared lines; the plain build's record must hold the
program's own marks only, the same ones. A run in mode both or nvtx with
the default CAPTURE_WINDOW_STEPS is repeated with =window, where the
iterations outside windows take the emitted inline path: its record must
be the expected one without the iteration ranges outside windows. A last run with no NVTX tool
attached must also give the same stdout and an empty stderr.
"""

import argparse
import copy
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_trace  # noqa: E402
import settings_line  # noqa: E402

CW_VARS = ("CAPTURE_WINDOW", "CAPTURE_WINDOW_SELFCHECK", "CAPTURE_WINDOW_TIMES",
           "CAPTURE_WINDOW_LOOPS", "CAPTURE_WINDOW_RANKS",
           "CAPTURE_WINDOW_TRIGGER", "CAPTURE_WINDOW_VERBOSE", "CAPTURE_WINDOW_COUNT", "RANK",
           "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
           "NVTX_INJECTION64_PATH", "NVTX_INJECTION32_PATH", "CW_RECORD")

DIRECTIVE_RE = re.compile(r"^\s*//\s*cw-([a-z-]+):?(.*)$")
PRAGMA_RE = re.compile(
    r'(?:capture_window|CAPTURE_WINDOW(?:_LABEL)?)\s*\(\s*(\d+)\s*,\s*(\d+)\s*'
    r'(?:,\s*\\?"([A-Za-z0-9_.-]+)\\?"\s*)?\)')
WINDOW_SPEC_RE = re.compile(r"^(\d+):(\d+)(?:/(\d+)(?:x(\d+))?)?$")
PERIODIC_HORIZON = 100000  # periodic windows are expanded up to this iteration


def expand_windows(value):
    """CAPTURE_WINDOW's START:COUNT[/EVERY[xTIMES]] list as (start, count)
    spans, or None when it is not such a list (off, auto:N, invalid)."""
    spans = []
    for item in value.split(","):
        m = WINDOW_SPEC_RE.match(item)
        if not m:
            return None
        start, count = int(m.group(1)), int(m.group(2))
        every = int(m.group(3) or 0)
        times = int(m.group(4) or 0) if every else 1
        k = 0
        while (not times or k < times) and start + k * every <= PERIODIC_HORIZON:
            spans.append((start + k * every, count))
            k += 1
            if not every:
                break
    # A window starting inside an open one is skipped (runtime/schedule.c).
    kept = []
    for s, c in sorted(spans, key=lambda w: (w[0], -w[1])):
        if not kept or s >= kept[-1][0] + kept[-1][1]:
            kept.append((s, c))
    return kept


class Run:
    def __init__(self, line, words):
        self.line = line
        self.env = {}
        self.mode = None
        self.no_libcuda = False
        self.open_at_exit = False
        self.windows = {}  # --windows=LABEL=S:C[,S:C]: windows the run opens
        self.auto = None   # --auto=LABEL:MIN:COUNT[:EVERY:AT]: one window, from MIN on
        self.threads = []
        self.stderr = []  # (is_regex, text)
        for w in words:
            if w.startswith("--mode="):
                self.mode = w.split("=", 1)[1]
            elif w == "--no-libcuda":
                self.no_libcuda = True
            elif w == "--open-at-exit":
                self.open_at_exit = True
            elif w.startswith("--auto="):
                label, *numbers = w.split("=", 1)[1].split(":")
                numbers = [int(x) for x in numbers]
                if len(numbers) == 2:
                    numbers += [1, 0]  # MIN:COUNT, any phase
                self.auto = (label, *numbers)
            elif w.startswith("--windows="):
                self.windows.update(check_trace.parse_windows([w.split("=", 1)[1]]))
            elif "=" in w and not w.startswith("-"):
                k, v = w.split("=", 1)
                self.env[k] = v
            else:
                raise SystemExit("line %d: unknown cw-run word %r" % (line, w))

    def name(self):
        words = ["%s=%s" % kv for kv in self.env.items()]
        if self.no_libcuda:
            words.append("--no-libcuda")
        return "run at line %d (%s)" % (self.line, " ".join(words) or "defaults")


def parse_source(path, family=None):
    runs, windows, flags, exit_status, link, library = [], {}, [], 0, "shared", None
    plugin_args = []
    pragma_windows = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for n, text in enumerate(lines, 1):
        for m in PRAGMA_RE.finditer(text):
            if "cw-" in text:
                continue
            label = m.group(3) or "step"
            w = (int(m.group(1)), int(m.group(2)))
            pragma_windows.setdefault(label, set()).add(w)
        m = DIRECTIVE_RE.match(text)
        if not m:
            continue
        kind, arg = m.group(1), m.group(2).strip()
        if kind == "run":
            runs.append(Run(n, shlex.split(arg)))
        elif kind in ("expect", "thread", "stderr", "stderr-re"):
            if not runs:
                raise SystemExit("%s:%d: cw-%s before any cw-run" % (path, n, kind))
            run = runs[-1]
            if kind == "thread" or (kind == "expect" and not run.threads):
                run.threads.append(arg)
            elif kind == "expect":
                run.threads[-1] += " " + arg
            else:
                run.stderr.append((kind == "stderr-re", arg))
        elif kind == "windows":
            for spec in arg.split():
                windows.update(check_trace.parse_windows([spec]))
        elif kind == "flags":
            flags += shlex.split(arg)
        elif kind == "plugin-args":
            plugin_args += ["-fplugin-arg-capture_window-" + w for w in arg.split()]
        elif kind == "exit":
            exit_status = int(arg)
        elif kind == "skip":
            words = arg.split(None, 1)
            if words and words[0] == family:
                print("skipped for %s: %s" % (family, words[1] if len(words) > 1 else ""))
                sys.exit(77)
        elif kind == "link":
            if arg not in ("shared", "static"):
                raise SystemExit("%s:%d: cw-link is shared or static" % (path, n))
            link = arg
        elif kind == "library":
            library = os.path.join(os.path.dirname(path), arg)
        else:
            raise SystemExit("%s:%d: unknown directive cw-%s" % (path, n, kind))
    for label, ws in pragma_windows.items():
        if label not in windows:
            if len(ws) > 1:
                raise SystemExit("%s: label %r has several windows %s; declare them "
                                 "with cw-windows" % (path, label, sorted(ws)))
            windows[label] = sorted(ws)
    if not runs:
        raise SystemExit("%s: no cw-run line" % path)
    return runs, windows, flags, exit_status, link, library, plugin_args


def run_windows(run, windows):
    """The windows the checker applies in this run."""
    if run.windows:  # windows only the run knows: auto, signal-armed
        return dict(windows, **run.windows)
    spans = expand_windows(run.env.get("CAPTURE_WINDOW") or "")
    if spans is not None:
        return {label: spans for label in windows}
    return windows


def window_steps_applies(run):
    """Runs whose expectations, written for CAPTURE_WINDOW_STEPS=all, also
    say what =window emits (check_trace.window_steps_view): the modes with
    window ranges, an exact expectation, and the default STEPS."""
    return ("CAPTURE_WINDOW_STEPS" not in run.env and run_mode(run) in ("both", "nvtx")
            and not run.auto and not run.open_at_exit)


def run_mode(run):
    if run.mode:
        return run.mode
    if run.env.get("CAPTURE_WINDOW") == "off":
        return "off"
    return run.env.get("CAPTURE_WINDOW_TRIGGER", "both")


class Driver:
    def __init__(self, a):
        self.a = a
        self.failures = []
        self.link = "shared"
        self.plugin_args = []
        self.work = a.work_dir
        os.makedirs(self.work, exist_ok=True)

    def fail(self, what):
        self.failures.append(what)
        print("FAIL: " + what)

    # -- building

    def compile_command(self, cc, source, out, plugin, opt, flags):
        """One C/C++ compilation (with -c when OUT is an object)."""
        a = self.a
        is_cxx = os.path.splitext(source)[1] in (".cpp", ".cc", ".cxx")
        std = "-std=gnu++17" if is_cxx else "-std=gnu11"
        cmd = [cc, std, opt, "-g", "-Wall", "-pthread"] + a.cflags
        if out.endswith(".o"):
            cmd.append("-c")
        cmd += ["-o", out, source] + ["-I" + d for d in a.include if d] + flags
        cmd += ["-fplugin=" + plugin] + self.plugin_args if plugin else ["-Wno-unknown-pragmas"]
        if plugin and plugin == a.plugin and a.compiler_family == "gcc":
            # GCC's own checks of the IR the plugin's trees become: CFG,
            # SSA, call graph, verified after every pass.
            cmd.append("-fchecking=1")
        return cmd

    def rewrite(self, source, flags):
        """Family rewrite: the rewriter's copy of SOURCE (made once) and the
        flags to build it with.  A header next to the source that holds
        marked loops (#include "..." naming it) is rewritten too, to the
        place the copy's own #include finds first."""
        a = self.a
        ext = os.path.splitext(source)[1]
        base = os.path.splitext(os.path.basename(source))[0]
        here = os.path.dirname(os.path.abspath(source))
        with open(source) as f:
            headers = [h for h in re.findall(r'^\s*#\s*include\s+"([^"]+)"', f.read(), re.M)
                       if os.path.exists(os.path.join(here, h))
                       and "capture_window" in open(os.path.join(here, h)).read()]
        ups = max([h.split("/").count("..") for h in headers] + [0])
        copy_dir = os.path.join(self.work, "rewritten", *(["d"] * ups))
        out = os.path.join(copy_dir, base + ext)
        # Quoted #includes are looked up next to the original.
        flags = flags + ["-I" + here]
        std = {".c": "-std=gnu11", ".cpp": "-std=gnu++17", ".cc": "-std=gnu++17",
               ".cxx": "-std=gnu++17"}.get(ext)
        lang = ["-x", "c" if ext == ".c" else "cuda" if ext == ".cu" else "c++"]
        jobs = [(source, out, [])] + [
            (os.path.join(here, h), os.path.normpath(os.path.join(copy_dir, h)), lang)
            for h in headers]
        if not os.path.exists(out):
            for src, dst, extra in jobs:
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                cmd = [a.rewriter, "-o", dst, src, "--"] + extra + self.plugin_args
                # The default standard first: a cw-flags -std= wins.
                cmd += ["-I" + d for d in a.include if d] + ([std] if std else []) + flags
                if not self.run_compiler("rewrite", cmd, True):
                    return None, flags
        return out, flags

    def compile(self, source, out, with_plugin, opt, flags):
        a = self.a
        if with_plugin and a.compiler_family == "rewrite":
            source, flags = self.rewrite(source, flags)
            if not source:
                return False
        ext = os.path.splitext(source)[1]
        includes = ["-I" + d for d in a.include if d]
        is_cxx = ext in (".cpp", ".cc", ".cxx")
        what = "%s build %s" % ("plugin" if with_plugin else "plain", opt)
        if ext == ".cu":
            # nvcc hands the host code to --cxx (g++ or clang++), which loads
            # the family's plugin.
            cmd = ([a.nvcc, "-ccbin", a.cxx, opt, "-o", out, source] + includes
                   + a.nvcc_flags + flags)
            if with_plugin and a.plugin:
                cmd += ["-Xcompiler", "-fplugin=" + a.plugin]
                if a.compiler_family == "gcc":
                    cmd += ["-Xcompiler", "-fchecking=1"]
                for arg in self.plugin_args:
                    cmd += ["-Xcompiler", arg]
            else:
                cmd += ["-Xcompiler", "-Wno-unknown-pragmas"]
            cmd += ["-Xcompiler", "-pthread", "-ldl"]
        elif a.part2_cc:
            cc = a.cxx if is_cxx else a.cc
            cc2 = (a.part2_cxx if is_cxx else a.part2_cc) if with_plugin else cc
            objs = [out + ".part1.o", out + ".part2.o"]
            parts = [(cc, a.plugin if with_plugin else None, "-DCW_PART=1"),
                     (cc2, a.part2_plugin if with_plugin else None, "-DCW_PART=2")]
            for obj, (pcc, plugin, define) in zip(objs, parts):
                if not self.run_compiler(what, self.compile_command(
                        pcc, source, obj, plugin, opt, flags + [define]), with_plugin):
                    return False
            cmd = [cc, "-pthread", "-o", out] + a.cflags + objs + ["-ldl"]
        else:
            cc = a.cxx if is_cxx else a.cc
            cmd = self.compile_command(cc, source, out,
                                       a.plugin if with_plugin else None, opt, flags)
            cmd += ["-ldl"]
        if with_plugin and ext == ".cu":
            d = os.path.dirname(a.runtime)
            cmd += ["-L" + d, "-lcapture_window", "-Xlinker", "-rpath=" + d]
        elif with_plugin and self.link == "static":
            cmd += [a.runtime_static, "-ldl", "-pthread", "-lm"]
        elif with_plugin:
            cmd += [a.runtime, "-Wl,-rpath," + os.path.dirname(a.runtime)]
        return self.run_compiler(what, cmd, with_plugin and ext != ".cu")

    def compile_library(self, source, out, with_plugin, opt):
        """cw-library: a shared library the program dlopens."""
        a = self.a
        if with_plugin and a.compiler_family == "rewrite":
            source, _ = self.rewrite(source, [])
            if not source:
                return False
        cmd = self.compile_command(a.cc, source, out, a.plugin if with_plugin else None,
                                   opt, ["-shared", "-fPIC"])
        if with_plugin:
            cmd += [a.runtime, "-Wl,-rpath," + os.path.dirname(a.runtime)]
        return self.run_compiler("%s library %s" % ("plugin" if with_plugin else "plain",
                                                    opt), cmd, with_plugin)

    def run_compiler(self, what, cmd, must_be_silent):
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if p.returncode != 0:
            self.fail("%s does not compile:\n  %s\n%s" % (what, shlex.join(cmd),
                                                        p.stdout + p.stderr))
            return False
        if must_be_silent and p.stderr.strip():
            self.fail("%s prints diagnostics (the plugin must be silent on valid "
                      "code):\n  %s\n%s" % (what, shlex.join(cmd), p.stderr))
        return True

    # -- running

    def environment(self, run, record, tool=True):
        env = {k: v for k, v in os.environ.items() if k not in CW_VARS}
        paths = [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]
        paths = [p for p in paths if os.path.realpath(p) !=
                 os.path.realpath(self.a.fakecuda_dir)]
        if not run.no_libcuda:
            paths.insert(0, self.a.fakecuda_dir)
        env["LD_LIBRARY_PATH"] = ":".join(paths)
        if tool:
            env["NVTX_INJECTION64_PATH"] = self.a.recorder
        env["CW_RECORD"] = record
        # The exit self-check prints whenever a tool is attached; only the
        # tests that assert it (cw-run: CAPTURE_WINDOW_SELFCHECK=1) see it.
        env["CAPTURE_WINDOW_SELFCHECK"] = "0"
        env.update(run.env)
        return env

    def execute(self, exe, env):
        record = env["CW_RECORD"]
        if os.path.exists(record):
            os.unlink(record)
        try:
            p = subprocess.run(self.a.run_with + [exe], env=env, capture_output=True, text=True, errors="replace",
                               timeout=self.a.timeout)
        except subprocess.TimeoutExpired:
            return None, "", "timed out after %ss" % self.a.timeout, ""
        text = ""
        if os.path.exists(record):
            with open(record) as f:
                text = f.read()
        return p.returncode, p.stdout, p.stderr, text

    def check_stderr(self, where, run, stderr):
        lines = stderr.splitlines()
        want = run.stderr
        if not any(t.startswith(settings_line.PREFIX) for _, t in want):
            lines = settings_line.without(lines, run.env.get("CAPTURE_WINDOW_VERBOSE") == "1")
            if isinstance(lines, str):
                self.fail("%s: %s" % (where, lines))
                return
        ok = len(lines) == len(want) and all(
            (re.fullmatch(t, l) if rx else t == l) for (rx, t), l in zip(want, lines))
        if not ok:
            self.fail("%s: stderr differs\n  expected:\n%s\n  actual:\n%s" % (
                where, "\n".join("    " + ("re:" if rx else "") + t for rx, t in want)
                or "    (nothing)", "\n".join("    " + l for l in lines) or "    (nothing)"))

    def check_run(self, run, windows, exes, opt, exit_status):
        where = "%s %s" % (opt, run.name())
        results = {}
        if "plain" not in exes:  # a prebuilt program: only its own record counts
            record = os.path.join(self.work, "prebuilt.line%d.record" % run.line)
            rc, out, err, trace = self.execute(exes["plugin"], self.environment(run, record))
            if rc != exit_status:
                self.fail("%s: exit status %s, expected %s" % (where, rc, exit_status))
            self.check_stderr(where, run, err)
            self.check_record(where, run, windows, trace)
            return
        for kind in ("plugin", "plain"):
            record = os.path.join(self.work, "%s%s.line%d.record" % (kind, opt, run.line))
            results[kind] = self.execute(exes[kind], self.environment(run, record))
        (prc, pout, perr, ptrace), (qrc, qout, qerr, qtrace) = \
            results["plugin"], results["plain"]
        if qrc != exit_status:
            self.fail("%s: the plain build exits with %s, expected %s (stderr: %s)"
                      % (where, qrc, exit_status, qerr.strip()))
        if prc != qrc:
            self.fail("%s: exit status %s with the plugin, %s without (stderr: %s)"
                      % (where, prc, qrc, perr.strip()))
        if pout != qout:
            self.fail("%s: stdout differs with the plugin\n--- without:\n%s--- with:\n%s"
                      % (where, qout, pout))
        self.check_stderr(where, run, perr)
        self.check_record(where, run, windows, ptrace)
        self.check_plain_marks(where, ptrace, qtrace)
        if window_steps_applies(run):
            self.check_window_steps(run, windows, exes, opt, (qrc, qout))

    def check_window_steps(self, run, windows, exes, opt, plain):
        """The run again with CAPTURE_WINDOW_STEPS=window: iterations outside
        windows then take the emitted code's inline path, no runtime call,
        and must still count, so that the same windows open at the same
        iterations."""
        steps_run = copy.copy(run)
        steps_run.env = dict(run.env, CAPTURE_WINDOW_STEPS="window")
        where = "%s %s" % (opt, steps_run.name())
        record = os.path.join(self.work, "plugin%s.line%d.window.record" % (opt, run.line))
        rc, out, err, trace = self.execute(exes["plugin"], self.environment(steps_run, record))
        if (rc, out) != plain:
            self.fail("%s: exit/stdout differ from the plain build: %r, plain %r"
                      % (where, (rc, out), plain))
        self.check_stderr(where, steps_run, err)
        self.check_record(where, steps_run, windows, trace, expected_steps="all")

    def auto_window(self, where, run, ptrace):
        """auto:COUNT opens where the step time settles, which the test
        cannot know to the iteration: take the window's first iteration
        from the record, require it to be MIN or later, and check the rest
        of the record against that window."""
        label, low, count, every, at = run.auto
        lines = ptrace.splitlines()
        for n, line in enumerate(lines):
            if line.split()[1:] == ["push", "registered", label]:
                tid = line.split()[0]
                first = next((l.split()[3] for l in lines[n + 1:]
                              if l.split()[0] == tid and l.split()[1:3] == ["push", "ascii"]),
                             "")
                m = re.match(r"^%s#(\d+)$" % re.escape(label), first)
                if m and int(m.group(1)) >= low and int(m.group(1)) % every == at:
                    return {label: [(int(m.group(1)), count)]}
                self.fail("%s: auto window of %r starts at %r, expected %s#%d or later%s"
                          % (where, label, first, label, low,
                             " at i %% %d == %d" % (every, at) if every > 1 else ""))
                return {label: []}
        self.fail("%s: auto window of %r never opened" % (where, label))
        return {label: []}

    def check_record(self, where, run, windows, ptrace, expected_steps=None):
        if run.auto:
            windows = dict(windows, **self.auto_window(where, run, ptrace))
            run.windows = windows
        try:
            # An auto run without cw-expect is checked by invariants only.
            expected = None if run.auto and not run.threads else run.threads
            problems = check_trace.check(ptrace, expected, run_mode(run),
                                         run_windows(run, windows),
                                         profiler_present=not run.no_libcuda,
                                         steps=run.env.get("CAPTURE_WINDOW_STEPS", "all"),
                                         open_at_exit=run.open_at_exit,
                                         expected_steps=expected_steps or
                                         run.env.get("CAPTURE_WINDOW_STEPS", "all"))
        except check_trace.NotationError as e:
            problems = ["bad notation in the test: %s" % e]
        for p in problems:
            self.fail("%s: %s" % (where, p))
        if problems:
            print("  record of the plugin build (%d lines):\n%s" % (
                len(ptrace.splitlines()),
                "".join("    " + l + "\n" for l in ptrace.splitlines()[:200])))

    def check_plain_marks(self, where, ptrace, qtrace):
        """The plain build emits the program's marks and nothing else, and the
        plugin build emits the same marks (besides the runtime's aim marks)."""
        pev, _ = check_trace.parse_record(ptrace)
        qev, problems = check_trace.parse_record(qtrace)
        for e in qev:
            if e.verb != "mark":
                problems.append("the plain build records %s (record line %d)" % (e, e.line))

        def marks(events):
            per = {}
            for e in events:
                if e.verb == "mark" and not check_trace.AIM_RE.fullmatch(e.text or ""):
                    per.setdefault(e.tid, []).append(e.text)
            return sorted(per.values())
        if marks(pev) != marks(qev):
            problems.append("program marks differ with the plugin:\n  without: %s\n"
                            "  with:    %s" % (marks(qev), marks(pev)))
        for p in problems:
            self.fail("%s: %s" % (where, p))

    def check_untraced(self, exes, opt):
        """No NVTX tool attached: same output, nothing on stderr."""
        run = Run(0, [])
        env = self.environment(run, os.path.join(self.work, "untraced.record"),
                               tool=False)
        out = {}
        for kind in ("plugin", "plain"):
            out[kind] = self.execute(exes[kind], env)
        if out["plugin"][:2] != out["plain"][:2]:
            self.fail("%s no tool attached: exit/stdout differ: plugin %r, plain %r"
                      % (opt, out["plugin"][:2], out["plain"][:2]))
        if out["plugin"][2]:
            self.fail("%s no tool attached: stderr is not empty:\n%s"
                      % (opt, out["plugin"][2]))

    def main(self):
        a = self.a
        runs, windows, flags, exit_status, self.link, library, self.plugin_args = parse_source(
            a.source, a.compiler_family)
        base = os.path.splitext(os.path.basename(a.source))[0]
        if a.prebuilt:
            for run in runs:
                self.check_run(run, windows, {"plugin": a.prebuilt}, "prebuilt",
                               exit_status)
            return self.report()
        for opt in a.opt:
            exes = {}
            for kind in ("plugin", "plain"):
                exes[kind] = os.path.join(self.work, "%s%s.%s" % (base, opt, kind))
                extra = []
                if library:
                    lib = exes[kind] + ".lib.so"
                    if not self.compile_library(library, lib, kind == "plugin", opt):
                        return self.report()
                    extra = ['-DCW_TEST_LIBRARY="%s"' % lib]
                if not self.compile(a.source, exes[kind], kind == "plugin", opt,
                                    flags + extra):
                    return self.report()
            for run in runs:
                self.check_run(run, windows, exes, opt, exit_status)
            self.check_untraced(exes, opt)
        return self.report()

    def report(self):
        if self.failures:
            print("%d failure(s) in %s" % (len(self.failures), self.a.source))
            return 1
        print("ok: %s" % self.a.source)
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", required=True)
    ap.add_argument("--plugin", help="the plugin: capture_window.so (GCC) or "
                    "capture_window_clang.so (Clang)")
    ap.add_argument("--rewriter", help="capture-window-rewrite (--compiler-family rewrite)")
    ap.add_argument("--compiler-family", choices=("gcc", "clang", "rewrite"), default="gcc",
                    help="which front door --cc/--cxx and --plugin are")
    ap.add_argument("--part2-cc", help="mixed program: compiler of part 2 (C)")
    ap.add_argument("--part2-cxx", help="mixed program: compiler of part 2 (C++)")
    ap.add_argument("--part2-plugin", help="mixed program: plugin of part 2")
    ap.add_argument("--runtime", help="libcapture_window.so")
    ap.add_argument("--runtime-static", help="libcapture_window.a")
    ap.add_argument("--prebuilt", help="run this program instead of building "
                    "--source (its comments still give the runs)")
    ap.add_argument("--recorder", required=True, help="libcw_nvtx_recorder.so")
    ap.add_argument("--fakecuda-dir", required=True, help="folder of the stand-in libcuda.so.1")
    ap.add_argument("--include", action="append", default=[],
                    help="include folder (repeatable; ';' separates several)")
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--opt", action="append", default=None)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--run-with", default="", help="run the programs through this "
                    "command (shell words), e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu'")
    ap.add_argument("--nvcc-flags", action="append", default=[],
                    help="a flag for every nvcc command (repeatable): the "
                    "build's CMAKE_CUDA_FLAGS")
    ap.add_argument("--cflags", action="append", default=[],
                    help="a flag for every compilation and link of the programs "
                    "(repeatable), e.g. --cflags=-fsanitize=thread")
    a = ap.parse_args()
    a.include = [d for arg in a.include for d in arg.split(";")]
    a.opt = a.opt or ["-O0", "-O2"]
    a.run_with = shlex.split(a.run_with)
    if a.compiler_family == "rewrite" and not a.rewriter:
        ap.error("--compiler-family rewrite needs --rewriter")
    if not a.prebuilt and not ((a.plugin or a.rewriter) and a.runtime):
        ap.error("--plugin and --runtime are needed to build --source")
    if a.part2_cc and not (a.part2_plugin and a.part2_cxx):
        ap.error("--part2-cc needs --part2-cxx and --part2-plugin")
    if os.path.isdir(a.work_dir):
        shutil.rmtree(a.work_dir)
    return Driver(a).main()


if __name__ == "__main__":
    sys.exit(main())
