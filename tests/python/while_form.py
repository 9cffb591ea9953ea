"""capture_window.steps: a while loop left by break in its window
(tests/loops/while_loop.c, break.c), and one that runs out."""
# cw-windows: step=1:3 eval=0:2
# cw-run:
# cw-expect: step#0(.) S step[ step#1..2(.) ] E
# cw-expect: S eval[ eval#0..1(.) ] E eval#2..3(.)
# cw-run: CAPTURE_WINDOW_LOOPS=eval
# cw-expect: .step@0..2 S eval[ eval#0..1(.) ] E eval#2..3(.)
from cwtest import capture_window, mark

n = 0
with capture_window.steps(1, 3) as step:
    while True:
        step()
        mark("step", n)
        n += 1
        if n == 3:
            break

queue = [5, 8, 13, 21]
k = 0
with capture_window.steps(0, 2, label="eval") as step:
    while queue:
        step()
        mark("eval", k)
        k += 1
        queue.pop()
print(n, k)
