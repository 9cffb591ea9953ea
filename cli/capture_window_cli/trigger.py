"""trigger.py - `capture-window trigger PATH (--at STEP | --align N)
[--count C] [--label L] [--wait SECONDS]`: a request to every rank that
watches PATH (CAPTURE_WINDOW_WATCH=PATH), and, with --wait, what each
rank did with it.

The request is written whole to a temporary file in PATH's folder and
renamed over PATH, so a rank reads the old request or the new one, never
part of one (the runtime's runtime/watch.h gives the format). Each rank
answers in PATH.answers/RANK, one line per event (runtime/answers.c);
--wait reads those files until every rank that announced itself there is
done with the request (its window held, missed, or replaced), or SECONDS
pass, then prints one row per rank and a summary line. Exit status: 0
every rank held its window, 1 some did not, 2 bad usage."""
import contextlib
import dataclasses
import io
import os
import re
import secrets
import sys
import tempfile
import time

from .common import ME, Usage, plural, spans
from .runtime import option_number

WHAT = f"{ME}: trigger"
SYNOPSIS = f"usage: {ME} trigger PATH (--at STEP | --align N) [--count C] [--label L] [--wait SECONDS]"
POLL_S = 0.2          # how often --wait reads the answers
ID_RE = re.compile(r"[A-Za-z0-9_.-]{1,63}")


def bad(message):
    return Usage(f"{WHAT}: {message}\n{SYNOPSIS}")


def label_ok(label):
    """The runtime's label rule (loop_spec.h), asked of the library when it
    loads; without it the ranks judge (a bad label is never read)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):   # its line is for loops
            from capture_window import _spec
    except ImportError:
        return True
    return not _spec.LIB or _spec.label_is_valid(label)


def parse(args):
    """The options as a dict; Usage (exit status 2) when they are bad."""
    opts = {"path": None, "at": None, "align": None, "count": 0, "label": "", "wait": None}
    names = {"--at": "at", "--align": "align", "--count": "count", "--label": "label",
             "--wait": "wait"}
    i = 0
    while i < len(args):
        a = args[i]
        name, eq, value = a.partition("=")
        if name in names:
            if not eq:
                if i + 1 >= len(args):
                    raise bad(f"{name} needs a value")
                i, value = i + 1, args[i + 1]
            key = names[name]
            if key == "label":
                if not label_ok(value):
                    raise bad(f"--label must match [A-Za-z0-9_.-]{{1,63}}, got '{value}'")
                opts[key] = value
            elif key == "wait":
                if not re.fullmatch(r"[0-9]+(\.[0-9]*)?", value):
                    raise bad(f"--wait takes seconds (a number >= 0), got '{value}'")
                opts[key] = float(value)
            else:
                opts[key], why = option_number(name, value, 0 if key == "at" else 1)
                if why:
                    raise bad(why)
        elif a.startswith("-") and a != "-":
            raise bad(f"unknown option '{a}'")
        elif opts["path"] is None:
            opts["path"] = a
        else:
            raise bad(f"one PATH, got '{opts['path']}' and '{a}'")
        i += 1
    if opts["path"] is None:
        raise bad("PATH is missing: the file the ranks watch (CAPTURE_WINDOW_WATCH)")
    if (opts["at"] is None) == (opts["align"] is None):
        raise bad("give one of --at STEP and --align N")
    folder = os.path.dirname(opts["path"]) or "."
    if os.path.isdir(opts["path"]) or not os.path.isdir(folder):
        raise bad(f"PATH must be a file in an existing folder, got '{opts['path']}'")
    return opts


def request_text(opts, request_id):
    """The request as runtime/watch.h reads it."""
    lines = ["capture-window request 1", f"id={request_id}",
             f"at={opts['at']}" if opts["at"] is not None else f"align={opts['align']}"]
    if opts["count"]:
        lines.append(f"count={opts['count']}")
    if opts["label"]:
        lines.append(f"label={opts['label']}")
    return "\n".join(lines + ["end", ""])


def write_request(path, text):
    """TEXT to a temporary file beside PATH, then renamed over it."""
    folder = os.path.dirname(path) or "."
    fd, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


# ---- the answers: findings ------------------------------------------------

@dataclasses.dataclass
class LoopAnswer:
    """What one loop (label, thread) of a rank did with the request."""
    loop: str
    thread: str
    seen: int = None           # the iteration it acted in
    at: int = None             # where its window was to open
    opened: int = None
    held: tuple = None         # (first, last)
    missed: str = None         # why: past, window
    replaced_by: str = None


@dataclasses.dataclass
class RankAnswer:
    rank: int
    host: str
    pid: int
    read: bool = False
    loops: list = dataclasses.field(default_factory=list)

    def done(self):
        return bool(self.loops) and all(l.held or l.missed or l.replaced_by for l in self.loops)

    def held(self):
        return bool(self.loops) and all(l.held for l in self.loops)


FIELD = re.compile(r"(\w+)=(\S*)")


def read_answers(folder, request_id):
    """Every rank's answer file in FOLDER, as RankAnswers, for REQUEST_ID."""
    ranks = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return ranks
    for name in names:
        try:
            with open(os.path.join(folder, name)) as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        rank = None
        for line in lines:
            word, _, rest = line.partition(" ")
            fields = dict(FIELD.findall(rest))
            if word == "watching":
                rank = RankAnswer(int(fields.get("rank", -1)), fields.get("host", "?"),
                                  int(fields.get("pid", 0)))
                ranks.append(rank)
            elif rank is None or fields.get("id") != request_id:
                continue
            elif word == "read":
                rank.read = True
            else:
                key = (fields.get("loop"), fields.get("thread"))
                entry = next((l for l in rank.loops if (l.loop, l.thread) == key), None)
                if entry is None:
                    entry = LoopAnswer(*key)
                    rank.loops.append(entry)
                step = int(fields["step"]) if "step" in fields else None
                if word in ("seen", "missed", "replaced"):
                    entry.seen = step
                if word == "seen" or word == "missed":
                    entry.at = int(fields["at"])
                if word == "opened":
                    entry.opened = step
                elif word == "held":
                    entry.held = (int(fields["first"]), int(fields["last"]))
                elif word == "missed":
                    entry.missed = fields.get("why", "?")
                elif word == "replaced":
                    entry.replaced_by = fields.get("by", "?")
    return sorted(ranks, key=lambda r: (r.rank, r.pid))


# ---- the answers: text ---------------------------------------------------

def outcome(rank, entry):
    """What a rank's loop did, in words."""
    if entry is None:
        return "read, no loop acted on it" if rank.read else "not seen"
    if entry.held:
        return "%d-%d" % entry.held
    if entry.missed == "past":
        return f"missed: step {entry.at} was past"
    if entry.missed:
        return f"missed: another window held step {entry.at}"
    if entry.replaced_by:
        return f"replaced by request {entry.replaced_by}"
    if entry.opened is not None:
        return f"opened at {entry.opened}, not closed"
    return f"armed at {entry.at}, not reached"


def table(ranks):
    several = any(len(r.loops) > 1 for r in ranks)
    rows = [["rank", "host"] + (["loop"] if several else []) + ["seen at", "held"]]
    for r in ranks:
        for entry in r.loops or [None]:
            seen = "-" if entry is None or entry.seen is None else str(entry.seen)
            loop = [f"{entry.loop} (thread {entry.thread})" if entry else "-"] if several else []
            rows.append([str(r.rank), r.host] + loop + [seen, outcome(r, entry)])
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


def summary(ranks):
    held = [r for r in ranks if r.held()]
    windows = {}
    for r in held:
        for entry in r.loops:
            windows.setdefault(entry.held, []).append(r.rank)
    if len(windows) == 1:
        (first, last), = windows
        line = f"{len(held)} of {plural(len(ranks), 'rank')} held steps {first}-{last}"
    else:
        line = f"{len(held)} of {plural(len(ranks), 'rank')} held their windows" + (
            ": " + ", ".join(f"steps {a}-{b} (ranks {spans(sorted(set(rs)))})"
                             for (a, b), rs in sorted(windows.items())) if windows else "")
    others = [r for r in ranks if not r.held()]
    if others:
        line += "; not held: " + ", ".join(
            f"rank {r.rank} ({'; '.join(outcome(r, e) for e in r.loops or [None])})"
            for r in others)
    return line


def cmd_trigger(args):
    opts = parse(args)
    request_id = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{os.getpid()}-{secrets.token_hex(2)}"
    assert ID_RE.fullmatch(request_id)
    path = opts["path"]
    write_request(path, request_text(opts, request_id))
    where = (f"at step {opts['at']}" if opts["at"] is not None
             else f"at the next multiple of {opts['align']}")
    print(f"request {request_id} written to {path}: open {where}, "
          + (f"{opts['count']} steps" if opts["count"] else "each loop's COUNT") + ", "
          + (f"loops labelled {opts['label']}" if opts["label"] else "every active loop"))
    if opts["wait"] is None:
        return 0
    folder = path + ".answers"
    deadline = time.monotonic() + opts["wait"]
    while True:
        ranks = read_answers(folder, request_id)
        if (ranks and all(r.done() for r in ranks)) or time.monotonic() >= deadline:
            break
        time.sleep(POLL_S)
    if not ranks:
        print(f"{WHAT}: no rank announced itself in {folder}/ within {opts['wait']:g} s "
              "(is CAPTURE_WINDOW_WATCH set to this PATH, and are the ranks running?)",
              file=sys.stderr)
        return 1
    print("\n".join(table(ranks)))
    print(summary(ranks))
    return 0 if all(r.held() for r in ranks) else 1


def help_text():
    """What `capture-window trigger --help` prints."""
    return SYNOPSIS + "\n\n" + __doc__.split("\n\n", 1)[1]
