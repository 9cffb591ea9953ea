"""diff_gpu.py - part `diff` of gpu_checks.py: `capture-window diff` on two
real nsys reports and two step files of samples/train_cuda (issue 42
item 6).

Runs of `train_cuda 80` with the window 30:20: one to warm the machine
(left out), then three rounds of three, interleaved so that every kind
sees the machine alike: plain (`a`), plain again (`b`), and one with
TRAIN_SLOW_KERNEL=ROUNDS (`slow`), which gives the backward kernel more
arithmetic per element and leaves every other kernel alone. Each side of a
diff is the three runs of a kind (a quoted glob: resampled as runs).
Checked:

- a against b: the steady step and every kernel are `same`, and so is the
  steady step of the step files;
- a against slow: `backward` is `slower` and flagged (slower while the
  steps' kernels stayed the same), `forward` is `same`; the step files'
  steady step is `slower`.
One run a side (a.1 against b.1) is noted, not checked: what a single
pair says. The diffs' text goes to OUT/diff.log for docs/verification.md.
"""
import json
import os
import subprocess
import sys
import time

ROUNDS = "200"
WINDOW = "30:20"


def capture(g, opts, exe, name, extra_env):
    out = os.path.join(opts.out, name)
    env = dict(os.environ, CAPTURE_WINDOW=WINDOW, CAPTURE_WINDOW_TIMES=out + ".steps",
               **extra_env)
    command = [opts.nsys, "profile", "-t", "cuda,nvtx", "--sample=none", "--cpuctxsw=none",
               "-f", "true", "-o", out, "-c", "cudaProfilerApi", "--capture-range-end=stop",
               exe, "80"]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    with open(out + ".log", "w") as f:
        f.write(" ".join(command) + "\n" + proc.stdout + proc.stderr)
    return out


def diff(opts, base, new, *more):
    proc = subprocess.run([sys.executable, "cli/capture-window", "diff", *more, base, new],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, NSYS=os.path.abspath(opts.nsys)))
    with open(os.path.join(opts.out, "diff.log"), "a") as f:
        f.write(f"$ capture-window diff {' '.join(more)} '{os.path.basename(base)}' "
                f"'{os.path.basename(new)}'\n{proc.stdout}{proc.stderr}[exit {proc.returncode}]\n")
    return proc


def verdicts(proc):
    """{kernel name: (verdict, flagged)} of a reports diff's --json."""
    try:
        found = json.loads(proc.stdout)
    except ValueError:
        return {}
    loops = found.get("loops", [found])
    return {k["name"]: (k.get("verdict"), k.get("flagged")) for loop in loops
            for k in loop.get("kernels", [])}


def steady_verdict(proc):
    try:
        return json.loads(proc.stdout)["steady"]["verdict"]
    except (ValueError, KeyError, TypeError):
        return None


def check_diff(g, opts, exe):
    capture(g, opts, exe, "diff-warm", {})
    for k in (1, 2, 3):
        for kind, extra in (("a", {}), ("b", {}), ("slow", {"TRAIN_SLOW_KERNEL": ROUNDS})):
            capture(g, opts, exe, f"diff-{kind}.{k}", extra)
    side = {kind: os.path.join(opts.out, f"diff-{kind}.*.nsys-rep") for kind in ("a", "b", "slow")}
    one = [os.path.join(opts.out, f"diff-{kind}.1.nsys-rep") for kind in ("a", "b")]
    diff(opts, *one)   # the text, for the record
    single = json.loads(diff(opts, *one, "--json").stdout or "{}").get("steady")
    g.note(f"diff: one run a side, a.1 against b.1: the step {single}")
    for kind in ("b", "slow"):
        diff(opts, side["a"], side[kind])
    started = time.monotonic()
    same_proc = diff(opts, side["a"], side["b"], "--json")
    g.note(f"diff: three reports a side, 20 steps each: {time.monotonic() - started:.2f} s")
    same = verdicts(same_proc)
    g.check("diff: plain against plain, three runs a side: every kernel the same",
            bool(same) and all(v == "same" for v, _ in same.values()), str(same))
    g.check("diff: plain against plain, three runs a side: the step the same",
            steady_verdict(same_proc) == "same", str(steady_verdict(same_proc)))
    changed = verdicts(diff(opts, side["a"], side["slow"], "--json"))
    backward = next((v for name, v in changed.items() if "backward" in name), None)
    forward = next((v for name, v in changed.items() if "forward" in name), None)
    g.check("diff: TRAIN_SLOW_KERNEL makes backward slower, flagged; forward the same",
            backward == ("slower", True) and forward is not None and forward[0] == "same",
            str(changed))
    steps = {kind: os.path.join(opts.out, f"diff-{kind}.*.steps") for kind in ("a", "b", "slow")}
    steps_same = steady_verdict(diff(opts, steps["a"], steps["b"], "--json"))
    steps_slow = steady_verdict(diff(opts, steps["a"], steps["slow"], "--json"))
    diff(opts, steps["a"], steps["slow"])   # the text, for the record
    g.note(f"diff: step files, plain against plain: {steps_same}; against slow: {steps_slow}")
    g.check("diff: the step files' steady step is the same, plain against plain",
            steps_same == "same", str(steps_same))
    g.check("diff: the step files' steady step is slower with the slow kernel",
            steps_slow == "slower", str(steps_slow))
