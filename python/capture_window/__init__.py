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
exit self-check. The site is the caller's FILE:LINE. With no edit of
the loop: `python -m capture_window --help` (the zero edit); in a
framework's trainer: `python -m pydoc capture_window.integrations`.
"""
import atexit
import functools
import itertools
import operator
import sys

from . import _runtime, _spec
from ._iteration import IDLE, Entry

__all__ = ["loop", "steps"]


def _caller_site(depth, start, count, label):
    _spec.check_window(start, count, label)
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


# loop()'s iterations before attention_at need no call: they run as a
# stretch of C iterators, map(_item, zip(limit, it, taken)), with no
# Python bytecode per item but the generator's resumption. zip asks
# `limit` (a range iterator) first, so the stretch stops before taking
# an item it must not; `taken` (a count) moves only for an item handed
# out, so the counter stays exact however the loop is left. A stretch
# holds no iteration the runtime must end. (One case it cannot see: an
# iterator whose __next__ enters the same loop on the same thread; the
# item it then returns skips the inline test.)
STRETCH = 8          # shorter runs go through the inline test one by one
_item = operator.itemgetter(1)
# While the runtime watches CAPTURE_WINDOW_WATCH, its watcher thread may
# set attention_at (c[1]) to 0 at any time: a stretch then also asks
# `stop`, a C iterator of c[1] that ends on 0, before each item, and the
# loop goes back to the inline test at the next item (nothing else sets
# c[1] to 0 during a stretch, which began with c[1] > c[0]).
_item_watched = operator.itemgetter(2)
# A loop state (head) can have several entries in progress on its thread
# (the body entered the loop again, or two generators of it take turns):
# head -> [entries in progress, the stretch under way]. A stretch runs
# only while its entry is the only one; a new entry settles a stretch
# under way first (adds what it took to next and stops it short).
_shared = {}


def _settle(shared, c):
    stretch = shared[1]
    if stretch:
        shared[1] = None
        limit, taken = stretch
        limit.__setstate__(sys.maxsize)  # its zip stops at the next item
        c[0] += next(taken)


def _settle_all():
    """At exit, before the runtime's self-check reads the counters."""
    for head, shared in list(_shared.items()):
        _settle(shared, _runtime.counters(head))


atexit.register(_settle_all)


def _marked(site, iterable):
    """loop()'s generator: the code the plugins emit around a C loop."""
    head = _runtime.enter(site)
    if not head:                       # inactive: off, not selected, rank
        yield from iterable
        return
    entry = Entry(head)
    c, begin, end = entry.c, entry.begin, entry.end
    shared = _shared.get(head)
    if shared is None:
        shared = _shared[head] = [0, None]
    else:
        _settle(shared, c)
    shared[0] += 1
    drop, least = _shared.pop, STRETCH
    try:
        it = iter(iterable)
        while True:
            k = c[1] - c[0]
            if k >= least and shared[0] == 1:
                limit, taken = iter(range(k)), itertools.count()
                shared[1] = stretch = (limit, taken)
                n = -1
                try:
                    if _runtime.watching():    # the watcher's 0 ends it (capture_window/watch.h)
                        stop = iter(functools.partial(c.__getitem__, 1), 0)
                        yield from map(_item_watched, zip(limit, stop, it, taken))
                    else:
                        yield from map(_item, zip(limit, it, taken))
                finally:
                    if shared[1] is stretch:   # not settled by another entry
                        shared[1] = None
                        n = next(taken)
                        c[0] += n
                if 0 <= n < k and c[1]:        # the iterable ran out
                    return
            for item in it:
                # The inline test first: outside windows (and with no
                # NVTX tool) no call; when due, the entry's own step.
                i = c[0]
                if i >= c[1]:
                    begin()
                    yield item
                    end()
                else:
                    c[0] = i + 1
                    yield item
                    if c[1] - i > least and shared[0] == 1:
                        break                  # to a stretch
            else:
                return
    finally:
        shared[0] -= 1
        if not shared[0]:
            drop(head, None)
        entry.leave()


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

    __slots__ = ("_site", "_entry")

    def __init__(self, start, count, label="step", _depth=0):
        self._site = _caller_site(1 + _depth, start, count, label)
        self._entry = IDLE

    def __enter__(self):
        # capture_window.integrations (framework callbacks) also calls
        # _entry.end(): an iteration ends, none begins; _depth above puts
        # the site at the callback's constructor.
        head = _runtime.enter(self._site) if _runtime.LIB else None
        self._entry = Entry(head) if head else IDLE
        return self._entry.step

    def __exit__(self, *exc):
        entry, self._entry = self._entry, IDLE
        entry.leave()
        return False
