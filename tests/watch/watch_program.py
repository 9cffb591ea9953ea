"""watch_program.py - watch_program.c in Python, for tests/watch:

    python watch_program.py loop STEPS [PAUSE...]   capture_window.loop()
    python -m capture_window --loop watch_program.py:29:10:4 \
        watch_program.py plain STEPS [PAUSE...]     the zero edit

In each iteration PAUSE it prints "rank R pauses at PAUSE" and reads a line
of stdin (watch_program.c says why)."""
import os
import sys

from cwtest import capture_window, mark

mode, steps, pauses = sys.argv[1], int(sys.argv[2]), [int(p) for p in sys.argv[3:]]
rank = os.environ.get("RANK", "0")
items = capture_window.loop(range(steps), 10, 4) if mode == "loop" else range(steps)


def body(step):
    mark("step", step)
    if pauses and step == pauses[0]:
        print("rank %s pauses at %d" % (rank, pauses.pop(0)), flush=True)
        if not sys.stdin.readline():
            sys.exit(1)
    return step


total = 0
for step in items:
    total += body(step)
print("rank %s: sum %d" % (rank, total))
