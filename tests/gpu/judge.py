"""judge.py - part `judge` of gpu_checks.py: judgment on a job whose
periodic events coincide, with the real nsys and ncu.

`steps_cuda 101 judge 20 30` evaluates every 20 steps inside a range
'validation' of its own, checkpoints every 30 steps and at its last step
inside 'checkpoint', and pushes 'train' around the loop and 'train_step'
inside every step (steps_cuda.cu). Checked:

- `capture-window plan` finds both periods and suggests a window for each;
- `CAPTURE_WINDOW=spike:3` opens on one of them before step 100, and
  `capture-window check` says the window held what it was aimed at (exit 0);
- a window aimed at every 20 steps (`19:3/20x3`): three reports, each ok
  (exit 0), naming 'validation' and, at step 60, 'checkpoint' too;
- a window meant for steady state (`29:3`) that catches the checkpoint:
  "not steady state", exit 1, naming 'checkpoint';
- `profile --tool ncu` names step 30 although every kernel lies under the
  program's own ranges, and the runtime's exit line says that Nsight
  Compute replayed the step instead of calling it slow.
"""
import json
import os
import re
import subprocess
import sys

EVERY, CHECKPOINT, STEPS = 20, 30, "101"


def cli_run(opts, args, env=None):
    """cli/capture-window ARGS: (status, stdout, stderr)."""
    environ = dict(os.environ, NSYS=os.path.abspath(opts.nsys) if os.sep in opts.nsys
                   else opts.nsys, NCU=opts.ncu, **(env or {}))
    proc = subprocess.run([sys.executable, "cli/capture-window", *args], env=environ,
                          capture_output=True, text=True, timeout=600)
    with open(os.path.join(opts.out, "judge.log"), "a") as f:
        f.write(f"$ {' '.join(args)} ({env})\n{proc.stdout}{proc.stderr}[exit {proc.returncode}]\n")
    return proc.returncode, proc.stdout, proc.stderr


def verdicts(stdout):
    return [line for line in stdout.splitlines() if re.match(r"\S+\.(nsys|ncu)-rep: ", line)]


def check_plan(g, opts, exe):
    status, stdout, _ = cli_run(opts, ["plan", "--json", "--", exe, STEPS, "judge", str(EVERY),
                                       str(CHECKPOINT)])
    try:
        loop = json.loads(stdout)["loops"][0]
    except (ValueError, LookupError):
        g.check("judge: plan --json", False, f"exit {status}; output {stdout[-600:]}")
        return
    g.note(f"judge: plan: periodic {loop['periodic']}; outliers {loop['outliers']}; "
           f"suggests {[s['env'] for s in loop['suggest']]}")
    found = sorted({e["every"] for e in loop["periodic"]})
    g.check("judge: plan finds the evaluation every 20 and the checkpoint every 30",
            {EVERY, CHECKPOINT} <= set(found), f"periods {found}")
    aimed = [s["env"] for s in loop["suggest"] if re.search(r"/(20|30)x", s["env"])]
    g.check("judge: plan suggests a window for each period",
            any("/20x" in e for e in aimed) and any("/30x" in e for e in aimed), f"{aimed}")


def check_spike(g, opts, exe):
    name = os.path.join(opts.out, "judge-spike")
    status, stdout, stderr = cli_run(opts, ["profile", "-o", name, "--", exe, STEPS, "judge",
                                            str(EVERY), str(CHECKPOINT)],
                                     {"CAPTURE_WINDOW": "spike:3", "CAPTURE_WINDOW_VERBOSE": "1"})
    g.note("judge: spike:3: " + "; ".join(l for l in stderr.splitlines() if "spike:" in l
                                          and not l.startswith("capture_window: settings ")))
    got = verdicts(stdout)
    g.note(f"judge: spike:3 verdict: {got}")
    # Evaluations at 20, 40, 60, 80 predict 100, the run's last step (it
    # evaluates and checkpoints): the window opens at 99, before it.
    m = re.match(r".*: ok: \d steps \(step#(\d+)-(\d+)\), aimed at every (\d+) steps: step#(\d+) "
                 r"launched \d+ kernels and holds '(validation|checkpoint)'", got[0] if got else "")
    g.check("judge: spike:3 opens on an evaluation or a checkpoint before step 100, and check "
            "says it held what it was aimed at (exit 0)",
            status == 0 and m is not None and int(m.group(1)) < 100
            and int(m.group(4)) % int(m.group(3)) == 0, f"exit {status}; {got}; {stderr[-400:]}")


def check_windows(g, opts, exe):
    name = os.path.join(opts.out, "judge-every20")
    status, stdout, _ = cli_run(opts, ["profile", "-o", name, "--", exe, STEPS, "judge",
                                       str(EVERY), str(CHECKPOINT)],
                                {"CAPTURE_WINDOW": "19:3/20x3"})
    got = verdicts(stdout)
    g.note(f"judge: CAPTURE_WINDOW=19:3/20x3: {got}")
    size = r"; \d+ kernels, [0-9.]+ (kB|MB)$"
    want = [rf"ok: 3 steps \(step#{s - 1}-{s + 1}\), aimed at every 20 steps: step#{s} launched "
            rf"{13 + (s % 30 == 0)} kernels and holds 'validation' \(11 kernels\)"
            + (r" and 'checkpoint' \(1 kernel\)" if s % 30 == 0 else "")
            + rf", steps {s - 1} and {s + 1} launched 2" + size for s in (20, 40, 60)]
    g.check("judge: CAPTURE_WINDOW=19:3/20x3: 3 reports, each aimed and holding the evaluation "
            "(step 60 the checkpoint too), exit 0",
            status == 0 and len(got) == 3 and all(re.search(w, v) for w, v in zip(want, got)),
            f"exit {status}; {got}; want {want}")
    name = os.path.join(opts.out, "judge-steady")
    status, stdout, _ = cli_run(opts, ["profile", "-o", name, "--", exe, STEPS, "judge",
                                       str(EVERY), str(CHECKPOINT)], {"CAPTURE_WINDOW": "29:3"})
    got = verdicts(stdout)
    g.note(f"judge: CAPTURE_WINDOW=29:3: {got}")
    g.check("judge: a steady window on the checkpoint: not steady state, 'checkpoint' named, exit 1",
            status == 1 and len(got) == 1 and got[0].endswith(
                "step#30 launched 3 kernels and holds 'checkpoint' (1 kernel), steps 29 and 31 "
                "launched 2: not steady state"), f"exit {status}; {got}")


def check_ncu(g, opts, exe):
    for window, step, kernels in ((None, 30, 3), ("20:1", 20, 13)):
        name = os.path.join(opts.out, f"judge-ncu-{step}")
        options = ["--window", window] if window else []
        status, stdout, stderr = cli_run(opts, ["profile", "--tool", "ncu", "-o", name, *options,
                                                "--", exe, "50", "judge", str(EVERY),
                                                str(CHECKPOINT)])
        got = verdicts(stdout)
        exit_line = [l for l in stderr.splitlines() if "ran 50 iterations" in l]
        g.note(f"judge: ncu {' '.join(options) or 'defaults'}: {got}; {exit_line}")
        g.check(f"judge: profile --tool ncu {' '.join(options)}: step {step} named through the "
                "program's own ranges",
                status == 0 and len(got) == 1 and re.search(
                    rf": ok: 1 step \(step#{step}\), {kernels} kernels \({kernels} under the "
                    r"program's own ranges\), ", got[0]) is not None, f"exit {status}; {got}")
        g.check(f"judge: ncu {' '.join(options)}: the exit line says Nsight Compute replayed the "
                "step", len(exit_line) == 1 and exit_line[0].endswith(
                    "Nsight Compute replayed its kernels, so its step times say nothing about the "
                    "program") and "not steady state" not in exit_line[0], f"{exit_line}")
    # What ncu puts in the environment, for docs/ncu.md.
    proc = subprocess.run([opts.ncu, "/usr/bin/env"], capture_output=True, text=True, timeout=300)
    g.note("judge: ncu's environment: " + "; ".join(
        l for l in proc.stdout.splitlines() if "INJECTION" in l or l.startswith("NV_")))


def check_judge(g, opts, exe):
    """G: the gpu_checks module (check, note)."""
    check_plan(g, opts, exe)
    check_spike(g, opts, exe)
    check_windows(g, opts, exe)
    check_ncu(g, opts, exe)
