"""common.py - what the commands share: usage errors, the nsys to run,
numbers and ranges as the verdicts write them."""
import os
import re
import sys

from . import __doc__ as HELP

ME = "capture-window"


class Usage(Exception):
    """Bad usage: the message (if any) is printed, the exit status is 2."""


class BadArguments(Usage):
    """A verb's missing or bad arguments: the message (if any), then the
    verb's own synopsis, which the command adds (it knows the verb)."""


def usage():
    """The synopsis: the manual's second paragraph."""
    return Usage(HELP.strip().split("\n\n")[1])


def verb_synopsis(verb):
    """VERB's lines of the manual's synopsis, with their continuations."""
    return verb_help(verb).split("\n\n")[0]


def verb_help(verb):
    """VERB's part of the manual (this package's docstring): its synopsis
    lines, with their continuations, and the paragraphs that begin with it."""
    synopsis, mine = [], False
    for line in HELP.strip().split("\n\n")[1].splitlines():
        if line.startswith("  " + ME):
            mine = line.startswith(f"  {ME} {verb} ")
        if mine:
            synopsis.append(line)
    paragraphs = [p.strip("\n") for p in HELP.split("\n\n")[2:]]
    return "\n\n".join(["usage:\n" + "\n".join(synopsis),
                        *(p for p in paragraphs if p.startswith(verb + " "))])


def nsys_command():
    return os.environ.get("NSYS") or "nsys"


# nsys's options for a capture window, in the one place they are written:
# (the option's names, its words; RANGE_END is filled in, and whether a
# suggested command line, plan's, writes it too: the others are profile's
# conveniences, a report written afresh and a CUDA graph's kernels each).
NSYS_DEFAULTS = (
    (("-t", "--trace"), ("-t", "cuda,nvtx"), True),
    (("-c", "--capture-range"), ("-c", "cudaProfilerApi"), True),
    (("--capture-range-end",), ("--capture-range-end=RANGE_END",), True),
    (("-f", "--force-overwrite"), ("-f", "true"), False),
    (("--cuda-graph-trace",), ("--cuda-graph-trace=node",), False),   # nsys: the graph whole
)


def nsys_defaults(nsys_opts, range_end, suggested=False):
    """The nsys options to add, each unless NSYS_OPTS gives that option
    (SUGGESTED: only those a suggested command line writes)."""
    def given(names):
        return any(w in names or any(w.startswith(n + "=") for n in names if n.startswith("--"))
                   for w in nsys_opts)
    return [w.replace("RANGE_END", range_end) for names, words, in_line in NSYS_DEFAULTS
            if (in_line or not suggested) and not given(names) for w in words]


# The problems a verdict names, shared by check (report.py) and profile
# --tool ncu (ncu.py): name -> its message, filled from the report (the
# --json object's "problem" is the name). docs/cli.md lists them.
PROBLEMS = {
    "missing": "no such report",
    "never_closed": "report is {size}: the window never closed (nsys recorded until the program "
                    "ended; is the loop shorter than the window, or nsys run without "
                    "-c cudaProfilerApi / -c nvtx?)",
    "export_failed": "nsys export failed: {error}",
    "import_failed": "ncu --import failed: {error}",
    "no_kernels": "no kernels captured: the window closed before any GPU work (or nsys ran "
                  "without -t cuda); {size}",
    "none_profiled": "no kernels profiled: did the window open (a program built with the plugin, "
                     "a loop that reaches START)? {size}",
    "no_ranges": "no {label}#i ranges: was the program built with the capture-window plugin, nsys "
                 "run with -t nvtx, and is the loop's label '{label}' (--label)? {tail}",
    "other_steps": "found {found}, expected {count}{want}",
    "own_capture": "found {found}, but {outside}: the capture was not the runtime's (does the "
                   "program call cudaProfilerStart itself?); profile with -c nvtx -p {label}, "
                   "whose capture only the window starts",
    "several_windows": "found {found}: several windows in one report (use "
                       "--capture-range-end=repeat for a report per window)",
    "outside_window": "{outside} of {kernels} ran outside window '{label}' (ncu run without "
                      "--profile-from-start off, or another thread's kernels?)",
    "steps_unknown": "found {found}; {own} of {kernels} lie under ranges of the program's own, "
                     "whose step only their whole NVTX stack names, and that needs Nsight "
                     "Compute's Python interface: {why}",
    "missed_event": "found {found}, {aim}, but no step differs from the others, in its work or "
                    "its time: the event fell outside the window; {tail}",
    "not_steady": "{odd}: not steady state{why}",
}


def problem(name, **fields):
    """(NAME, its message filled with FIELDS): what a verdict returns."""
    return name, PROBLEMS[name].format(**fields)


def say(line):
    """LINE on stderr in one write of the whole line, as the runtime writes
    its own: ranks that share one stderr (torchrun, mpirun --tag-output)
    never cut each other's lines, which print(..., file=sys.stderr) does
    (the text and its newline go out apart)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def cannot_run(command, error, variable, tool):
    """The line for a tool that would not start: which variable names it."""
    return f"cannot run {command}: {error.strerror} ({variable} names the {tool} to run)"


def version():
    """The project's version. Its one place is the top CMakeLists.txt's
    project(VERSION): read there in the source tree; installed by CMake,
    _version.py, which the build writes from it; installed from the wheel,
    the wheel's metadata (make_wheel.py checks that it is the same)."""
    try:
        from ._version import VERSION
        return VERSION
    except ImportError:
        pass
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "CMakeLists.txt")
    try:
        with open(top) as f:
            m = re.search(r"^project\(capture_window\s+VERSION\s+([0-9.]+)", f.read(), re.M)
        if m:
            return m.group(1)
    except OSError:
        pass
    from importlib import metadata
    try:
        return metadata.version("capture-window")
    except metadata.PackageNotFoundError:
        return "unknown (neither installed nor in its source tree)"


def human(size):
    """4.2 MB, 63.9 kB, 812 bytes."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def duration(ns):
    """A duration by the one unit rule (docs/environment.md, "Durations";
    runtime/stats.c cw_format_duration is the same): whole nanoseconds
    below 1 us, else 3 significant digits in the largest of us, ms and s
    that keeps the number at 1 or more: 850 ns, 1.23 us, 45.6 ms, 508 us."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale * 0.9995:       # what rounds to 1.00 in this unit
            v = ns / scale
            digits = 0 if abs(v) >= 99.95 else 1 if abs(v) >= 9.995 else 2
            return f"{v:.{digits}f} {unit}"
    return f"{ns:.0f} ns"


def durations(values):
    """Durations in the unit of the largest, each by the rule of duration():
    '6.00, 9.00, 14.0, 21.0 ms'."""
    unit, scale = next(((u, f) for u, f in (("s", 1e9), ("ms", 1e6), ("us", 1e3))
                        if max(values) >= f * 0.9995), ("ns", 1))

    def number(v):
        x = v / scale
        return f"{x:.{0 if x >= 99.95 or unit == 'ns' else 1 if x >= 9.995 else 2}f}"
    return ", ".join(map(number, values)) + f" {unit}"


def duration_range(values):
    """19.0 ms, or 18.0-21.0 ms when they differ as written (each by duration())."""
    low, high = duration(min(values)), duration(max(values))
    if low == high:
        return low
    if low.split()[1] == high.split()[1]:
        return f"{low.split()[0]}-{high}"
    return f"{low}-{high}"


def commas(n):
    return f"{n:,}"


def plural(n, word):
    """1 step, 2 steps, 1,000 steps."""
    return f"{commas(n)} {word}{'' if n == 1 else 's'}"


def spans(indexes):
    """Sorted unique indexes as ranges: "30-32" or "10-11,40-42"."""
    pieces, run = [], []
    for i in sorted(set(indexes)):
        if run and i != run[-1] + 1:
            pieces.append(run)
            run = []
        run.append(i)
    if run:
        pieces.append(run)
    return ",".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in pieces)


def and_list(indexes):
    """30 and 32; 30-32; 10-11, 20 and 40-42."""
    pieces = spans(indexes).split(",")
    return pieces[0] if len(pieces) == 1 else ", ".join(pieces[:-1]) + " and " + pieces[-1]


def option_value(args, i, name):
    """The value of option args[i] (NAME VALUE or NAME=VALUE) and the next index."""
    if args[i] == name:
        if i + 1 >= len(args):
            raise BadArguments(f"{ME}: {name} needs a value")
        return args[i + 1], i + 2
    return args[i][len(name) + 1:], i + 1


def program_name(program):
    """A report's default name: the program's base name, or the script's
    (without .py) when the program is a Python interpreter: `python
    train.py`, `python -m capture_window --loop SPEC train.py`."""
    name = os.path.basename(program[0])
    if not re.fullmatch(r"python[0-9.]*", name):
        return name
    words = program[1:]
    if words[:2] == ["-m", "capture_window"]:
        words = words[2:]
        while words and words[0].startswith("--loop"):
            words = words[1 if "=" in words[0] else 2:]
    elif words[:1] == ["-m"] and len(words) > 1:
        return words[1].rsplit(".", 1)[-1]
    script = next((w for w in words if not w.startswith("-")), None)
    return os.path.splitext(os.path.basename(script))[0] if script else name
