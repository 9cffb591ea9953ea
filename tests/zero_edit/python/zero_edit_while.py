"""The zero edit on `while True:` left by break, on a while loop that
runs out, and at module level (while_form.py)."""
# (the zero edit runs on every Python from 3.10: no skip)
# cw-plugin-args: loop=zero_edit_while.py:14:1:3 loop=zero_edit_while.py:22:0:2:eval
# cw-windows: step=1:3 eval=0:2
# cw-run:
# cw-expect: step#0(.) S step[ step#1..2(.) ] E
# cw-expect: S eval[ eval#0..1(.) ] E eval#2..3(.)
# cw-run: CAPTURE_WINDOW_LOOPS=eval
# cw-expect: .step@0..2 S eval[ eval#0..1(.) ] E eval#2..3(.)
from cwtest import mark

n = 0
while True:
    mark("step", n)
    n += 1
    if n == 3:
        break

queue = [5, 8, 13, 21]
k = 0
while queue:
    mark("eval", k)
    k += 1
    queue.pop()
print(n, k)
