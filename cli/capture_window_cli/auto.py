"""auto.py - `profile --auto`: from nothing to checked reports in at most two
runs of the program. The first run learns its steps as `plan` does (plan's
own run and analysis), or --from reads a step-time file of an earlier run;
the second runs it under nsys with every suggested window in one
CAPTURE_WINDOW value (--capture-range-end=repeat:N); then each report is
checked against the window it was meant to hold, and one table says what
each holds."""
import glob
import os
import sys
import tempfile

from . import plan, runtime
from .common import ME, BadArguments, Usage, option_value, program_name
from .nsys import no_report, nsys_ended, run_nsys
from .check import check
from .steps import host_phrases, odd_phrases
from .steptimes import NotStepTimes, read_times, step_files
from .runtime import option_number
from .suggest import suggestions

USAGE = ("capture-window profile --auto [-o NAME] [--label L] [--steps N] [--count C]\n"
         "                       [--from FILE] [NSYS-OPTION...] -- PROGRAM [ARG...]")


def parse_auto(args):
    """profile --auto's words -> ({name, label, steps, count, from}, nsys options, program)."""
    if "--" not in args:
        raise Usage(f"{ME}: profile --auto: put the program after '--'\n{USAGE}")
    cut = args.index("--")
    words, program = args[:cut], args[cut + 1:]
    opts, nsys_opts, i = {"name": None, "label": "step", "steps": None, "count": "3", "from": []}, [], 0
    while i < len(words):
        a = words[i]
        key = next((k for k in ("output", "label", "steps", "count", "from")
                    if a == "--" + k or a.startswith(f"--{k}=")), None)
        if a == "--auto":
            i += 1
        elif a == "-o" or key == "output":
            opts["name"], i = option_value(words, i, a.split("=")[0])
        elif key == "from":
            value, i = option_value(words, i, "--from")
            opts["from"].append(value)
        elif key:
            opts[key], i = option_value(words, i, "--" + key)
        else:
            nsys_opts.append(a)
            i += 1
    for key in ("steps", "count"):
        if opts[key] is not None:
            opts[key], why = option_number(f"--{key}", opts[key], 1)
            if why:
                raise Usage(f"{ME}: profile --auto: {why}")
    if opts["steps"] and opts["from"]:
        raise Usage(f"{ME}: profile --auto: --steps or --from, not both")
    if not program:
        raise BadArguments(f"{ME}: profile: no program given")
    return opts, nsys_opts, program


def learn(opts, program):
    """The loops' step times: from --from, or from one run of PROGRAM as
    plan makes it (stopped once a loop has --steps steps). -> loops, or None."""
    cuts = []
    try:
        if opts["from"]:
            loops = read_times(step_files(opts["from"]), cuts=cuts)
        else:
            with tempfile.TemporaryDirectory(prefix="cw-auto-") as folder:
                rc, stopped = plan.run_program(program, folder, opts["steps"])
                loops = read_times(sorted(glob.glob(os.path.join(folder, "times.*"))), cuts=cuts)
            if stopped:
                print(f"{ME}: stopped {program[0]} (SIGTERM) at {opts['steps']} steps", file=sys.stderr)
            elif rc != 0:
                print(f"{ME}: profile --auto: {program[0]} exited with status {rc}", file=sys.stderr)
    except NotStepTimes as e:
        raise Usage(f"{ME}: profile --auto: {e}") from None
    for line in cuts:
        print(f"{ME}: profile --auto: {line}", file=sys.stderr)
    if opts["steps"]:
        for loop in loops:
            loop["index"], loop["ns"] = loop["index"][:opts["steps"]], loop["ns"][:opts["steps"]]
    return loops


def occurrences(suggest):
    """The windows the suggestions open, [(start, count, aim)] by start: a
    window that would open while another is open is skipped, as the runtime
    does (docs/environment.md)."""
    every = [(start, count, s.aim) for s in suggest for start, count in runtime.occurrences(s.value())]
    kept = []
    for w in sorted(every, key=lambda w: w[0]):
        if not kept or w[0] >= kept[-1][0] + kept[-1][1]:
            kept.append(w)
    return kept


def odd_step(findings, label):
    """What the window's odd step holds, in check's words (check's
    findings): the work its neighbours lack, else its host work, without
    check's hint of how to see it; '-' when its steps are alike."""
    if findings is None:
        return "-"
    odd = odd_phrases(findings, label)
    if odd:
        return "; ".join(odd)
    return "; ".join(host_phrases(findings, label, hint=False)) or "-"


def trigger(loops, loop, nsys_opts):
    """nsys's options with the capture trigger: a loop that ran in one thread
    gets -c nvtx -p LABEL, so that only its window ranges start a capture
    and a program that calls cudaProfilerStart itself (llm.c) shifts no
    report; a loop in several threads keeps -c cudaProfilerApi (an NVTX
    range is one thread's), as does a -c of the user's."""
    given = any(w in ("-c", "--capture-range") or w.startswith("--capture-range=")
                for w in nsys_opts)
    threads = sum(1 for l in loops if l["place"] == loop["place"])
    if given or threads != 1:
        return nsys_opts
    print(f"{ME}: profile --auto: loop '{loop['label']}' ran in one thread: -c nvtx -p "
          f"{loop['label']}, so that only its windows start a capture", file=sys.stderr)
    return ["-c", "nvtx", "-p", loop["label"], *nsys_opts]


def table(rows):
    """Columns padded to their widest cell; the last one as it is."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def profile_auto(args):
    opts, nsys_opts, program = parse_auto(args)
    loops = learn(opts, program)
    if not loops:
        print(f"{ME}: profile --auto: no step times recorded: was the program built with the "
              "capture-window plugin, and did a marked loop run?", file=sys.stderr)
        return 1
    loop = loops[0]
    others = {l["place"] for l in loops} - {loop["place"]}
    variables = {}
    if others:   # one policy is one loop's: the first one's
        at = "@" + loop["instance"] if loop["instance"] else ""
        variables["CAPTURE_WINDOW_LOOPS"] = f"{os.path.basename(loop['file'])}:{loop['line']}{at}"
        print(f"{ME}: profile --auto: {len(others) + 1} marked loops; this run profiles "
              f"'{loop['label']}' ({loop['place']}); `plan` suggests windows for the others",
              file=sys.stderr)
    a = plan.analyse(loop["index"], loop["ns"], opts["count"])
    suggest = suggestions(a, loop["left"])
    for line in plan.shape_lines(a) if a.levels or a.drift else ():
        # no steady state: plan's words, and its windows instead of a steady one
        print(f"{ME}: profile --auto: loop '{loop['label']}' ({loop['place']}): {line.strip()}",
              file=sys.stderr)
    windows = occurrences(suggest)
    if not windows:
        print(f"{ME}: profile --auto: plan suggests no window for loop '{loop['label']}' "
              f"({loop['place']}): `capture-window plan` says why", file=sys.stderr)
        return 1
    variables["CAPTURE_WINDOW"] = ",".join(s.value() for s in suggest)
    range_end = f"repeat:{len(windows)}" if len(windows) > 1 else "stop"
    name = opts["name"] or program_name(program)
    nsys_status, reports = run_nsys(name, trigger(loops, loop, nsys_opts), program, range_end,
                                    variables)
    if nsys_status is None:
        return 1
    # Each report is judged against the window its steps began at (a
    # capture of the program's own would shift the k-th pairing).
    checked = [check(r, opts["label"], [(s, c) for s, c, _ in windows]) for r in reports]
    rows, failed = [("window", "aimed at", "verdict", "report", "the odd step")], []
    for start, count, aim in windows:
        mine = [(r, found) for r, found in checked if r["window"] == (start, count)]
        if not mine:
            rows.append((f"{start}:{count}", aim, "no report", "-", "-"))
            failed.append(f"{start}:{count}: {no_report(reports, windows)}")
        for r, found in mine:
            rows.append((f"{start}:{count}", aim, "ok" if r["ok"] else r["problem"], r["report"],
                         odd_step(found, opts["label"]) if r["ok"] else "-"))
            if not r["ok"]:
                failed.append(f"{r['report']}: {r['verdict']}")
    print("\n".join(table(rows)))
    for line in failed:
        print(line)
    return nsys_ended(nsys_status, 1 if failed else 0)
