#!/usr/bin/env python3
"""compile_time_cc1.py - compile_time.py's measurement on another machine.

The plugin is built for one GCC release, and a quiet machine to time it on
may have another GCC (the GPU host has GCC 13). So the compiler proper
travels with the plugin: `prepare` copies this machine's cc1 and the
libraries it loads, the preprocessed SQLite amalgamation (plain and with
every loop marked, as compile_time.py makes them) and the plugins, xz-
compressed, into one folder; `run` there compiles them with that cc1, the
arguments `gcc -O2 -c` gives it, several compilations at a time, each
pinned to its own core, in rounds that rotate the cores:

  here:   bench/compile_time_cc1.py prepare --plugin build/plugin/gcc/capture_window.so \\
              --out .device/ct
  there:  python3 bench/compile_time_cc1.py run .device/ct --rounds 5

More plugins to compare: --plugin NAME=PATH[:ARG...] (repeatable; the
first one is also timed on the unmarked source; each ARG becomes
-fplugin-arg-capture_window-ARG, so that one plugin can be compared with
itself under other arguments). Only cc1 runs (no assembler), so the
numbers are the compiler's own time; ratios are to plain cc1 in the same
round.

Times vary by several percent between rounds; instruction counts do not:

  python3 bench/compile_time_cc1.py instructions .device/ct [--until FUNCTION]

runs the same cc1 under valgrind's callgrind, plain and with each plugin
(about 35 min for the whole unit; --until sqlite3VdbeMemMove keeps the
first 36% of its lines, 4 min, for comparing emissions).
"""
import argparse
import json
import lzma
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compile_time  # noqa: E402


def cc1_arguments(gcc, workdir):
    """cc1's arguments for `gcc -O2 -c FILE.i`, with FILE.i and the output
    left as {source} and {output}."""
    probe = workdir / "probe.i"
    probe.write_text("int x;\n")
    out = subprocess.run([gcc, "-O2", "-c", "-###", str(probe)], capture_output=True,
                         text=True, cwd=workdir).stderr
    line = next(l for l in out.splitlines() if "/cc1" in l.split()[0])
    args = [a.strip('"') for a in line.split()][1:]
    args = ["{source}" if a == str(probe) or a == "probe.i" else a for a in args]
    i = args.index("-o")
    args[i + 1] = "{output}"
    return args


def libraries(exe):
    """The shared libraries exe loads, other than the C library's own."""
    out = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    skip = re.compile(r"lib(c|m|dl|pthread|rt)\.so|ld-linux|linux-vdso")
    return [m.group(1) for m in re.finditer(r"=> (\S+)", out) if not skip.search(m.group(1))]


def compress(src, dst):
    with open(src, "rb") as f, lzma.open(dst, "wb", preset=6) as g:
        shutil.copyfileobj(f, g)


def prepare(a):
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    source = compile_time.fetch_sqlite(a.cache)
    compile_time.mark_all(source, a.cache)
    compile_time.mark_one(source, a.cache)
    gcc = a.gcc
    cc1 = subprocess.run([gcc, "-print-prog-name=cc1"], capture_output=True,
                         text=True).stdout.strip()
    compress(cc1, out / "cc1.xz")
    (out / "lib").mkdir(exist_ok=True)
    for lib in libraries(cc1):
        compress(lib, out / "lib" / (os.path.basename(lib) + ".xz"))
    # Preprocessed from the cache folder, so that the line markers name the
    # files by their bare names: the plugin reads the marked source's lines.
    for name in ("sqlite3.c", "sqlite3_one.c", "sqlite3_marked.c"):
        text = subprocess.run([gcc, "-O2", "-E", name], cwd=a.cache, check=True,
                              capture_output=True).stdout
        pre = out / (name[:-2] + ".i")
        pre.write_bytes(text)
        compress(pre, str(pre) + ".xz")
        pre.unlink()
    for name in ("sqlite3_one.c", "sqlite3_marked.c"):
        compress(a.cache / name, out / (name + ".xz"))
    plugins = {}
    for k, spec in enumerate(a.plugin):
        name, _, path = spec.rpartition("=")
        path, *args = path.split(":")
        name = name or ("plugin" if k == 0 else f"plugin{k}")
        (out / "plugins" / name).mkdir(parents=True, exist_ok=True)
        # The file name is what -fplugin-arg-NAME- and messages use.
        shutil.copyfile(path, out / "plugins" / name / "capture_window.so")
        plugins[name] = ":".join([f"plugins/{name}/capture_window.so"] + args)
    with tempfile.TemporaryDirectory() as tmp:
        args = cc1_arguments(gcc, pathlib.Path(tmp))
    (out / "setup.json").write_text(json.dumps({"cc1_args": args, "plugins": plugins},
                                               indent=1))
    print(f"prepared {out}: cc1 {cc1}, plugins {', '.join(plugins)}")


def unpack(folder, work):
    for xz in folder.rglob("*.xz"):
        dst = work / xz.relative_to(folder).with_suffix("")
        dst.parent.mkdir(parents=True, exist_ok=True)
        with lzma.open(xz) as f, open(dst, "wb") as g:
            shutil.copyfileobj(f, g)
    os.chmod(work / "cc1", 0o755)
    if (folder / "plugins").exists():
        shutil.copytree(folder / "plugins", work / "plugins", dirs_exist_ok=True)


def cpu_seconds(rusage):
    return rusage.ru_utime + rusage.ru_stime


class Bench:
    """A prepared folder unpacked into a scratch folder, and its variants:
    plain cc1, the first plugin on the unmarked unit, each plugin on the
    marked one."""

    def __init__(self, folder):
        folder = pathlib.Path(folder)
        self.setup = json.loads((folder / "setup.json").read_text())
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="cw-cc1-"))
        unpack(folder, self.work)
        self.env = dict(os.environ, LD_LIBRARY_PATH=str(self.work / "lib"))
        plugins = self.setup["plugins"]
        first = plugins[next(iter(plugins))]
        self.variants = {"plain": ("sqlite3.i", None),
                         "no pragma": ("sqlite3.i", first),
                         "one loop marked": ("sqlite3_one.i", first)}
        for name, path in plugins.items():
            self.variants[f"marked, {name}"] = ("sqlite3_marked.i", path)

    def command(self, name, k):
        """cc1's command line for variant NAME, writing outK.s."""
        source, plugin = self.variants[name]
        args = [a.replace("{source}", source).replace("{output}", f"out{k}.s")
                for a in self.setup["cc1_args"]]
        if not plugin:
            return [str(self.work / "cc1")] + args
        path, *plugin_args = plugin.split(":")
        return ([str(self.work / "cc1")] + args + [f"-fplugin={self.work / path}"]
                + [f"-fplugin-arg-capture_window-{x}" for x in plugin_args])

    def close(self):
        shutil.rmtree(self.work)


def run(a):
    bench = Bench(a.folder)
    work, env = bench.work, bench.env
    names = list(bench.variants)
    cores = sorted(os.sched_getaffinity(0))[: len(names)]
    if len(cores) < len(names):
        print(f"note: {len(names)} compilations share {len(cores)} cores", file=sys.stderr)

    cpu = {name: [] for name in names}
    for r in range(a.rounds):
        procs = {}
        for k, name in enumerate(names):
            core = cores[(k + r) % len(cores)]  # rotate: no variant keeps a core
            procs[subprocess.Popen(bench.command(name, k), cwd=work, env=env,
                                   preexec_fn=lambda c=core: os.sched_setaffinity(0, {c})
                                   ).pid] = name
        while procs:
            pid, status, rusage = os.wait4(-1, 0)
            name = procs.pop(pid)
            if status:
                sys.exit(f"{name}: cc1 failed ({status})")
            cpu[name].append(cpu_seconds(rusage))
        print(f"round {r + 1}: " + ", ".join(f"{n} {cpu[n][-1]:.2f}" for n in names),
              file=sys.stderr)
    bench.close()
    print(f"cc1 -O2 on sqlite3.c, {a.rounds} rounds, {len(names)} compilations at a time "
          "on separate cores; CPU s (user+sys), ratio = median of per-round ratios to plain")
    print("| variant | median CPU s | min | max | ratio to plain |")
    print("|---|---:|---:|---:|---:|")
    for name in names:
        ratios = [c / p for c, p in zip(cpu[name], cpu["plain"])]
        print(f"| {name} | {statistics.median(cpu[name]):.2f} | {min(cpu[name]):.2f} "
              f"| {max(cpu[name]):.2f} | {statistics.median(ratios):.3f} |")


def truncate_before(path, function):
    """Cut a preprocessed unit before the definition of FUNCTION (a line at
    column 0 that names it and ends with `{`); what follows is dropped,
    including definitions of functions declared above (cc1 -w: a static
    function used but not defined is only a warning)."""
    definition = re.compile(r"^\S.*\b" + re.escape(function) + r"\(.*\)\s*\{\s*$")
    lines = path.read_text(errors="replace").splitlines(keepends=True)
    cut = next((i for i, l in enumerate(lines) if definition.match(l)), None)
    if cut is None:
        sys.exit(f"{path.name}: no definition of {function}")
    path.write_text("".join(lines[:cut]))


def wait_instructions(procs, counts):
    """Wait for the oldest callgrind run of PROCS; its count into COUNTS."""
    proc = next(iter(procs))
    err = proc.communicate()[1]
    name = procs.pop(proc)
    m = re.search(r"Collected : (\d+)", err)
    if proc.returncode or not m:
        sys.exit(f"{name}: cc1 under callgrind failed:\n{err[-2000:]}")
    counts[name] = int(m.group(1))
    print(f"{name}: {counts[name]:,} instructions", file=sys.stderr)


def instructions(a):
    """Instructions cc1 executes (valgrind --tool=callgrind) in each
    variant: repeatable where times are not, but about 50x slower than a
    compilation, hence --until."""
    bench = Bench(a.folder)
    if a.until:
        for name in ("sqlite3.i", "sqlite3_one.i", "sqlite3_marked.i"):
            truncate_before(bench.work / name, a.until)
    variants = list(bench.variants)
    procs, counts = {}, {}
    for k, name in enumerate(variants):
        if len(procs) == a.jobs:
            wait_instructions(procs, counts)
        # -w: a unit cut by --until warns about every static function it
        # declares but no longer defines.
        cmd = (["valgrind", "--tool=callgrind", f"--callgrind-out-file=cg{k}.out"]
               + bench.command(name, k) + ["-w"])
        procs[subprocess.Popen(cmd, cwd=bench.work, env=bench.env, stderr=subprocess.PIPE,
                               text=True)] = name
    while procs:
        wait_instructions(procs, counts)
    bench.close()
    part = f", the part before {a.until}" if a.until else ""
    print(f"cc1 -O2 on sqlite3.c{part}: instructions (callgrind)")
    print("| variant | instructions | ratio to plain |")
    print("|---|---:|---:|")
    for name in variants:
        print(f"| {name} | {counts[name] / 1e9:.3f} G | {counts[name] / counts['plain']:.3f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--plugin", action="append", required=True, metavar="[NAME=]PATH[:ARG...]")
    p.add_argument("--out", required=True)
    p.add_argument("--gcc", default="gcc")
    p.add_argument("--cache", type=pathlib.Path,
                   default=pathlib.Path.home() / ".cache" / "capture-window")
    r = sub.add_parser("run")
    r.add_argument("folder")
    r.add_argument("--rounds", type=int, default=5)
    c = sub.add_parser("instructions")
    c.add_argument("folder")
    c.add_argument("--until", metavar="FUNCTION",
                   help="compile only the unit's text before this function's definition")
    c.add_argument("--jobs", type=int, default=os.cpu_count())
    a = ap.parse_args()
    {"prepare": prepare, "run": run, "instructions": instructions}[a.cmd](a)


if __name__ == "__main__":
    main()
