"""py_signal.py SIG - loop() (window 14:5) whose step 15 sends the
process SIG (INT or TERM), for teardown_test.py. SIGINT goes to Python's
own handler, which the runtime's runs after writing the step times: a
KeyboardInterrupt then unwinds through loop(), which closes the window,
and the process dies by SIGINT after its atexit hooks (cw_exit_v1).
SIGTERM has no handler of Python's: the runtime closes the window and the
process dies by SIGTERM. Run with CW_MARK_LIBRARY (cwtest.py)."""
import os
import signal
import sys
import time

from cwtest import capture_window, mark

how = getattr(signal, "SIG" + sys.argv[1])
for i in capture_window.loop(range(30), 14, 5):
    mark("step", i)
    time.sleep(0.001)
    if i == 15:
        print("step 15", flush=True)
        os.kill(os.getpid(), how)
        time.sleep(5)  # KeyboardInterrupt comes first
print("not reached")
