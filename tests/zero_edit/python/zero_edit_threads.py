"""The zero edit on a loop two threads run (threads.py)."""
# (the zero edit runs on every Python from 3.10: no skip)
# cw-plugin-args: loop=zero_edit_threads.py:17:2:2
# cw-windows: step=2:2
# cw-run:
# cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
# cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
import threading

from cwtest import mark

in_window = threading.Barrier(2)
sums = [0, 0]


def worker(k):
    for i in range(6):
        mark("step", i)
        if i == 3:
            in_window.wait()
        sums[k] += i


threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sums)
