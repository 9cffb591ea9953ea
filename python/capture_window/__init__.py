"""capture_window - the capture windows of libcapture_window for Python loops.

    import capture_window

    for step in capture_window.loop(range(n), 30, 3):     # label "step"
        train_step()

    with capture_window.steps(5, 2, label="eval") as step:  # a while loop
        while batch := next_batch():
            step()                  # an iteration begins (the last one ends)
            eval_step(batch)

Either is the loop `#pragma capture_window(START, COUNT[, "LABEL"])`
marks in C: the same runtime (libcapture_window, through ctypes and the ABI
of capture_window/abi.h), so the same events (an NVTX range `LABEL#i` per
iteration, the registered range `LABEL` and the CUDA profiler start/stop
around the window), the same CAPTURE_WINDOW_* variables, verbose lines and
exit self-check. The site is the caller's FILE:LINE. Without the
`python -m capture_window --loop FILE:LINE` zero edit, see __main__.py.
Manual: docs/python.md.
"""
import sys

from . import _runtime

__all__ = ["loop", "steps"]


def _caller_site(depth, start, count, label):
    _runtime.check_window(start, count, label)
    frame = sys._getframe(depth + 1)
    code = frame.f_code
    return _runtime.site(code.co_filename, frame.f_lineno,
                         getattr(code, "co_qualname", code.co_name), start, count, label)


def loop(iterable, start, count, label="step"):
    """Iterate over ITERABLE as a marked loop with the window START:COUNT.

    Each item handed out begins an iteration; it ends when the next item
    is asked for, or when the loop is left (break, return, an exception,
    the generator closed): a window still open then closes, as in C."""
    s = _caller_site(1, start, count, label)
    if not _runtime.LIB:
        return iter(iterable)
    return _marked(s, iterable)


def _marked(site, iterable):
    enter, begin, end, leave = (_runtime.enter, _runtime.begin, _runtime.end,
                                _runtime.leave)
    head = enter(site)
    if not head:                       # inactive: off, not selected, rank
        yield from iterable
        return
    c = _runtime.counters(head)
    on = 0
    try:
        for item in iterable:
            # The plugins' inline test, cw->next++ >= cw->attention_at:
            # outside windows (and with no NVTX tool) no call.
            i = c[0]
            c[0] = i + 1
            if i >= c[1]:
                on = begin(head)
            yield item
            if on:
                on = 0
                end(head)
    finally:
        leave(head, on)


class steps:
    """A marked loop of any shape, `while` loops included:

        with capture_window.steps(30, 3) as step:
            while True:
                step()          # iteration i begins; i - 1 ends
                ...
                if done:
                    break

    Each call begins an iteration and ends the one before; leaving the
    `with` block ends the last one and leaves the loop (a window still
    open closes). One `with` per thread that runs the loop."""

    __slots__ = ("_site", "_head", "_c", "_on")

    def __init__(self, start, count, label="step", _depth=0):
        self._site = _caller_site(1 + _depth, start, count, label)
        self._head = None

    def __enter__(self):
        head = _runtime.enter(self._site) if _runtime.LIB else None
        self._head, self._on = head, 0
        self._c = _runtime.counters(head) if head else None
        return self if head else _idle

    def __call__(self):
        if self._on:
            self._on = 0
            _runtime.end(self._head)
        c = self._c
        i = c[0]
        c[0] = i + 1
        if i >= c[1]:
            self._on = _runtime.begin(self._head)

    def __exit__(self, *exc):
        head, self._head = self._head, None
        if head:
            _runtime.leave(head, self._on)
        return False

    # For capture_window.integrations (framework callbacks): end the
    # iteration begun by the last call, if one is open, without beginning
    # another; _depth above puts the site at the callback constructor.
    def _end(self):
        if self._on:
            self._on = 0
            _runtime.end(self._head)


def _idle():
    """step() of an inactive loop."""
