"""profile.py - `profile`: nsys aimed at the program's capture windows,
then `check` of each report it wrote."""
import os

from .common import ME, BadArguments, option_value, program_name
from .nsys import no_report, nsys_ended, run_nsys
from .check import check_report
from .runtime import AT_START, BY_AUTO, none_due, parse_expect, windows

def window_plan():
    """From CAPTURE_WINDOW and CAPTURE_WINDOW_SIGNAL: the --capture-range-end
    nsys needs (stop for one window, repeat:N for N, repeat for as many as
    come) and the (START, COUNT) each report should hold, in order (START
    None where the run decides it; no list when the windows are unbounded).
    The windows are the runtime's reading of CAPTURE_WINDOW (runtime.windows)."""
    found = windows(os.environ.get("CAPTURE_WINDOW", ""))
    expects, unbounded = [], found is None or bool(os.environ.get("CAPTURE_WINDOW_SIGNAL"))
    for w in found or []:
        if w.placed == BY_AUTO:
            expects.append((None, w.count))
        elif w.placed == AT_START and not w.every:
            expects.append((w.start, w.count))
        elif w.placed == AT_START and w.times:
            expects += [(w.start + k * w.every, w.count) for k in range(w.times)]
        else:             # START:COUNT/EVERY with no end, or spike's: as many as come
            unbounded = True
    if unbounded:
        return "repeat", []
    return ("repeat:%d" % len(expects) if len(expects) > 1 else "stop"), expects


def unreported(windows, results):
    """The planned windows (START, COUNT) no report was judged against."""
    held = {tuple(r["window"]) for r in results if r["window"]}
    return [w for w in windows if w[0] is not None and tuple(w) not in held]


def parse_profile(args):
    """profile's words -> (name, label, expect, nsys options, program words)."""
    name, label, expect, nsys_opts = None, "step", None, []
    dashdash = "--" in args
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a in ("-o", "--output") or a.startswith("--output="):
            name, i = option_value(args, i, a.split("=")[0])
        elif a.startswith("-o"):
            name, i = a[2:], i + 1
        elif a == "--label" or a.startswith("--label="):
            label, i = option_value(args, i, "--label")
        elif a == "--expect" or a.startswith("--expect="):
            expect, i = option_value(args, i, "--expect")
        elif a == "--nsys-args" or a.startswith("--nsys-args="):
            words, i = option_value(args, i, "--nsys-args")
            nsys_opts += words.split()
        elif a.startswith("-") or dashdash:
            nsys_opts.append(a)
            i += 1
        else:
            break
    program = args[i:]
    if not program:
        raise BadArguments(f"{ME}: profile: no program given")
    return name, label, parse_expect(expect) if expect else None, nsys_opts, program


def take_tool(args):
    """--tool nsys|ncu (before any '--') and the other words."""
    for k, a in enumerate(args):
        if a == "--":
            break
        if a == "--tool" or a.startswith("--tool="):
            tool, after = option_value(args, k, "--tool")
            if tool not in ("nsys", "ncu"):
                raise BadArguments(f"{ME}: --tool takes nsys or ncu, got '{tool}'")
            return tool, args[:k] + args[after:]
    return "nsys", args


def cmd_profile(args):
    tool, args = take_tool(args)
    if tool == "ncu":
        from .ncu import profile_ncu
        return profile_ncu(args)
    if "--auto" in args[:args.index("--") if "--" in args else len(args)]:
        from .auto import profile_auto
        return profile_auto(args)
    name, label, wanted, nsys_opts, program = parse_profile(args)
    range_end, windows = window_plan()
    nsys_status, reports = run_nsys(name or program_name(program), nsys_opts, program, range_end)
    if nsys_status is None:
        return 1
    reason = none_due()
    status = 0
    if not reports and reason:
        print(f"{ME}: no report, as expected: {reason}")
    elif not reports:
        print(f"{ME}: no report from nsys (exit status {nsys_status}): the window never opened. "
              "Was the program built with the capture-window plugin, does the marked loop reach "
              "START, and did CAPTURE_WINDOW_LOOPS leave it active?")
        status = 1
    else:
        # Each report is judged against the window its steps began at, not
        # the k-th: a capture of the program's own would shift the rest.
        results = [check_report(report, label, wanted or windows or None) for report in reports]
        for r in results:
            print(f"{r['report']}: {r['verdict']}")
            status = status if r["ok"] else 1
        for start, count in unreported(windows, results):
            print(f"{ME}: window {start}:{count}: {no_report(reports, windows)}")
            status = 1
        if reason:
            print(f"{ME}: reports although {reason}")
            status = 1
    return nsys_ended(nsys_status, status)
