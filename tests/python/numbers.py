"""One number rule, one message (issue 44 item 4): the Python door's
loop() and the CLI's --expect judge START and COUNT with the engine's
cw_number_parse_v1 through ctypes, and say what every C door says:
"NAME must be a decimal number from LOW to 2^62"."""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--package", required=True)
ap.add_argument("--cli", required=True)
ap.add_argument("--runtime", required=True)
args = ap.parse_args()
os.environ["CAPTURE_WINDOW_LIBRARY"] = args.runtime
sys.path[:0] = [args.package, args.cli]

import capture_window                       # noqa: E402
from capture_window_cli import common, runtime  # noqa: E402

failures = []


def expect(what, call, message):
    try:
        call()
        got = "no error"
    except (ValueError, common.Usage) as e:
        got = str(e)
    if got != message:
        failures.append("%s: expected %r, got %r" % (what, message, got))


for start, count, message in [
        (-1, 2, "START must be a decimal number from 0 to 2^62, got -1"),
        (0, 0, "COUNT must be a decimal number from 1 to 2^62, got 0"),
        ((1 << 62) + 1, 1, "START must be a decimal number from 0 to 2^62, got 4611686018427387905"),
        (1 << 100, 1, "START must be a decimal number from 0 to 2^62, got %d" % (1 << 100)),
        ("3", 1, "START must be a decimal number from 0 to 2^62, got '3'"),
        (True, 1, "START must be a decimal number from 0 to 2^62, got True")]:
    expect("loop(range(2), %r, %r)" % (start, count),
           lambda: capture_window.loop(range(2), start, count), "capture_window: " + message)
expect("loop(range(2), 1 << 62, 1 << 62)",
       lambda: list(capture_window.loop(range(2), 1 << 62, 1 << 62)), "no error")

for spec, message in [
        ("3:0", "COUNT must be a decimal number from 1 to 2^62"),
        ("x:1", "START must be a decimal number from 0 to 2^62"),
        ("-1:2", "START must be a decimal number from 0 to 2^62"),
        ("4611686018427387905:1", "START must be a decimal number from 0 to 2^62")]:
    expect("--expect " + spec, lambda: runtime.parse_expect(spec),
           "capture-window: --expect %s, got '%s'" % (message, spec))
if runtime.parse_expect("*:3") != (None, 3) or runtime.parse_expect("4611686018427387904:1") != \
        (1 << 62, 1):
    failures.append("--expect *:3 or 2^62:1 not taken")

print("\n".join(failures) or "numbers: every message is the engine's")
sys.exit(1 if failures else 0)
