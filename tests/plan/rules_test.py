#!/usr/bin/env python3
"""plan and the runtime judge steps by one rule (issue 31 items 2-3, issue
34 item 3): the numbers plan.py and steady.py use are those the runtime
exports (cw_rule_value_v1, capture_window/rules.h), and the runtime's
period chance (cw_period_chance_v1, which spike tests online) is plan's
significance formula: (period, phase) pairs times the binomial tail.

Usage: rules_test.py CLI_DIR LIBRARY
"""
import ctypes
import math
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from capture_window_cli import periods, rule, steady  # noqa: E402

lib = ctypes.CDLL(sys.argv[2])
lib.cw_rule_value_v1.restype = ctypes.c_double
lib.cw_rule_value_v1.argtypes = [ctypes.c_char_p]
lib.cw_period_chance_v1.restype = ctypes.c_double
lib.cw_period_chance_v1.argtypes = [ctypes.c_longlong, ctypes.c_longlong, ctypes.c_double,
                                    ctypes.c_longlong]
failures = []


def expect(name, got, want):
    if got == want or (isinstance(want, float) and math.isclose(got, want, rel_tol=1e-9)):
        print(f"PASS: {name}")
    else:
        failures.append(name)
        print(f"FAIL: {name}\n  got:      {got!r}\n  expected: {want!r}")


for name, value in (("slow_ratio", rule.SLOW_RATIO), ("slow_mads", rule.SLOW_MADS),
                    ("slow_min_ns", rule.SLOW_MIN_NS), ("alpha", periods.ALPHA),
                    ("period_min", periods.PERIOD_MIN), ("steady_spread", steady.STEADY_SPREAD),
                    ("drift_change", steady.DRIFT_CHANGE),
                    ("drift_explained", steady.DRIFT_EXPLAINED), ("level_gap", steady.LEVEL_GAP),
                    ("level_share", steady.LEVEL_SHARE), ("level_cover", steady.LEVEL_COVER),
                    ("shape_min", steady.SHAPE_MIN)):
    expect(f"cw_rule_value_v1({name!r}) is plan's", lib.cw_rule_value_v1(name.encode()), value)
expect("cw_rule_value_v1('no_such') is NaN", math.isnan(lib.cw_rule_value_v1(b"no_such")), True)


def plans_chance(hits, places, p, steps):
    tried = max((steps - 1) // (periods.PERIODIC_MIN_FAR - 1), periods.PERIOD_MIN)
    pairs = tried * (tried + 1) // 2 - periods.PERIOD_MIN * (periods.PERIOD_MIN - 1) // 2
    return pairs * periods.binomial_tail(hits, places, p)


for hits, places, p, steps in ((4, 4, 1 / 33, 35), (4, 5, 0.03, 128), (29, 30, 0.06, 300),
                               (5, 30, 0.08, 300), (10, 12, 0.2, 5000), (3, 3, 0.5, 10),
                               (0, 4, 0.1, 40), (5, 4, 0.1, 40), (4, 4, 0.0, 40)):
    expect(f"cw_period_chance_v1({hits}, {places}, {p:.3g}, {steps}) is plan's",
           lib.cw_period_chance_v1(hits, places, p, steps), float(plans_chance(hits, places, p, steps)))
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
