"""_zero_edit.py - `python -m capture_window --loop SPEC SCRIPT ARGS`: the
loop on a line of SCRIPT marked with no edit of the file.

Before the script runs, each spec is parsed (the grammar of
docs/zero-edit.md) and its loop looked up in the script's syntax tree: a
line with no loop is an error. The script is then compiled and run as
__main__, and sys.monitoring (Python 3.12+) reports line events of the
one code object holding the loop, and nothing else: the program's other
code runs unobserved. In that code object the lines that say nothing are
switched off where they fire (DISABLE), so a loop's iterations cost two
events, its header's and the first line of its body's:

    header line         the loop is entered, or an iteration ends
    first body line     after a header event: an iteration begins
    any line outside    the loop was left (its else, the code after it, a
                        handler that caught an exception from it)
    return / unwind     the loop was left by return or an exception

Each event makes the calls the wrapper makes (capture_window.loop), to
the same runtime. One limit: a function that recurses into its own
marked loop shares one loop state per thread (the wrapper has none).
"""
import ast
import os
import re
import sys
import threading
import traceback
import types

from . import _runtime

GRAMMAR = "FILE:LINE[:START:COUNT[:LABEL]], e.g. train.py:42:30:3"
HEADER, BODY, OUTSIDE = range(3)


class SpecError(Exception):
    """A spec that marks nothing: printed as it is, exit status 2."""


def parse_spec(spec):
    """FILE:LINE[:START:COUNT[:LABEL]] -> (file, line, start, count, label)."""
    def bad(reason):
        return SpecError("capture_window: bad value '%s' for --loop: %s (expected %s)"
                         % (spec, reason, GRAMMAR))
    fields = spec.split(":")
    if not fields[0]:
        raise bad("FILE is missing")
    if not re.search(r"[./]", fields[0]):
        raise bad("the Python door takes FILE:LINE specs only (a FILE holds a '.' or a '/')")
    if len(fields) < 2:
        raise bad("FILE must be followed by :LINE")
    if len(fields) == 3:
        raise bad("START must be followed by :COUNT")
    if len(fields) > 5:
        raise bad("there are too many fields")
    if not re.fullmatch(r"[0-9]+", fields[1]) or int(fields[1]) < 1:
        raise bad("LINE must be a decimal number from 1")
    start, count, label = 0, 1, "step"
    if len(fields) >= 4:
        if not re.fullmatch(r"[0-9]+", fields[2]) or int(fields[2]) > _runtime.VALUE_MAX:
            raise bad("START must be a decimal number from 0 to 2^62")
        if (not re.fullmatch(r"[0-9]+", fields[3]) or not
                1 <= int(fields[3]) <= _runtime.VALUE_MAX):
            raise bad("COUNT must be a decimal number from 1 to 2^62")
        start, count = int(fields[2]), int(fields[3])
    if len(fields) == 5:
        if not _runtime.LABEL_RE.fullmatch(fields[4]):
            raise bad("LABEL must match [A-Za-z0-9_.-]{1,63}")
        label = fields[4]
    return fields[0], int(fields[1]), start, count, label, spec


def names_file(path, file):
    """FILE names PATH when it is a suffix of it at a '/' (the rule of
    CAPTURE_WINDOW_LOOPS)."""
    return path == file or path.endswith("/" + file.lstrip("/")) or (
        os.path.abspath(path) == os.path.abspath(file))


def find_loop(tree, line):
    """The for or while loop whose keyword is on LINE, or None."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and node.lineno == line:
            return node
    return None


def code_objects(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_objects(const)


def lines_of(code):
    return {line for _, _, line in code.co_lines() if line is not None}


class Marker:
    """One marked loop: its site, its lines, its state in each thread."""

    def __init__(self, spec, where, node, script):
        file, line, start, count, label, _ = spec
        self.header = set(range(node.lineno, node.body[0].lineno))
        self.body = range(node.body[0].lineno, node.body[-1].end_lineno + 1)
        self.site = None
        self.window = (start, count, label)
        self.line = line
        self.states = {}   # thread id -> [head, counters, on, pending]
        if not self.header:
            raise SpecError("%s: --loop %s: the loop's body starts on its header line; put "
                            "it on lines of its own" % (where, spec[-1]))

    def kind(self, line):
        return HEADER if line in self.header else BODY if line in self.body else OUTSIDE

    def bind(self, code):
        """The site, named after the code object that runs the loop."""
        start, count, label = self.window
        self.site = _runtime.site(code.co_filename, self.line,
                                  getattr(code, "co_qualname", code.co_name),
                                  start, count, label)

    # The events.  on_header: whether the loop is active; on_body: whether
    # an iteration began; on_leave: False (that line may stop firing).

    def on_header(self, tid):
        state = self.states.get(tid)
        if state is None:
            head = _runtime.enter(self.site)
            if not head:
                return False       # inactive for good: the caller stops watching
            self.states[tid] = [head, _runtime.counters(head), 0, True]
            sys.monitoring.restart_events()   # the lines that say the loop was left
            return True
        if state[2]:
            state[2] = 0
            _runtime.end(state[0])
        state[3] = True
        return True

    def on_body(self, tid):
        state = self.states.get(tid)
        if state is None or not state[3]:
            return False
        state[3] = False
        c = state[1]
        i = c[0]
        c[0] = i + 1                       # the plugins' inline test
        if i >= c[1]:
            state[2] = _runtime.begin(state[0])
        return True

    def on_leave(self, tid):
        state = self.states.pop(tid, None)
        if state is not None:
            _runtime.leave(state[0], state[2])
        return False


class Watch:
    """The markers of one code object: for each of its lines, what that
    line's event does (an action: thread id -> keep firing)."""

    def __init__(self, tool, code, markers):
        self.tool, self.code = tool, code
        self.markers = sorted(markers, key=lambda m: min(m.header))   # outermost first
        self.begin_lines = set()
        for m in self.markers:
            m.bind(code)
        self.plan()

    def plan(self):
        """Leaving a loop comes first, innermost first; then the others,
        outermost first. One marker's line calls it directly (the cost of
        every iteration); several get a loop over them."""
        self.actions = {}
        for line in lines_of(self.code):
            kinds = [(m, m.kind(line)) for m in self.markers]
            steps = ([(m, k) for m, k in reversed(kinds) if k == OUTSIDE] +
                     [(m, k) for m, k in kinds if k != OUTSIDE])
            if any(k != OUTSIDE for _, k in steps):
                self.actions[line] = self.action(line, steps)

    def action(self, line, steps):
        if len(steps) == 1 and steps[0][1] == HEADER:
            return lambda tid, m=steps[0][0]: None if m.on_header(tid) else self.forget(m)
        if len(steps) == 1:
            return lambda tid, m=steps[0][0]: self.begun(line, m.on_body(tid))

        def every(tid):
            keep = False
            for marker, kind in steps:
                if kind == HEADER:
                    got = marker.on_header(tid)
                    if not got:
                        return self.forget(marker)
                elif kind == BODY:
                    got = self.begun(line, marker.on_body(tid)) is None
                else:
                    got = marker.on_leave(tid)
                keep = keep or got
            return None if keep else sys.monitoring.DISABLE
        return every

    def begun(self, line, began):
        """A body line keeps firing once an iteration began on it."""
        if began:
            self.begin_lines.add(line)
            return None
        return None if line in self.begin_lines else sys.monitoring.DISABLE

    def outside(self, tid):
        """A line of no marked loop: any loop entered here was left."""
        for marker in reversed(self.markers):
            marker.on_leave(tid)
        return sys.monitoring.DISABLE

    def forget(self, marker):
        """An inactive loop (CAPTURE_WINDOW=off, not selected, rank): no
        more events for it; none at all once no marker is left."""
        self.markers.remove(marker)
        self.plan()
        if not self.markers:
            sys.monitoring.set_local_events(self.tool, self.code, 0)
        return sys.monitoring.DISABLE


class Monitor:
    """sys.monitoring's one tool id for every watched code object."""

    def __init__(self):
        mon = sys.monitoring
        self.tool = next((t for t in (4, 3, mon.PROFILER_ID) if not mon.get_tool(t)), None)
        if self.tool is None:
            raise SpecError("capture_window: no sys.monitoring tool id is free")
        mon.use_tool_id(self.tool, "capture_window")
        self.watches = {}
        mon.register_callback(self.tool, mon.events.LINE, self.line)
        mon.register_callback(self.tool, mon.events.PY_RETURN, self.left)
        mon.register_callback(self.tool, mon.events.PY_UNWIND, self.left)
        mon.set_events(self.tool, mon.events.PY_UNWIND)   # global: no local form

    def watch(self, code, markers):
        self.watches[code] = Watch(self.tool, code, markers)
        ev = sys.monitoring.events
        sys.monitoring.set_local_events(self.tool, code, ev.LINE | ev.PY_RETURN)

    def line(self, code, line):
        w = self.watches.get(code)
        if w is None:
            return sys.monitoring.DISABLE
        return w.actions.get(line, w.outside)(threading.get_ident())

    def left(self, code, *_):
        w = self.watches.get(code)
        if w:
            w.outside(threading.get_ident())


def plan(script, specs):
    """The script's code, and its markers by code object; SpecError for a
    spec that marks no loop."""
    try:
        with open(script, "rb") as f:
            source = f.read()
    except OSError as e:
        raise SpecError("capture_window: cannot read %s: %s" % (script, e.strerror))
    path = os.path.abspath(script)
    tree = ast.parse(source, script)
    code = compile(source, path, "exec", dont_inherit=True)
    by_code = {}
    for spec in specs:
        file, line = spec[0], spec[1]
        where = "%s:%d" % (file, line)
        if not names_file(path, file):
            raise SpecError("%s: --loop %s: FILE names no file the script is (%s); the "
                            "Python door marks loops of the script it runs"
                            % (where, spec[-1], script))
        node = find_loop(tree, line)
        if node is None:
            raise SpecError("%s: --loop %s: no for or while loop starts on this line of %s"
                            % (where, spec[-1], script))
        marker = Marker(spec, where, node, script)
        body = set(marker.body)
        owner = next(c for c in code_objects(code)
                     if marker.header & lines_of(c) and body & lines_of(c))
        by_code.setdefault(owner, []).append(marker)
    return code, by_code


def run(script, args, specs):
    """Runs SCRIPT as python would, its loops marked."""
    code, by_code = plan(script, specs)
    if not hasattr(sys, "monitoring"):
        raise SpecError("capture_window: --loop needs Python 3.12 or newer (sys.monitoring); "
                        "this is Python %d.%d: mark the loop with capture_window.loop() "
                        "instead" % sys.version_info[:2])
    monitor = Monitor()
    for owner, markers in by_code.items():
        monitor.watch(owner, markers)
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    main = types.ModuleType("__main__")
    main.__file__ = code.co_filename
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    except Exception as e:
        # As python prints it: the frames from the script on.
        tb = e.__traceback__
        while tb and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        sys.exit(1)
