"""A marked loop inside a generator its consumer stops early: closing the
generator leaves the loop, and the window closes there."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0..1(.) S step[ step#2..3(.) ] E
from cwtest import capture_window, mark


def batches():
    for i in capture_window.loop(range(100), 2, 3):
        mark("step", i)
        yield i * 10


for b in batches():
    if b == 30:
        break
print("last batch", b)
