"""capture_window.loop over a range: the window 2:3 and the run-time
variables, as for the C pragma (tests/loops/for_loop.c)."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5..7(.)
# cw-run: CAPTURE_WINDOW=off
# cw-expect: .step@0..7
# cw-run: CAPTURE_WINDOW=5:2
# cw-expect: step#0..4(.) S step[ step#5..6(.) ] E step#7(.)
# cw-run: CAPTURE_WINDOW_TRIGGER=nvtx
# cw-expect: step#0..1(.) step[ step#2..4(.) ] step#5..7(.)
# cw-run: CAPTURE_WINDOW_LOOPS=wrapper_for.py:99
# cw-expect: .step@0..7
# cw-stderr-re: capture_window: CAPTURE_WINDOW_LOOPS='wrapper_for\.py:99' selected none of the loops that ran: 'step' \(/.*/wrapper_for\.py:26\); no window opened
# cw-run: CAPTURE_WINDOW_LOOPS=python/wrapper_for.py:26 CAPTURE_WINDOW_VERBOSE=1
# cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5..7(.)
# cw-stderr-re: capture_window: loop 'step' \(/.*/tests/python/wrapper_for\.py:26, total\) is active
# cw-stderr-re: capture_window: profiler started \(cuProfilerStart: 0\)
# cw-stderr-re: capture_window: window opened: loop 'step' \(/.*/wrapper_for\.py:26\) iteration 2, window 2:3, thread [0-9]+
# cw-stderr-re: capture_window: profiler stopped \(cuProfilerStop: 0\)
# cw-stderr-re: capture_window: window closed: loop 'step' \(/.*/wrapper_for\.py:26\) held iterations 2-4, thread [0-9]+
from cwtest import capture_window, mark

def total(n):
    s = 0
    for i in capture_window.loop(range(n), 2, 3):
        mark("step", i)
        s += i * i
    return s


print(total(8))
