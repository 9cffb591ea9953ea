"""`python -m capture_window --loop FILE:LINE:2:3` on a script that does
not mention capture_window: the for loop on line 23 behaves as the
wrapper's (wrapper_for.py), selected by its FILE:LINE."""
# cw-plugin-args: loop=zero_edit_for.py:23:2:3
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0..1(.) S step[ step#2..4(.) ] E step#5..7(.)
# cw-run: CAPTURE_WINDOW=off
# cw-expect: .step@0..7
# cw-run: CAPTURE_WINDOW=5:2
# cw-expect: step#0..4(.) S step[ step#5..6(.) ] E step#7(.)
# cw-run: CAPTURE_WINDOW_LOOPS=zero_edit_for.py:22
# cw-expect: .step@0..7
# cw-stderr-re: capture_window: CAPTURE_WINDOW_LOOPS='zero_edit_for\.py:22' selected none of the loops that ran: 'step' \(/.*/zero_edit_for\.py:23\); no window opened
# cw-run: CAPTURE_WINDOW_LOOPS=python/zero_edit_for.py:23 CAPTURE_WINDOW_TRIGGER=nvtx
# cw-expect: step#0..1(.) step[ step#2..4(.) ] step#5..7(.)
from cwtest import mark


def total(n):
    s = 0
    # the marked loop:
    for i in range(n):
        mark("step", i)
        s += (
            i * i)
    return s


print(total(8))
