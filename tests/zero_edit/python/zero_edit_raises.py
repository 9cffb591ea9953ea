"""The zero edit on a script that raises from the marked loop: the window
closes as the exception leaves it, and the traceback and exit status are
python's own (raises.py)."""
# (the zero edit runs on every Python from 3.10: no skip)
# cw-plugin-args: loop=zero_edit_raises.py:19:1:3
# cw-windows: step=1:3
# cw-exit: 1
# cw-run:
# cw-expect: step#0(.) S step[ step#1..2(.) ] E
# cw-stderr: Traceback (most recent call last):
# cw-stderr-re: \s+File ".*/zero_edit_raises.py", line 22, in <module>
# cw-stderr-re: \s+raise RuntimeError\("diverged at step %d" % i\)
# cw-stderr: RuntimeError: diverged at step 2
from cwtest import mark

i = 0


for i in range(10):
    mark("step", i)
    if i == 2:
        raise RuntimeError("diverged at step %d" % i)
