"""steptimes.py - reads step-time files (docs/environment.md, "Step times"),
strictly: what is not of the format stops the read with `FILE:LINE: what is
wrong` (NotStepTimes, a Usage: exit 2; `FILE: byte N: ...` in format 2).
Its messages name no command: the verb that reads (plan, profile --auto
--from, diff) puts its own name before them.

API (plan, profile --auto and diff use it; keep it stable):
  step_files(paths) -> files      --from's words: files, folders, globs
  read_times(paths, cuts=None, files=None) -> loops (below); CUTS: a list
      to append where a file is cut short; FILES: a list to append a
      FileSteps(path, loops, steps, why) per file; with several paths, a
      file that is empty or not a step-time file is such a FileSteps (WHY
      'empty', 'not_step_times') instead of an error; one with no step
      has WHY 'header_only' (nothing after the header) or 'no_steps'
      (loops but no step)

Format 2, what CAPTURE_WINDOW_TIMES writes: the line
`# capture-window step times 2`, then records of little-endian int64s
  ID, -L, then L bytes: a loop line as in format 1 (ending in a newline)
  ID, N (1..RECORD_STEPS_MAX), then N pairs INDEX, NS: steps of loop ID
  ID, -L, then L bytes "left ID INDEX\n": as in format 1
A record cut short at the end (a run killed mid-write) is dropped, and
the reader says where it was cut (FileReader.cut). Each record is
converted in C (array.frombytes).

Format 1, text, for step times from elsewhere (a log turned into steps):
  # capture-window step times 1         the first line
  loop ID T<THREAD> LABEL FILE:LINE[@INSTANCE]
                                        a loop in a thread, before its steps
                                        (@INSTANCE: a template instantiation's)
  ID INDEX NS                           a step; INDEX rises within a loop
  left ID INDEX                         the loop was left after step INDEX
                                        (an entry ends there; anywhere after
                                        the loop's line)
  # ...                                 comments; blank lines are skipped
A last line without its newline (a run killed mid-write) is dropped, and
said so.

Each loop comes back as {label, file, line, instance, place, thread,
source, index, ns, left}
with index and ns arrays of int64, left the sorted steps after which the
loop was left (where the file says). A run of 1,000,000 steps is read in
blocks: the lines of digits and spaces are checked and converted a block
at a time, in C (bytes methods, map, array); any other line, and any
block that fails a check, goes through the line-by-line reader, which is
the definition of the format and says where it is broken.
"""
import json
import operator
import os
import re
import struct
import sys
from array import array
from itertools import compress

from dataclasses import dataclass

from .common import Usage, plural

HEADER = b"# capture-window step times "
VERSIONS = (b"1", b"2")
RECORD_HEAD = struct.Struct("<qq")
RECORD_STEPS_MAX = 1 << 16
LOOP_LINE_MAX = 1 << 16
BLOCK = 1 << 20
MAX_DIGITS = 18      # every number fits in 63 bits; 10^18 ns is 31 years
NOT_STEP_CHAR = re.compile(rb"[^0-9 \n]")
DIGITS = b"0123456789"
COMMAS = bytes.maketrans(b" \n", b",,")
# A loop's place: FILE:LINE, and @INSTANCE for a template instantiation's
# (whose name may hold ':', as in f<std::string>).
PLACE = re.compile(r"(.*):(\d+)(?:@(.+))?")


class Bad(Exception):
    """A line that is not of the format: its reason."""


class NotStepTimes(Usage):
    """A file that cannot be read as step times: 'FILE:LINE: reason'."""


class NoHeader(NotStepTimes):
    """A file whose first line is not the format's header: WHY is 'empty'
    or 'not_step_times'."""

    def __init__(self, message, why):
        super().__init__(message)
        self.why = why


@dataclass
class FileSteps:
    """What one file held: its loops with steps, their steps, and why it
    holds none (None when it holds some)."""
    path: str
    loops: int
    steps: int
    why: str = None    # 'empty', 'not_step_times', 'header_only', 'no_steps'


def number(word, what):
    if not word.isdigit() or not word.isascii():
        raise Bad(f"{what} '{word.decode(errors='replace')}' is not a whole number >= 0")
    if len(word) > MAX_DIGITS:
        raise Bad(f"{what} '{word.decode()}' has more than {MAX_DIGITS} digits")
    return int(word)


class FileReader:
    """One file's loops, read line by line (line) or a block of step lines
    at a time (steps); both keep the same state."""

    def __init__(self, path):
        self.path, self.by_id, self.loops, self.last = path, {}, [], {}
        self.cut = None  # where the file is cut short, and what is read before it

    def cut_short(self, where):
        read = [len(loop["index"]) for loop in self.loops if loop["index"]]
        before = (f"the {plural(sum(read), 'step')} before it ({plural(len(read), 'loop')}) are read"
                  if read else "no whole step comes before it")
        self.cut = (f"{self.path}: cut short {where}, as a run killed while writing "
                    f"leaves it; {before}")

    def where(self, n, reason):
        """n: the line's number, or "byte N" in format 2."""
        return f"{self.path}{':' if isinstance(n, int) else ': '}{n}: {reason}"

    def fail(self, n, reason):
        raise NotStepTimes(self.where(n, reason))

    def first(self, n, line):
        if not line.startswith(HEADER):
            raise NoHeader(self.where(n, "not a step-times file: its first line is not "
                                         "'# capture-window step times VERSION'"), "not_step_times")
        version = line[len(HEADER):].strip()
        if version not in VERSIONS:
            self.fail(n, f"step-times format version '{version.decode(errors='replace')}' "
                         "is not known (capture-window reads versions 1 and 2)")
        return int(version)

    def line(self, n, line):
        try:
            words = line.split()
            if not words or words[0].startswith(b"#"):
                return
            if words[0] == b"loop":
                self.loop_header(line)
            elif words[0] == b"left":
                self.left(words)
            else:
                self.step(words)
        except Bad as e:
            self.fail(n, e)

    def loop_header(self, line):
        words = line.split(None, 4)
        if len(words) < 5:
            raise Bad("a loop line is 'loop ID T<THREAD> LABEL FILE:LINE'")
        ident = number(words[1], "loop ID")
        if ident in self.by_id:
            raise Bad(f"loop {ident} is defined twice")
        if not (words[2].startswith(b"T") and words[2][1:].isdigit()):
            raise Bad(f"thread '{words[2].decode(errors='replace')}' is not T<NUMBER>")
        thread = number(words[2][1:], "thread")
        place = words[4].rstrip().decode(errors="replace")
        m = PLACE.fullmatch(place)
        if not m or not m.group(1):
            raise Bad(f"'{place}' is not FILE:LINE[@INSTANCE]")
        file, lineno, instance = m.groups()
        loop = {"label": words[3].decode(errors="replace"), "file": file, "line": int(lineno),
                "instance": instance or "", "place": place, "thread": thread, "source": self.path,
                "index": array("q"), "ns": array("q"), "left": []}
        self.by_id[ident] = loop
        self.loops.append(loop)

    def left(self, words):
        """'left ID INDEX': loop ID was left after step INDEX."""
        if len(words) != 3:
            raise Bad("a loop left is 'left ID INDEX'")
        ident, index = number(words[1], "loop ID"), number(words[2], "step index")
        if ident not in self.by_id:
            raise Bad(f"loop {ident} left, which no loop line before it defines")
        self.by_id[ident]["left"].append(index)

    def step(self, words):
        if len(words) != 3:
            raise Bad(f"not a step-times line: {b' '.join(words).decode(errors='replace')!r} "
                      "(a step is 'ID INDEX NS', a loop 'loop ID T<THREAD> LABEL FILE:LINE')")
        ident, index = number(words[0], "loop ID"), number(words[1], "step index")
        ns = number(words[2], "duration")
        loop = self.by_id.get(ident)
        if loop is None:
            raise Bad(f"a step of loop {ident}, which no 'loop {ident} ...' line before it defines")
        last = self.last.get(ident, -1)
        if index <= last:
            raise Bad(f"step {index} of loop {ident} " +
                      ("again" if index == last else f"after step {last}"))
        loop["index"].append(index)
        loop["ns"].append(ns)
        self.last[ident] = index

    def steps(self, n, data):
        """Lines n.. of data (digits, spaces and newlines only, each line
        ended): at C speed when every line is three numbers with one space
        between (the digits taken out, each line is two spaces), and then
        the same as line by line; else line by line."""
        lines = data.count(b"\n")
        if data.translate(None, DIGITS) != b"  \n" * lines or b"\n " in data or b"  " in data \
                or data.startswith(b" "):
            return self.slowly(n, data)
        try:  # JSON reads a list of numbers in C; a leading zero is not JSON (line by line then)
            values = array("q", json.loads(b"[" + data[:-1].translate(COMMAS) + b"]"))
        except (ValueError, OverflowError):
            return self.slowly(n, data)
        if max(values) >= 10 ** MAX_DIGITS:
            return self.slowly(n, data)
        ids, index, ns = values[0::3], values[1::3], values[2::3]
        per_loop = [(ids[0], index, ns)] if ids.count(ids[0]) == len(ids) else [
            (i, array("q", compress_eq(index, ids, i)), array("q", compress_eq(ns, ids, i)))
            for i in sorted(set(ids))]
        for ident, index, ns in per_loop:
            if ident not in self.by_id or not rising(index, self.last.get(ident, -1)):
                return self.slowly(n, data)
        for ident, index, ns in per_loop:
            self.by_id[ident]["index"].extend(index)
            self.by_id[ident]["ns"].extend(ns)
            self.last[ident] = index[-1]

    def slowly(self, n, data):
        for k, line in enumerate(data.split(b"\n")[:-1]):
            self.line(n + k, line)

    def records(self, f, offset):
        """Format 2: the records of file f from byte offset on. The steps
        of each loop are converted at once and checked at once; when a
        check fails, record by record, to say where."""
        data = f.read()
        view, pos = memoryview(data), 0
        pairs = {}  # loop ID -> its steps' pairs, as read
        steps = []  # (byte, loop ID, where its pairs start in pairs[ID], how many)
        record, cut = 0, None  # the record's number; where the file is cut, if it is
        while pos + RECORD_HEAD.size <= len(data):
            record += 1
            ident, n = RECORD_HEAD.unpack_from(data, pos)
            size = -n if n < 0 else 16 * n
            if not (0 < n <= RECORD_STEPS_MAX or 0 < -n <= LOOP_LINE_MAX):
                self.fail(f"byte {offset + pos}", f"not a record: loop {ident}, {n} "
                          f"(a loop line of at most {LOOP_LINE_MAX} bytes, or 1 to "
                          f"{RECORD_STEPS_MAX} steps)")
            body = view[pos + RECORD_HEAD.size:pos + RECORD_HEAD.size + size]
            if len(body) < size:  # what a killed run was writing
                what = f"the text of loop {ident}" if n < 0 else f"{plural(n, 'step')} of loop {ident}"
                cut = (f"at byte {offset + pos}, in record {record} ({what}: "
                       f"{RECORD_HEAD.size + len(body)} of its {RECORD_HEAD.size + size} bytes)")
                break
            try:
                if n < 0 and bytes(body[:5]) == b"left ":
                    self.left_record(ident, bytes(body))
                elif n < 0:
                    self.loop_record(ident, bytes(body))
                    pairs[ident] = array("q")
                elif ident not in pairs:
                    raise Bad(f"steps of loop {ident}, which no loop record before them defines")
                else:
                    steps.append((offset + pos, ident, len(pairs[ident]), 2 * n))
                    pairs[ident].frombytes(body)
            except Bad as e:
                self.fail(f"byte {offset + pos}", e)
            pos += RECORD_HEAD.size + size
        if not cut and pos < len(data):
            cut = (f"at byte {offset + pos}, in record {record + 1} (its head: {len(data) - pos} "
                   f"of {RECORD_HEAD.size} bytes)")
        body = view = data = None  # the file's bytes go before the arrays are made
        if sys.byteorder == "big":
            for values in pairs.values():
                values.byteswap()
        loops = [self.by_id[ident] for ident in pairs]
        for loop, values in zip(loops, pairs.values()):
            loop["index"], loop["ns"] = values[0::2], values[1::2]
        if not all(well_formed(loop["index"], loop["ns"]) for loop in loops):
            for at, ident, start, n in steps:  # the first record that is wrong, in file order
                try:
                    self.step_record(ident, pairs[ident][start:start + n])
                except Bad as e:
                    self.fail(f"byte {at}", e)
        if cut:
            self.cut_short(cut)

    def loop_record(self, ident, line):
        if not line.endswith(b"\n") or b"\n" in line[:-1]:
            raise Bad("a loop record's text is one line, ended by a newline")
        words = line.split(None, 2)
        if len(words) < 2 or words[0] != b"loop" or words[1] != str(ident).encode():
            raise Bad(f"loop {ident}'s record does not hold 'loop {ident} T<THREAD> LABEL FILE:LINE'")
        self.loop_header(line)

    def left_record(self, ident, line):
        words = line.split()
        if not line.endswith(b"\n") or len(words) != 3 or words[1] != str(ident).encode():
            raise Bad(f"loop {ident}'s left record does not hold 'left {ident} INDEX'")
        self.left(words)

    def step_record(self, ident, values):
        """One record's pairs, checked (the reader's path to an error)."""
        index, ns = values[0::2], values[1::2]
        last = self.last.get(ident, -1)
        if not rising(index, last):
            k = next(k for k, i in enumerate(index) if i <= (index[k - 1] if k else last))
            before = index[k - 1] if k else last
            raise Bad(f"step {index[k]} of loop {ident} " +
                      ("again" if index[k] == before else f"after step {before}"))
        if not durations_in_range(ns):
            raise Bad(f"a duration of loop {ident} outside 0 to 10^{MAX_DIGITS} ns: "
                      f"{min(ns) if min(ns) < 0 else max(ns)}")
        self.last[ident] = index[-1]


def well_formed(index, ns):
    """Whether a loop's steps are of format 2: INDEX rising, NS in range."""
    return not index or rising(index, -1) and durations_in_range(ns)


def durations_in_range(ns):
    return min(ns) >= 0 and max(ns) < 10 ** MAX_DIGITS


def compress_eq(values, ids, ident):
    return compress(values, map(ident.__eq__, ids))


def rising(index, last):
    """Whether index (an array) rises strictly from above last."""
    if index[0] <= last:
        return False
    if index[-1] - index[0] == len(index) - 1:  # the usual case: one step after another
        return index == array("q", range(index[0], index[-1] + 1))
    return all(map(operator.lt, index, index[1:]))


def read_file(path, by_lines=False, cuts=None):
    """The loops of one file; by_lines: the line-by-line reader only (the
    tests compare the two); cuts: a list to append the line that says
    where the file is cut short, if it is."""
    reader = FileReader(path)
    loops = read_loops(reader, path, by_lines)
    if reader.cut and cuts is not None:
        cuts.append(reader.cut)
    return loops


def read_loops(reader, path, by_lines):
    n, pending = 1, b""
    with open(path, "rb") as f:
        first = f.readline()
        if not first.endswith(b"\n"):
            raise NoHeader(reader.where(1, "empty: not a step-times file" if not first else
                                        "not a step-times file: its first line is cut short"),
                           "empty" if not first else "not_step_times")
        if reader.first(1, first) == 2:
            reader.records(f, len(first))
            return reader.loops
        n = 2
        while True:
            block = f.read(BLOCK)
            if not block:
                break
            block = pending + block
            cut = block.rfind(b"\n") + 1
            block, pending = block[:cut], block[cut:]
            n = read_block(reader, n, block, by_lines)
    if pending.strip():
        reader.cut_short(f"at line {n} (no newline)")
    return reader.loops


def read_block(reader, n, block, by_lines):
    """Lines n.. of block (ending in a newline) -> the next line's number."""
    if by_lines:
        reader.slowly(n, block)
        return n + block.count(b"\n")
    pos = 0
    while pos < len(block):
        m = NOT_STEP_CHAR.search(block, pos)
        other = block.rfind(b"\n", 0, m.start()) + 1 if m else len(block)
        if other > pos:
            reader.steps(n, block[pos:other])
            n += block.count(b"\n", pos, other)
        if m:
            end = block.index(b"\n", m.start()) + 1
            reader.line(n, block[other:end])
            n, pos = n + 1, end
        else:
            pos = other
    return n


def step_files(paths):
    """The files of --from: each PATH a file; a folder stands for the
    step-time files in it (those whose first line is the format's header);
    a PATH that does not exist but holds * ? or [ is a glob."""
    import glob
    files = []
    for path in paths:
        if os.path.isdir(path):
            inside = sorted(os.path.join(path, name) for name in os.listdir(path))
            found = [p for p in inside if os.path.isfile(p) and starts_with_header(p)]
            if not found:
                raise NotStepTimes(f"{path}: a folder with no step-time file in it (no file "
                            "whose first line is '# capture-window step times ...')")
            files += found
        elif os.path.exists(path):
            files.append(path)
        elif glob.has_magic(path) and glob.glob(path):
            files += sorted(glob.glob(path))
        else:
            raise NotStepTimes(f"no such file: {path}")
    return list(dict.fromkeys(files))


def starts_with_header(path):
    try:
        with open(path, "rb") as f:
            return f.read(len(HEADER)) == HEADER
    except OSError:
        return False


def read_times(paths, by_lines=False, cuts=None, files=None):
    """The loops of the files, in the order their headers come; loops
    without a step are left out. cuts: as read_file's; files: a list to
    append each file's FileSteps to (module docstring)."""
    loops = []
    for path in paths:
        try:
            every = read_file(path, by_lines, cuts)
            found = [l for l in every if l["index"]]
            for loop in found:
                loop["left"].sort()
        except NoHeader as e:
            if files is None or len(paths) == 1:
                raise
            files.append(FileSteps(path, 0, 0, e.why))
            continue
        except OSError as e:
            raise NotStepTimes(f"cannot read {path}: {e.strerror}")
        if files is not None:
            steps = sum(len(l["index"]) for l in found)
            files.append(FileSteps(path, len(found), steps,
                                   None if steps else "no_steps" if every else "header_only"))
        loops += found
    return loops
