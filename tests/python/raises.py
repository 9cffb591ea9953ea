"""An exception from the loop body that nothing catches: the window closes
as the exception leaves the loop, then Python reports it (exit status 1)."""
# cw-windows: step=1:3
# cw-exit: 1
# cw-run:
# cw-expect: step#0(.) S step[ step#1..2(.) ] E
# cw-stderr: Traceback (most recent call last):
# cw-stderr-re: \s+File ".*/raises.py", line 16, in <module>
# cw-stderr-re: \s+raise RuntimeError\("diverged at step %d" % i\)
# cw-stderr: RuntimeError: diverged at step 2
from cwtest import capture_window, mark

for i in capture_window.loop(range(10), 1, 3):
    mark("step", i)
    if i == 2:
        raise RuntimeError("diverged at step %d" % i)
