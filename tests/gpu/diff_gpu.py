"""diff_gpu.py - part `diff` of gpu_checks.py: `capture-window diff` on two
real nsys reports and two step files of samples/train_cuda (issue 42
item 6).

Three runs of `train_cuda 80` with the window 30:20: two plain ones and
one with TRAIN_SLOW_KERNEL=ROUNDS, which gives the backward kernel more
arithmetic per element and leaves every other kernel alone. Checked:

- plain against plain: every kernel's verdict is `same`, and so is the
  steady step of the step files;
- plain against slow: `backward` is `slower` and flagged (slower while the
  steps' kernels stayed the same), `forward` is `same`; the step files'
  steady step is `slower`.
The three diffs' text goes to OUT/diff.log for docs/verification.md.
"""
import json
import os
import subprocess
import sys

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
        f.write(f"$ capture-window diff {' '.join(more)} {os.path.basename(base)} "
                f"{os.path.basename(new)}\n{proc.stdout}{proc.stderr}[exit {proc.returncode}]\n")
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
    base = capture(g, opts, exe, "diff-base", {})
    again = capture(g, opts, exe, "diff-again", {})
    slow = capture(g, opts, exe, "diff-slow", {"TRAIN_SLOW_KERNEL": ROUNDS})
    for side in (base, again, slow):
        diff(opts, base + ".nsys-rep", side + ".nsys-rep")  # the text, for the record
    same = verdicts(diff(opts, base + ".nsys-rep", again + ".nsys-rep", "--json"))
    g.check("diff: plain against plain, every kernel the same",
            bool(same) and all(v == "same" for v, _ in same.values()), str(same))
    changed = verdicts(diff(opts, base + ".nsys-rep", slow + ".nsys-rep", "--json"))
    backward = next((v for name, v in changed.items() if "backward" in name), None)
    forward = next((v for name, v in changed.items() if "forward" in name), None)
    g.check("diff: TRAIN_SLOW_KERNEL makes backward slower, flagged; forward the same",
            backward == ("slower", True) and forward is not None and forward[0] == "same",
            str(changed))
    steps_same = steady_verdict(diff(opts, base + ".steps", again + ".steps", "--json"))
    steps_slow = steady_verdict(diff(opts, base + ".steps", slow + ".steps", "--json"))
    g.note(f"diff: step files, plain against plain: {steps_same}; against slow: {steps_slow}")
    g.check("diff: the step files' steady step is slower with the slow kernel",
            steps_slow == "slower", str(steps_slow))
