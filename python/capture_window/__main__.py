"""python -m capture_window --loop FILE:LINE[:START:COUNT[:LABEL]] ... SCRIPT ARGS...

Runs SCRIPT as `python SCRIPT ARGS...` would, with the loop that starts on
LINE of it marked as if written `for x in capture_window.loop(..., START,
COUNT, label=LABEL)` (default window 0:1, label step). --loop may be
repeated. Needs Python 3.12 or newer. Manual: docs/python.md.
"""
import sys

from ._zero_edit import SpecError, parse_spec, run


def main(argv):
    specs, k = [], 0
    while k < len(argv) and argv[k].startswith("-"):
        a = argv[k]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a == "--loop" and k + 1 < len(argv):
            value, k = argv[k + 1], k + 2
        elif a.startswith("--loop="):
            value, k = a[len("--loop="):], k + 1
        else:
            raise SpecError("capture_window: unknown option '%s'\nusage: %s"
                            % (a, __doc__.splitlines()[0]))
        specs.append(parse_spec(value))
    if k >= len(argv) or not specs:
        raise SpecError("usage: " + __doc__.splitlines()[0])
    run(argv[k], argv[k + 1:], specs)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except SpecError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
