"""py_ends.py HOW - loop() (window 14:5) whose step 15 ends the process
as HOW says, for teardown_test.py (Python's ends.cpp):

  INT, TERM  the process sends itself SIGINT or SIGTERM. SIGINT goes to
             Python's own handler, which the runtime's runs after writing
             the step times: a KeyboardInterrupt then unwinds through
             loop(), which closes the window, and the process dies by
             SIGINT after its atexit hooks (cw_exit_v1). SIGTERM has no
             handler of Python's: the runtime closes the window and the
             process dies by SIGTERM.
  raise      an uncaught exception: it unwinds through loop(), which
             closes the window; exit status 1 after the traceback
  exit       sys.exit(1): the same, with no traceback
  held       sys.exit(1) in a loop whose generator a variable holds: it
             is freed only after Python's atexit hooks, so the window is
             still open when cw_exit_v1 runs, which closes it
  end        nothing: the loop runs its 30 steps

Run with CW_MARK_LIBRARY (cwtest.py)."""
import os
import signal
import sys
import time

from cwtest import capture_window, mark

how = sys.argv[1]


def step(i):
    mark("step", i)
    time.sleep(0.001)
    if i != 15 or how == "end":
        return
    print("step 15", flush=True)
    if how == "raise":
        raise RuntimeError("diverged at step 15")
    if how in ("exit", "held"):
        sys.exit(1)
    os.kill(os.getpid(), getattr(signal, "SIG" + how))
    time.sleep(5)  # KeyboardInterrupt comes first


if how == "held":
    steps = capture_window.loop(range(30), 14, 5)
    for i in steps:
        step(i)
else:
    for i in capture_window.loop(range(30), 14, 5):
        step(i)
print("not reached" if how != "end" else "done")
