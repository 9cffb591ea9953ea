"""loop() outside its window: with no call due before attention_at, the
iterations run as a stretch of C iterators (capture_window/__init__.py),
and the counter stays exact however the stretch ends. The windows are
far enough (40, past the self-check's 15 timed steps before a window)
for stretches under CAPTURE_WINDOW_STEPS=window:
  step  left by break inside a stretch, entered again: counts on;
  end   the iterable runs out inside a stretch, then at its very end;
  rec   the body re-enters its own loop (tests/hostile/recursion.c): the
        stretch under way stops, the entries share the counter;
  pair  two generators of one loop taking turns (zip)."""
# cw-windows: step=40:3 end=40:2 rec=40:2 pair=40:2
# cw-run:
# cw-expect: step#0..39(.) S step[ step#40..42(.) ] E step#43..45(.)
# cw-expect: end#0..39(.) S end[ end#40..41(.) ] E end#42..54(.)
# cw-expect: rec#0..2(.) rec#3( . rec#4..6(.) rec#7( . rec#8..10(.) rec#11( . rec#12..23(.) )
# cw-expect:   rec#24..31(.) ) rec#32..39(.) ) S rec[ rec#40..41(.) ] E rec#42..47(.)
#
# The generators taking turns end each other's ranges (the runtime ends
# the innermost), as before stretches: only the window is checked.
# cw-run: CW_TEST_PAIR=1 CAPTURE_WINDOW_STEPS=window
# cw-expect: .pm@0 .pm@1 .pm@2 .pm@3 .pm@4 .pm@5 .pm@6 .pm@7 .pm@8 .pm@9 .pm@10 .pm@11 .pm@12 .pm@13 .pm@14 .pm@15 .pm@16 .pm@17 .pm@18 .pm@19 .pm@20 .pm@21 .pm@22 .pm@23 .pm@24 .pm@25 .pm@26 .pm@27 .pm@28 .pm@29 .pm@30 .pm@31 .pm@32 .pm@33 .pm@34 .pm@35 .pm@36 .pm@37 .pm@38 .pm@39
# cw-expect: S pair[ pair#40( pair#41(.pm@40 .pm@41) pair#42() pair#43(.pm@42 .pm@43) pair#44() pair#45(.pm@44 .pm@45) pair#46() pair#47(.pm@46 .pm@47) pair#48() pair#49(.pm@48 .pm@49) ) ] E
import os

from cwtest import capture_window, mark

n = {"step": 0, "end": 0, "rec": 0, "pm": 0}


def count(label):
    mark(label, n[label])
    n[label] += 1


def with_break(stop):
    for _ in capture_window.loop(range(100), 40, 3):
        count("step")
        if n["step"] == stop:
            break


def ends(k):
    for _ in capture_window.loop(range(k), 40, 2, label="end"):
        count("end")


def rec(depth):
    for i in capture_window.loop(range(12), 40, 2, label="rec"):
        count("rec")
        if i == 3 and depth < 3:
            rec(depth + 1)


def pair():
    return capture_window.loop(range(25), 40, 2, label="pair")


if os.environ.get("CW_TEST_PAIR"):
    for _ in zip(*[pair() for _ in range(2)]):
        count("pm")       # two iterations a turn
        count("pm")
else:
    with_break(11)        # 0-10, left in a stretch
    with_break(46)        # 11-45: the window at 40
    ends(20)              # 0-19: ran out in a stretch
    ends(5)               # 20-24: ran out at the stretch's end
    ends(30)              # 25-54
    rec(0)                # 48 iterations
print(n)
