"""rank_program.py - one rank of a job, for tests/launchers: what
rank_program.c does, in Python.

    python3 rank_program.py wrapper|plain STEPS STEP_MS [ANNOUNCE [HOLD]]

wrapper: the loop is capture_window.loop(range(STEPS), 10, 3).
plain:   an unmarked loop, for the zero edit
         (python3 -m capture_window --loop rank_program.py:LINE:10:3 ...;
         LINE is the line of the comment "the plain loop").
Each iteration marks step@i (the test's mark library, CW_MARK_LIBRARY) and
sleeps STEP_MS milliseconds; at ANNOUNCE it prints "reached step N", and
with HOLD stays there until a signal ends it, or until its own SIGUSR1
handler ran, or (CW_GO_FILE=PATH) until PATH exists. With CW_OWN_USR1=1 it installs that handler before the loop,
as Lightning's SLURM requeue does, and says at the end how often it ran.
With CW_GLOO=1 (torchrun) the ranks join a gloo process group and sum
their step counts, as training ranks sum their gradients (no_libuv.py
lets them do it with a torch built without libuv). At the end:
"done STEPS steps, TOTAL in the job".
"""
import ctypes
import os
import signal
import sys
import time

_mark = ctypes.CDLL(os.environ["CW_MARK_LIBRARY"]).cw_py_mark
_mark.argtypes = [ctypes.c_char_p, ctypes.c_long]
own_handler_ran = []


def step(i, announce, hold, step_s):
    _mark(b"step", i)
    if i == announce:
        print("reached step %d" % i, flush=True)
        go = os.environ.get("CW_GO_FILE")
        while hold and not own_handler_ran and not (go and os.path.exists(go)):
            time.sleep(0.01)
    time.sleep(step_s)


def main():
    form, steps, step_ms = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    announce = int(sys.argv[4]) if len(sys.argv) > 4 else -1
    hold = len(sys.argv) > 5
    if os.environ.get("CW_OWN_USR1") == "1":
        signal.signal(signal.SIGUSR1, lambda sig, frame: own_handler_ran.append(sig))
        print("own SIGUSR1 handler installed", flush=True)
    if form == "wrapper":
        import capture_window
        for i in capture_window.loop(range(steps), 10, 3):
            step(i, announce, hold, step_ms / 1000)
    else:
        for i in range(steps):  # the plain loop
            step(i, announce, hold, step_ms / 1000)
    total = steps
    if os.environ.get("CW_GLOO") == "1":
        import torch
        import torch.distributed as dist
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import no_libuv
        no_libuv.apply()  # Debian's torch 2.x, built without libuv
        dist.init_process_group("gloo")
        t = torch.tensor([steps])
        dist.all_reduce(t)
        total = int(t.item())
        dist.destroy_process_group()
    if os.environ.get("CW_OWN_USR1") == "1":
        print("own handler ran %d time(s)" % len(own_handler_ran))
    print("done %d steps, %d in the job" % (steps, total))


if __name__ == "__main__":
    main()
