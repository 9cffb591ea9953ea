"""Two marked loops, one inside the other (tests/loops/nested.c): the inner
loop counts on across the outer iterations."""
# cw-windows: epoch=1:1 step=4:2
# cw-run:
# cw-expect: epoch#0( . step#0..2(.) )
# cw-expect: S epoch[ epoch#1( . step#3(.) step[ step#4..5(.) ] ) ] E
# cw-expect: epoch#2( . step#6..8(.) )
from cwtest import capture_window, mark

j = 0
for e in capture_window.loop(range(3), 1, 1, label="epoch"):
    mark("epoch", e)
    for _ in capture_window.loop(range(3), 4, 2):
        mark("step", j)
        j += 1
print(j)
