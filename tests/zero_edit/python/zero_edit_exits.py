"""The zero edit on every way out of a loop (wrapper_exits.py, nested.py):
break, continue, return, an exception caught outside, a loop entered
again, and two marked loops one inside the other."""
# (the zero edit runs on every Python from 3.10: no skip)
# cw-plugin-args: loop=zero_edit_exits.py:23:2:3 loop=zero_edit_exits.py:33:2:3:ret
# cw-plugin-args: loop=zero_edit_exits.py:40:2:3:exc
# cw-plugin-args: loop=zero_edit_exits.py:48:1:1:epoch loop=zero_edit_exits.py:51:4:2:inner
# cw-windows: step=2:3 ret=2:3 exc=2:3 epoch=1:1 inner=4:2
# cw-run:
# cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4..5(.)
# cw-expect: ret#0..1(.) S ret[ ret#2..3(.) ] E
# cw-expect: exc#0..1(.) S exc[ exc#2(.) ] E
# cw-expect: epoch#0( . inner#0..2(.) )
# cw-expect: S epoch[ epoch#1( . inner#3(.) inner[ inner#4..5(.) ] ) ] E
# cw-expect: epoch#2( . inner#6..8(.) )
from cwtest import mark

n = 0


def with_break(last):
    global n
    for _ in range(100):
        mark("step", n)
        n += 1
        if n % 2:
            continue
        if n == last:
            break


def with_return():
    for i in range(100):
        mark("ret", i)
        if i == 3:
            return "returned at %d" % i


def with_exception():
    for i in range(100):
        mark("exc", i)
        if i == 2:
            raise ValueError("raised at %d" % i)


def nested():
    j = 0
    for e in range(3):
        mark("epoch", e)
        k = 0
        while k < 3:
            mark("inner", j)
            j += 1
            k += 1
    return j


with_break(4)
with_break(6)
print(with_return())
try:
    with_exception()
except ValueError as e:
    print("caught:", e)
print(nested())
