#!/usr/bin/env python3
"""The one unit rule (docs/environment.md, "Durations") is written once in C
(runtime/stats.c) and once in Python (cli common.duration): both must write
every duration alike, and as the rule says, at each unit's edges.

Usage: units_test.py CLI_FOLDER UNITS_PROGRAM
"""
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from capture_window_cli.common import duration  # noqa: E402

# ns -> what the rule writes: the edges of every unit and digit count.
EXPECTED = {
    0: "0 ns", 5: "5 ns", 850: "850 ns", 999.4: "999 ns", 999.5: "1.00 us", 1000: "1.00 us",
    1234: "1.23 us", 9994: "9.99 us", 9996: "10.0 us", 45678: "45.7 us", 99940: "99.9 us",
    99960: "100 us", 508470: "508 us", 855228: "855 us", 999400: "999 us", 999600: "1.00 ms",
    3007000: "3.01 ms", 45600000: "45.6 ms", 999600000: "1.00 s", 12345600000: "12.3 s",
    5000e9: "5000 s",
}


def main():
    values = list(EXPECTED)
    c = subprocess.run([sys.argv[2], *map(repr, values)], capture_output=True, text=True,
                       check=True).stdout.splitlines()
    failures = 0
    for v, from_c in zip(values, c):
        got = (from_c, duration(v))
        if got != (EXPECTED[v], EXPECTED[v]):
            failures += 1
            print(f"FAIL: {v} ns: C {got[0]!r}, Python {got[1]!r}, expected {EXPECTED[v]!r}")
    print(f"{len(values) - failures} of {len(values)} durations as the rule writes them")
    return 1 if failures or len(c) != len(values) else 0


if __name__ == "__main__":
    sys.exit(main())
