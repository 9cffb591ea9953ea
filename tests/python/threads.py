"""Two threads run the same marked loop (tests/loops/threads.c):
iterations count per thread, the windows overlap (a barrier in iteration
3), the profiler starts once and stops once."""
# cw-windows: step=2:2
# cw-run:
# cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
# cw-thread: step#0..1(.) S? step[ step#2..3(.) ] E? step#4..5(.)
import threading

from cwtest import capture_window, mark

in_window = threading.Barrier(2)
sums = [0, 0]


def worker(k):
    for i in capture_window.loop(range(6), 2, 2):
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
