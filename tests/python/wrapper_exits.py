"""Every way out of a capture_window.loop body inside the window 2:3:
break (tests/loops/break.c), return (return.c), an exception caught
outside the loop. Each closes the window where the loop is left. Entered
again, a loop counts on (reentered.c): its second entry runs 4..5."""
# cw-windows: step=2:3 ret=2:3 exc=2:3
# cw-run:
# cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
# cw-expect: ret#0..1(.) S ret[ ret#2..3(.) ] E
# cw-expect: exc#0..1(.) S exc[ exc#2(.) ] E
from cwtest import capture_window, mark


n = 0


def with_break(last):
    global n
    for _ in capture_window.loop(range(100), 2, 3):
        mark("step", n)
        n += 1
        if n == last:
            break


def with_return():
    for i in capture_window.loop(range(100), 2, 3, label="ret"):
        mark("ret", i)
        if i == 3:
            return "returned at %d" % i


def with_exception():
    for i in capture_window.loop(range(100), 2, 3, label="exc"):
        mark("exc", i)
        if i == 2:
            raise ValueError("raised at %d" % i)


with_break(4)
with_break(6)
print(with_return())
try:
    with_exception()
except ValueError as e:
    print("caught:", e)
