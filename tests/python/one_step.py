"""A loop of one iteration: its window holds it, and the exit self-check
counts it in the singular."""
# cw-windows: step=0:1
# cw-run: CAPTURE_WINDOW_SELFCHECK=1
# cw-expect: S step[ step#0(.) ] E
# cw-stderr-re: capture_window: loop 'step' \(\S*one_step\.py:9\) ran 1 iteration; window 0-0: median [0-9.]+ (ms|us|ns), spread 0\.0% \(0 steps before it: too few to judge\)
from cwtest import capture_window, mark

for i in capture_window.loop(range(1), 0, 1):
    mark("step", i)
