"""_iteration.py - one entry of a marked loop: the calls the plugins emit
around a C loop's iterations, once, for every form of the Python door.

    entry = Entry(head)          # head: cw_loop_enter_v2's answer
    entry.end()                  # the open iteration ends (True)
    entry.begin()                # counts an iteration, begins it when due
    entry.step()                 # both: the next iteration begins
    entry.leave()                # cw_loop_exit_v2 (an open window closes)

loop() calls begin() before it hands an item out and end() when the next
one is asked for (its iterations before attention_at count inline);
steps()' step() is step(); the zero edit's while form ends an iteration
before the loop's test (`while entry.end() and COND:`) and begins one as
the body starts. IDLE is the entry of a loop that is not active (off,
not selected, another rank): every call does nothing.
"""
from . import _runtime


class Entry:
    """One entry of an active loop, on the thread that entered it."""
    __slots__ = ("head", "c", "on")

    def __init__(self, head):
        self.head, self.c, self.on = head, _runtime.counters(head), 0

    def end(self):
        """The open iteration ends, if one is; True (a while loop's test)."""
        if self.on:
            self.on = 0
            _runtime.end(self.head)
        return True

    def begin(self):
        """An iteration is counted, and begins in the runtime when due:
        the plugins' inline test, cw->next++ >= cw->attention_at."""
        c = self.c
        i = c[0]
        c[0] = i + 1
        if i >= c[1]:
            self.on = _runtime.begin(self.head)

    def step(self):
        """The open iteration ends and the next begins."""
        if self.on:
            self.end()
        self.begin()

    def leave(self):
        """The loop is left (once): a window still open closes."""
        head, self.head = self.head, None
        if head:
            _runtime.leave(head, self.on)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.leave()
        return False


class Idle:
    """The entry of a loop that is not active."""
    __slots__ = ()

    def end(self):
        return True

    def begin(self):
        pass

    step = leave = begin

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


IDLE = Idle()
