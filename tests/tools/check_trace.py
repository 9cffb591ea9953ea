#!/usr/bin/env python3
"""check_trace.py - check a capture-window event record.

The record is what tests/recorder writes into $CW_RECORD: one line per event,
in the global order the events happened, from the NVTX recorder
(libcw_nvtx_recorder.so) and the stand-in CUDA driver (libcuda.so.1):

    T<tid> push ascii step#3        T<tid> mark ascii step@3
    T<tid> push registered step     T<tid> pop
    T<tid> profiler start           T<tid> profiler stop
    T<tid> push@DOMAIN ascii x      (an event of a domain other than the default)
    T<tid> register step            T<tid> domain NAME     (bookkeeping, not events)

Two kinds of check:

(a) Invariants that hold for every run of every test program (contract
    sections 2 and 3), given the trigger mode and each label's windows:
    - per thread and domain, ranges are balanced;
    - each iteration range `L#i` (an ASCII push in the default domain whose
      label L is a marked loop's) directly contains exactly one program mark
      `L@i` (the test programs mark `L@i` at the top of each body with their
      own counter), and every program mark `L@i` of a label that has
      iteration ranges sits directly inside `L#i`;
    - per thread and label, the `L#i` indexes run 0, 1, 2, ... with no gap;
    - `L#i` sits directly under a registered `L` range iff i lies in one of
      L's windows (modes both and nvtx) - except after that window closed
      early because the loop was left, and for an `L#i` directly inside
      another `L#j` (the body re-entered its own loop: the window range
      there is popped only at the level that pushed it); a registered `L`
      contains nothing but `L#i` ranges directly, and the mark
      `L:aimed-every-N` of a window aimed at a periodic event;
    - profiler (modes both and cuda), scanning the whole file in order: a
      start only while the profiler is off and no window is open in any
      thread, a stop only while it is on and every window is closed, so one
      start/stop pair per group of overlapping windows; in mode both the
      starting thread's next event is its window push, the stopping thread's
      previous event is its window pop, and window pushes and pops happen
      only while the profiler is on; in mode cuda no registered range at all;
      in mode nvtx no profiler call; in mode off neither, nor any `L#i`;
    - with trigger cuda, the first iteration of a window runs while the
      profiler is on;
    - at the end the profiler is off.

(b) The exact per-thread event sequence, written in a compact notation:

    NAME(  ... )   ASCII push of NAME ... its pop
    NAME[  ... ]   push of NAME as a registered string ... its pop
    ~NAME( ... )   push with a wide (unicode) message
    .              program mark derived from the enclosing ASCII range:
                   inside `step#3(` it means the mark `step@3`
    .TEXT          ASCII mark TEXT;  .^TEXT registered;  .~TEXT wide
    S  E           CUDA profiler start / stop in this thread
    S? E?          an optional profiler start / stop (which of several
                   threads starts or stops the profiler is a race)
    {DOM}X         event X in domain DOM instead of the default domain

    NAME is [A-Za-z0-9_] followed by [A-Za-z0-9_.#@:/-]*; a name ends at a
    bracket, so write `.step@0 .` (with a space) for two marks.
    Repetition: a range whose name ends in `#A..B` stands for the same group
    for i = A..B with `#i`, e.g. `step#0..2(.)` is
    `step#0(.) step#1(.) step#2(.)`; likewise `.step@0..2` is three marks.

    Example (loop of 4 iterations, window 2:1):
      step#0..1(.) S step[ step#2(.) ] E step#3(.)

    In a test source (see run_program_test.py for the driver):
      // cw-run: CAPTURE_WINDOW=1:2          starts a run; env VAR=VALUE words
      // cw-expect: step#0(.) ...            this thread's sequence (lines join)
      // cw-thread: step#0(.) ...            starts another thread's sequence;
                                             threads match as a multiset
    A run with no cw-expect/cw-thread lines expects no events at all.

    Open at exit (`--open-at-exit`, for a program that calls exit() inside
    a window): ranges still open when the record ends are written without
    their closing bracket, `step#0..1(.) S step[ step#2(. E`; the balance
    check is off, and the profiler stop may come while a window is open
    provided it is the record's last event (the runtime's exit handler).

Usage:
    check_trace.py RECORD --expect 'TOKENS' [--expect-thread 'TOKENS' ...]
                   [--mode both|cuda|nvtx|off|none] [--window L=S:C[,S:C]] ...
                   [--no-profiler] [--open-at-exit]
Exit status 0 when every check passes; otherwise the problems are printed.
"""

import argparse
import itertools
import os
import re
import sys

# ---------------------------------------------------------------- events


class Event:
    """One recorded or expected event.

    verb: push, pop, mark, start (profiler), stop (profiler),
          rangestart, rangeend.
    """

    __slots__ = ("tid", "verb", "domain", "kind", "text", "optional", "line")

    def __init__(self, verb, domain="", kind="", text="", tid=None,
                 optional=False, line=0):
        self.verb = verb
        self.domain = domain
        self.kind = kind
        self.text = text
        self.tid = tid
        self.optional = optional
        self.line = line

    def key(self):
        return (self.verb, self.domain, self.kind, self.text)

    def __str__(self):
        if self.verb in ("start", "stop"):
            s = "profiler " + self.verb
        else:
            s = self.verb
            if self.domain:
                s += "@" + self.domain
            if self.kind:
                s += " " + self.kind
            if self.text:
                s += " " + self.text
        if self.optional:
            s += " (optional)"
        return s


LINE_RE = re.compile(r"^T(\d+) (\S+?)(?:@(\S*?))?(?:#(\d+))?(?: (.*))?$")


def parse_record(text):
    """Return (events, problems). Bookkeeping lines are dropped."""
    events, problems = [], []
    for n, raw in enumerate(text.splitlines(), 1):
        m = LINE_RE.match(raw)
        if not m:
            problems.append("record line %d is malformed: %r" % (n, raw))
            continue
        tid, verb, domain, rid, rest = m.groups()
        domain = domain or ""
        rest = rest or ""
        if verb in ("register", "domain"):
            continue
        if verb == "profiler":
            if rest not in ("start", "stop"):
                problems.append("record line %d: unknown profiler call %r" % (n, raw))
                continue
            events.append(Event(rest, tid=int(tid), line=n))
            continue
        if verb in ("push", "mark", "rangestart"):
            kind, _, msg = rest.partition(" ")
            if kind not in ("ascii", "registered", "unicode", "none"):
                problems.append("record line %d: unknown message kind %r" % (n, raw))
                continue
            if kind == "registered" and msg.startswith("?"):
                problems.append("record line %d: registered message with a handle "
                                "that was never registered: %r" % (n, raw))
            events.append(Event(verb, domain, kind, msg if verb != "rangestart"
                                else msg + "#" + (rid or ""), tid=int(tid), line=n))
            continue
        if verb in ("pop", "rangeend"):
            text = (rid or "") if verb == "rangeend" else ""
            events.append(Event(verb, domain, "", text, tid=int(tid), line=n))
            continue
        problems.append("record line %d: unknown event %r" % (n, raw))
    return events, problems


# -------------------------------------------------------------- notation

NAME_START = re.compile(r"[A-Za-z0-9_]")
NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.#@:/-]*")
REPEAT_RE = re.compile(r"^(.*)([#@])(\d+)\.\.(\d+)$")


class NotationError(Exception):
    pass


def _parse_seq(text, pos, closer, allow_open=False):
    """Parse tokens until `closer` (or end). Return (nodes, pos, closed);
    closed is False for a range left open at the end (allow_open only)."""
    nodes = []
    n = len(text)
    while True:
        while pos < n and text[pos].isspace():
            pos += 1
        if pos >= n:
            if closer and not allow_open:
                raise NotationError("missing %r at end of %r" % (closer, text))
            return nodes, pos, not closer
        domain = ""
        if text[pos] == "{":
            end = text.find("}", pos)
            if end < 0:
                raise NotationError("unclosed { at %d in %r" % (pos, text))
            domain = text[pos + 1:end]
            pos = end + 1
        c = text[pos]
        if c in ")]":
            if domain:
                raise NotationError("put the domain on the push, not the pop: %r" % text)
            if c != closer:
                raise NotationError("%r at %d does not match the open range in %r"
                                    % (c, pos, text))
            return nodes, pos + 1, True
        if c == ".":
            pos += 1
            kind = "ascii"
            if pos < n and text[pos] in "^~":
                kind = "registered" if text[pos] == "^" else "unicode"
                pos += 1
            m = NAME_RE.match(text, pos)
            if m:
                nodes.append(("mark", domain, kind, m.group(0)))
                pos = m.end()
            elif kind != "ascii":
                raise NotationError("mark kind without text at %d in %r" % (pos, text))
            else:
                nodes.append(("mark", domain, "derived", None))
            continue
        kind = "ascii"
        if c == "~":
            kind = "unicode"
            pos += 1
        m = NAME_RE.match(text, pos)
        if not m:
            raise NotationError("unexpected %r at %d in %r" % (text[pos], pos, text))
        name, pos = m.group(0), m.end()
        nxt = text[pos] if pos < n else ""
        if nxt and nxt in "([":
            if nxt == "[":
                if kind != "ascii":
                    raise NotationError("~ with [ in %r" % text)
                kind = "registered"
            children, pos, closed = _parse_seq(text, pos + 1, ")" if nxt == "(" else "]",
                                               allow_open)
            nodes.append(("push", domain, kind, name, children, closed))
            continue
        if name in ("S", "E") and kind == "ascii" and not domain:
            optional = nxt == "?"
            if optional:
                pos += 1
            nodes.append(("prof", "start" if name == "S" else "stop", optional))
            continue
        raise NotationError("%r at %d is neither a range, a mark nor S/E in %r"
                            % (name, pos - len(name), text))


def _flatten(nodes, parent, out):
    for node in nodes:
        if node[0] == "prof":
            out.append(Event(node[1], optional=node[2]))
        elif node[0] == "mark":
            _, domain, kind, text = node
            if kind == "derived":
                if not parent or "#" not in parent:
                    raise NotationError("'.' needs an enclosing NAME#i( range, not %r"
                                        % parent)
                label, _, idx = parent.rpartition("#")
                out.append(Event("mark", domain, "ascii", "%s@%s" % (label, idx)))
                continue
            m = REPEAT_RE.match(text)
            if m and m.group(2) == "@":
                for i in range(int(m.group(3)), int(m.group(4)) + 1):
                    out.append(Event("mark", domain, kind, "%s@%d" % (m.group(1), i)))
            else:
                out.append(Event("mark", domain, kind, text))
        else:
            _, domain, kind, name, children, closed = node
            m = REPEAT_RE.match(name)
            names = [name]
            if m and m.group(2) == "#":
                names = ["%s#%d" % (m.group(1), i)
                         for i in range(int(m.group(3)), int(m.group(4)) + 1)]
            for nm in names:
                out.append(Event("push", domain, kind, nm))
                _flatten(children, nm if kind == "ascii" else parent, out)
                if closed:
                    out.append(Event("pop", domain))


def parse_notation(text, allow_open=False):
    """Expected event list for one thread; allow_open: ranges may be left
    open at the end (--open-at-exit)."""
    nodes, _, _ = _parse_seq(text, 0, None, allow_open)
    out = []
    _flatten(nodes, None, out)
    return out


# ---------------------------------------------------------- comparisons


def match_sequence(expected, actual):
    """True when `actual` equals `expected` with optional events dropped
    or kept. Simple DP; the lists are short."""
    if not any(e.optional for e in expected):
        return len(expected) == len(actual) and all(
            e.key() == a.key() for e, a in zip(expected, actual))
    n, m = len(expected), len(actual)
    ok = [[False] * (m + 1) for _ in range(n + 1)]
    ok[n][m] = True
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            r = False
            if i < n:
                e = expected[i]
                if e.optional and ok[i + 1][j]:
                    r = True
                elif j < m and e.key() == actual[j].key() and ok[i + 1][j + 1]:
                    r = True
            ok[i][j] = r
    return ok[0][0]


def describe_difference(expected, actual):
    """A short text showing where two sequences part."""
    exp = [e for e in expected]
    i = 0
    while i < len(exp) and i < len(actual) and exp[i].key() == actual[i].key():
        i += 1
    lines = ["  first difference at event %d:" % i,
             "    expected: %s" % (str(exp[i]) if i < len(exp) else "(end)"),
             "    actual:   %s" % (str(actual[i]) if i < len(actual) else "(end)")]
    return "\n".join(lines)


def to_notation(events):
    """Render a thread's events in the notation, for messages."""
    out, stack, opened = [], [], []
    for e in events:
        dom = "{%s}" % e.domain if e.domain else ""
        if e.verb == "push":
            pre = "~" if e.kind == "unicode" else ""
            br = "[" if e.kind == "registered" else "("
            stack.append("]" if br == "[" else ")")
            opened.append("%s%s%s%s" % (dom, pre, e.text or "?", br))
            out.append(opened[-1])
        elif e.verb == "pop":
            out.append(stack.pop() if stack else "<pop>")
            if opened:
                opened.pop()
        elif e.verb == "mark":
            pre = {"registered": "^", "unicode": "~"}.get(e.kind, "")
            m = MARK_RE.match(e.text) if e.kind == "ascii" and not e.domain else None
            if m and opened and opened[-1] == "%s#%s(" % m.groups():
                out.append(".")
            else:
                out.append("%s.%s%s" % (dom, pre, e.text))
        elif e.verb in ("start", "stop"):
            out.append("S" if e.verb == "start" else "E")
        else:
            out.append("<%s>" % e)
    text = " ".join(out)
    return re.sub(r"([(\[]) (?=[.)\]])|(\.) (?=[)\]])", r"\1\2", text)


def by_thread(events):
    threads = {}
    for e in events:
        threads.setdefault(e.tid, []).append(e)
    return threads


ITERATION_RE = re.compile(r"^(.+)#\d+$")


def window_steps_view(expected):
    """An expected sequence written for CAPTURE_WINDOW_STEPS=all, as
    CAPTURE_WINDOW_STEPS=window emits it: an iteration range `L#i` stays
    only if it begins while this thread has the window range `L` open;
    the others leave their contents in place. For the trigger modes that
    push window ranges (both, nvtx)."""
    out, stack = [], []  # stack: (push event, kept)
    for e in expected:
        if e.verb == "push":
            m = ITERATION_RE.match(e.text) if e.kind == "ascii" and not e.domain else None
            keep = not m or any(kept and p.kind == "registered" and not p.domain
                                and p.text == m.group(1) for p, kept in stack)
            stack.append((e, keep))
        elif e.verb == "pop" and stack:
            keep = stack.pop()[1]
        else:
            keep = True
        if keep:
            out.append(e)
    return out


def check_expected(events, expected_threads, open_at_exit=False, window_steps=False):
    """(b): the multiset of per-thread sequences equals the expected one;
    window_steps: the expected sequences are written for
    CAPTURE_WINDOW_STEPS=all, the record is of a =window run."""
    threads = by_thread(events)
    tids = list(threads)
    expected_threads = [t for t in expected_threads if t.strip()]
    exp = [parse_notation(t, open_at_exit) for t in expected_threads]
    if window_steps:
        exp = [window_steps_view(e) for e in exp]
    if len(tids) != len(exp):
        return ["expected %d thread(s) with events, the record has %d:\n%s"
                % (len(exp), len(tids), render_threads(threads))]
    fits = [[match_sequence(e, threads[t]) for e in exp] for t in tids]
    for perm in itertools.permutations(range(len(exp))):
        if all(fits[k][perm[k]] for k in range(len(tids))):
            return []
    problems = []
    if len(exp) == 1:
        problems.append("event sequence differs\n  expected: %s\n  actual:   %s\n%s"
                        % (expected_threads[0].strip(), to_notation(threads[tids[0]]),
                           describe_difference(exp[0], threads[tids[0]])))
    else:
        problems.append("no assignment of the expected thread sequences matches\n"
                        "  expected:\n%s\n  actual:\n%s"
                        % ("\n".join("    " + t.strip() for t in expected_threads),
                           render_threads(threads)))
    return problems


def render_threads(threads):
    return "\n".join("    T%s: %s" % (tid, to_notation(ev)) for tid, ev in threads.items())


# ---------------------------------------------------------- invariants

ITER_RE = re.compile(r"^(.+)#(\d+)$")
# The runtime's mark of a window aimed at a periodic event (docs/nsys.md):
# not the program's own.
AIM_RE = re.compile(r"([A-Za-z0-9_.-]+):aimed-every-[1-9][0-9]*")
MARK_RE = re.compile(r"^(.+)@(\d+)$")


class Node:
    __slots__ = ("event", "children", "parent")

    def __init__(self, event, parent):
        self.event = event
        self.children = []
        self.parent = parent


def build_trees(events, problems, open_at_exit=False):
    """Per thread, the default-domain forest; balance of every domain
    (ranges open at the end are allowed with open_at_exit)."""
    roots = {}
    stacks = {}      # (tid, domain) -> list of Node (default) or events
    open_ids = {}
    for e in events:
        root = roots.setdefault(e.tid, Node(None, None))
        st = stacks.setdefault((e.tid, e.domain), [])
        cur = st[-1] if st else root
        if e.verb == "rangestart":
            open_ids[e.text.rpartition("#")[2]] = e
            continue
        if e.verb == "rangeend":
            if open_ids.pop(e.text, None) is None:
                problems.append("record line %d: range end of an unknown id" % e.line)
            continue
        if e.domain and e.verb in ("push", "pop", "mark"):
            if e.verb == "push":
                st.append(Node(e, None))
            elif e.verb == "pop":
                if not st:
                    problems.append("record line %d: T%d pops domain %s with no open range"
                                    % (e.line, e.tid, e.domain))
                else:
                    st.pop()
            continue
        node = Node(e, cur)
        if e.verb == "pop":
            if not st:
                problems.append("record line %d: T%d pops with no open range"
                                % (e.line, e.tid))
            else:
                st[-1].children.append(node)  # keep the pop as the range's last child
                st.pop()
            continue
        cur.children.append(node)
        if e.verb == "push":
            st.append(node)
    for (tid, domain), st in stacks.items():
        if st and not open_at_exit:
            problems.append("T%d ends with %d open range(s)%s: %s"
                            % (tid, len(st), " in domain " + domain if domain else "",
                               ", ".join(str(n.event) for n in st)))
    for rid, e in open_ids.items():
        problems.append("record line %d: range %s never ended" % (e.line, rid))
    return roots


def walk(node):
    for c in node.children:
        yield c
        yield from walk(c)


def window_of(i, windows):
    for s, c in windows:
        if s <= i < s + c:
            return (s, c)
    return None


def in_windows(i, windows):
    return any(s <= i < s + c for s, c in windows)


def window_steps_ranged(node, mode, mark, windows):
    """With CAPTURE_WINDOW_STEPS=window, whether the iteration of program
    mark MARK (L@i) at NODE has its L#i range: it has if it began while
    the window was open, which in modes with window ranges means under an
    open registered L (a window closed early, when the loop was left, no
    longer covers the rest of its span); in mode cuda, by the windows."""
    if mode not in ("both", "nvtx"):
        return in_windows(int(mark.group(2)), windows.get(mark.group(1), []))
    parent = node.parent
    while parent is not None and parent.event is not None:
        e = parent.event
        if e.verb == "push" and e.kind == "registered" and not e.domain \
                and e.text == mark.group(1):
            return True
        parent = parent.parent
    return False


def iteration_labels(events, labels, mode, problems):
    """The labels of the iteration ranges in EVENTS; each must have a known
    window, and none may be ranged (nor the profiler driven) with capture off."""
    iter_labels = set()
    for e in events:
        m = ITER_RE.match(e.text) if e.verb == "push" and e.kind == "ascii" \
            and not e.domain else None
        if m:
            iter_labels.add(m.group(1))
            if m.group(1) not in labels:
                problems.append("record line %d: iteration range %r of a label with "
                                "no known window (declare it: // cw-windows: %s=S:C)"
                                % (e.line, e.text, m.group(1)))
    if mode == "off":
        for e in events:
            if e.verb in ("start", "stop") or (e.verb == "push" and e.kind == "registered"):
                problems.append("record line %d: %s in a run with capture off"
                                % (e.line, e))
        for lab in sorted(iter_labels & labels):
            problems.append("iteration ranges of %r in a run with capture off" % lab)
    return iter_labels


class Invariants:
    """One run's facts that check_invariants' per-node checks share."""

    def __init__(self, events, mode, windows, steps, problems):
        self.mode, self.windows, self.steps = mode, windows, steps
        self.labels = set(windows)
        self.problems = problems
        self.iter_labels = iteration_labels(events, self.labels, mode, self.problems)
        self.marked_labels = {m.group(1) for e in events
                              for m in [MARK_RE.match(e.text) if e.verb == "mark"
                                        and not e.domain else None] if m}

    def program_mark(self, node, tid):
        """A program mark L@i sits directly in the range of iteration i when
        that iteration is ranged, and in no range of L#i when it is not."""
        e = node.event
        m = MARK_RE.match(e.text)
        ranged = m and m.group(1) in self.iter_labels and (
            self.steps == "all" or (self.steps == "window" and
                                    window_steps_ranged(node, self.mode, m, self.windows)))
        if m and m.group(1) in self.labels and self.steps != "all" and not ranged:
            p = node.parent.event
            pm = ITER_RE.match(p.text or "") if p and p.verb == "push" else None
            if pm and pm.group(1) == m.group(1):  # another loop's range may hold it
                self.problems.append("record line %d: program mark %r of T%d is inside "
                                     "%r, but steps=%s ranges no such iteration"
                                     % (e.line, e.text, tid, p.text, self.steps))
        if ranged:
            p = node.parent.event
            want = "%s#%s" % (m.group(1), m.group(2))
            if not (p and p.verb == "push" and p.kind == "ascii" and p.text == want):
                self.problems.append("record line %d: program mark %r of T%d is not "
                                     "directly inside %r (it is inside %s)"
                                     % (e.line, e.text, tid, want,
                                        repr(p.text) if p else "no range"))

    def window_range(self, node, tid):
        """A window range holds only its loop's iterations, its aim mark and
        (steps off) the program's marks; never with trigger cuda."""
        e = node.event
        if e.text in self.labels:
            for c in node.children:
                ce = c.event
                if ce.verb == "pop":
                    continue
                m = ITER_RE.match(ce.text) if ce.verb == "push" else None
                mark = ce.verb == "mark" and self.steps == "off" and \
                    (MARK_RE.match(ce.text or "") or [None, None])[1] == e.text
                aim = ce.verb == "mark" and ce.kind == "ascii" and \
                    (AIM_RE.fullmatch(ce.text or "") or [None, None])[1] == e.text
                if not mark and not aim and not (m and ce.kind == "ascii" and m.group(1) == e.text):
                    self.problems.append("record line %d: window range %r of T%d "
                                         "directly contains %s" % (ce.line, e.text, tid, ce))
        if self.mode == "cuda":
            self.problems.append("record line %d: registered range %r with trigger cuda"
                                 % (e.line, e.text))

    def iteration(self, node, tid, label, i, counters, opened):
        """Iteration I of LABEL: its index in order, its program marks, and
        directly under the window range exactly when inside a window."""
        e, windows = node.event, self.windows
        want = counters.get(label, 0)
        if self.steps == "window" and i >= want and in_windows(i, windows[label]):
            want = i  # iterations outside windows have no range
        if i != want:
            self.problems.append("record line %d: T%d iteration %r, expected index %d "
                                 "(indexes count 0, 1, 2, ... per thread and loop)"
                                 % (e.line, tid, e.text, want))
        counters[label] = i + 1
        marks = [c.event for c in node.children if c.event.verb == "mark"
                 and not c.event.domain and MARK_RE.match(c.event.text)
                 and MARK_RE.match(c.event.text).group(1) == label]
        if label in self.marked_labels and [x.text for x in marks] != ["%s@%d" % (label, i)]:
            self.problems.append("record line %d: iteration %r of T%d directly holds "
                                 "program marks %s, expected exactly ['%s@%d']"
                                 % (e.line, e.text, tid, [x.text for x in marks], label, i))
        p = node.parent.event
        if p and p.verb == "push" and p.kind == "ascii" and not p.domain and \
                (ITER_RE.match(p.text or "") or [None, None])[1] == label:
            return  # re-entered from its own body: nested, not under a window
        under = bool(p and p.verb == "push" and p.kind == "registered"
                     and p.text == label and not p.domain)
        inside = in_windows(i, windows[label])
        if under:
            opened.add((label, window_of(i, windows[label])))
        elif inside and (label, window_of(i, windows[label])) in opened:
            inside = False  # that window was closed early: the loop was left
        if self.mode in ("both", "nvtx") and under != inside:
            self.problems.append("record line %d: T%d %r is %s the window range %r, but "
                                 "iteration %d is %s its windows %s"
                                 % (e.line, tid, e.text, "directly under" if under else
                                    "not directly under", label, i,
                                    "inside" if inside else "outside", windows[label]))


def check_invariants(events, mode, windows, profiler_present=True, steps="all",
                     open_at_exit=False):
    """(a): see the module comment. windows: {label: [(start, count), ...]}.
    steps (CAPTURE_WINDOW_STEPS): "all" ranges every iteration, "window"
    only the iterations inside windows, "off" none."""
    problems = []
    roots = build_trees(events, problems, open_at_exit)
    run = Invariants(events, mode, windows, steps, problems)
    for tid, root in roots.items():
        counters, opened = {}, set()
        for node in walk(root):
            e = node.event
            if e.verb == "mark" and e.kind == "ascii" and not e.domain:
                run.program_mark(node, tid)
            if e.verb != "push" or e.domain:
                continue
            if e.kind == "registered":
                run.window_range(node, tid)
                continue
            m = ITER_RE.match(e.text)
            if m and e.kind == "ascii" and m.group(1) in run.labels:
                run.iteration(node, tid, m.group(1), int(m.group(2)), counters, opened)

    if profiler_present:
        problems += check_profiler(events, mode, windows, open_at_exit)
    else:
        for e in events:
            if e.verb in ("start", "stop"):
                problems.append("record line %d: profiler call recorded although no "
                                "driver is loadable" % e.line)
    return problems


def check_profiler(events, mode, windows, open_at_exit=False):
    problems = []
    threads = by_thread(events)
    pos_in_thread = {}
    for tid, ev in threads.items():
        for k, e in enumerate(ev):
            pos_in_thread[id(e)] = (tid, k)
    # What each default-domain pop closes.
    closes, stacks = {}, {}
    for e in events:
        if e.domain:
            continue
        st = stacks.setdefault(e.tid, [])
        if e.verb == "push":
            st.append(e)
        elif e.verb == "pop" and st:
            closes[id(e)] = st.pop()

    def is_window_pop(e):
        o = closes.get(id(e)) if e else None
        return bool(o and o.kind == "registered" and o.text in windows)

    on = False
    open_windows = 0
    for e in events:
        if e.verb in ("start", "stop"):
            if mode in ("nvtx", "off"):
                problems.append("record line %d: profiler %s with trigger %s"
                                % (e.line, e.verb, mode))
                continue
            tid, k = pos_in_thread[id(e)]
            if e.verb == "start":
                if on:
                    problems.append("record line %d: profiler start while it is already on"
                                    % e.line)
                if open_windows:
                    problems.append("record line %d: profiler start while %d window(s) "
                                    "are open" % (e.line, open_windows))
                on = True
                if mode == "both":
                    nxt = threads[tid][k + 1] if k + 1 < len(threads[tid]) else None
                    if not (nxt and nxt.verb == "push" and nxt.kind == "registered"
                            and not nxt.domain):
                        problems.append("record line %d: profiler start of T%d is not "
                                        "followed by its window push (next: %s)"
                                        % (e.line, tid, nxt))
            else:
                if not on:
                    problems.append("record line %d: profiler stop while it is off" % e.line)
                on = False
                if open_at_exit and open_windows and e is events[-1]:
                    continue  # the exit handler's stop, windows still open
                if open_windows:
                    problems.append("record line %d: profiler stop while %d window(s) "
                                    "are still open" % (e.line, open_windows))
                if mode == "both":
                    prev = threads[tid][k - 1] if k > 0 else None
                    if not is_window_pop(prev):
                        problems.append("record line %d: profiler stop of T%d does not "
                                        "directly follow its window pop (previous: %s)"
                                        % (e.line, tid, prev))
            continue
        if e.domain:
            continue
        if e.verb == "push":
            if e.kind == "registered" and e.text in windows:
                open_windows += 1
                if mode == "both" and not on:
                    problems.append("record line %d: window %r opens while the profiler "
                                    "is off" % (e.line, e.text))
            # With trigger cuda, the first iteration of a window runs with the
            # profiler on (with both, the window range checks cover it).
            m = ITER_RE.match(e.text) if e.kind == "ascii" else None
            if m and m.group(1) in windows and mode == "cuda" and not on \
                    and int(m.group(2)) in [s for s, _ in windows[m.group(1)]]:
                problems.append("record line %d: iteration %r of a window runs while the "
                                "profiler is off" % (e.line, e.text))
        elif e.verb == "pop" and is_window_pop(e):
            open_windows -= 1
            if mode == "both" and not on:
                problems.append("record line %d: window %r closes while the profiler "
                                "is off" % (e.line, closes[id(e)].text))
    if on:
        problems.append("the profiler is still on at the end of the run")
    return problems


# ---------------------------------------------------------------- main


def parse_windows(specs):
    windows = {}
    for spec in specs:
        label, _, wins = spec.partition("=")
        lst = windows.setdefault(label, [])
        for w in filter(None, wins.split(",")):  # LABEL= : no windows
            s, _, c = w.partition(":")
            lst.append((int(s), int(c)))
    return windows


def one_window(steps, window, label="step"):
    """The notation of one thread's loop of STEPS iterations, marked by the
    program, with one window (START, COUNT), or None: marks only (an
    unselected rank, capture off). A window that would run past the last
    step closes after it (the loop was left there, or a signal ended it)."""
    if window is None:
        return ".%s@0..%d" % (label, steps - 1)
    start, count = window
    last = min(start + count, steps) - 1
    before = "%s#0..%d(.) " % (label, start - 1) if start > 0 else ""
    after = " %s#%d..%d(.)" % (label, last + 1, steps - 1) if last + 1 < steps else ""
    return "%sS %s[ %s#%d..%d(.) ] E%s" % (before, label, label, start, last, after)


def held_steps(record_text, label="step"):
    """The indexes i of the LABEL#i ranges directly inside a window range
    LABEL, in record order: which steps the windows held."""
    events, _ = parse_record(record_text)
    depth_in_window, steps, depth = None, [], 0
    for e in events:
        if e.verb == "push":
            depth += 1
            if e.kind == "registered" and e.text == label:
                depth_in_window = depth
            elif depth_in_window is not None and depth == depth_in_window + 1:
                steps.append(int(e.text.split("#")[1]))
        elif e.verb == "pop":
            if depth == depth_in_window:
                depth_in_window = None
            depth -= 1
    return steps


def check_rank_records(prefix, ranks, steps, window_of):
    """A job's records, one per rank R at PREFIX.R (CW_RECORD=PREFIX.%q{VAR}),
    each of one loop of STEPS iterations with the window window_of(R) or
    None. Returns ({rank: the steps its windows held}, problems)."""
    held, problems = {}, []
    for rank in range(ranks):
        path = "%s.%d" % (prefix, rank)
        if not os.path.exists(path):
            problems.append("rank %d wrote no record %s" % (rank, path))
            continue
        with open(path) as f:
            text = f.read()
        window = window_of(rank)
        held[rank] = held_steps(text)
        problems += ["rank %d: %s" % (rank, p) for p in check(
            text, [one_window(steps, window)], mode="both" if window else "off",
            windows={"step": [window] if window else []})]
    return held, problems


def check(record_text, expected_threads, mode="both", windows=None,
          profiler_present=True, steps="all", open_at_exit=False,
          expected_steps="all"):
    """All checks; returns a list of problems (empty = pass). open_at_exit:
    the program exits inside a window (see --open-at-exit above).
    expected_steps: the CAPTURE_WINDOW_STEPS the expected sequences are
    written for; "all" with steps "window" applies window_steps_view."""
    events, problems = parse_record(record_text)
    if problems:
        return problems
    problems += check_invariants(events, mode, windows or {}, profiler_present, steps,
                                 open_at_exit)
    if expected_threads is not None:  # None: invariants only
        problems += check_expected(events, expected_threads, open_at_exit,
                                   expected_steps == "all" and steps == "window")
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("record")
    ap.add_argument("--expect", default=None, help="the sequence of the only thread")
    ap.add_argument("--expect-thread", action="append", default=[],
                    help="one thread's sequence (repeat for several threads)")
    ap.add_argument("--mode", default="both", choices=["both", "cuda", "nvtx", "off"])
    ap.add_argument("--window", action="append", default=[], metavar="L=S:C[,S:C]")
    ap.add_argument("--no-profiler", action="store_true",
                    help="no driver was loadable: no profiler calls may appear")
    ap.add_argument("--open-at-exit", action="store_true",
                    help="the program exits inside a window: ranges may stay open")
    a = ap.parse_args(argv)
    threads = ([a.expect] if a.expect else []) + a.expect_thread
    with open(a.record) as f:
        text = f.read()
    try:
        problems = check(text, threads, a.mode, parse_windows(a.window),
                         not a.no_profiler, open_at_exit=a.open_at_exit)
    except NotationError as e:
        problems = ["bad notation: %s" % e]
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
