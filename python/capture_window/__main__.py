"""python -m capture_window --loop SPEC ... SCRIPT ARGS...
python -m capture_window --loop SPEC ... -m MODULE ARGS...

Runs SCRIPT as `python SCRIPT ARGS...` would (or MODULE as `python -m
MODULE ARGS...`), with the loops SPEC names marked as if written `for x
in capture_window.loop(..., START, COUNT, label=LABEL)`. SPEC is
FILE:LINE[:START:COUNT[:LABEL]] (the loop on LINE of any module whose
path ends in FILE) or FUNCTION[:START:COUNT[:LABEL]] (the outermost loop
of each function so named: Trainer.fit, pkg.mod.Trainer.fit); default
window 0:1, label step. --loop may be repeated.
Manual: python -m pydoc capture_window (installed with the package)
"""
import sys

from ._launch import run_module, run_script
from ._say import say
from ._spec import SpecError

USAGE = ("usage: python -m capture_window --loop SPEC ... SCRIPT ARGS... | -m MODULE ARGS... "
         "(SPEC: FILE:LINE[:START:COUNT[:LABEL]] or FUNCTION[:START:COUNT[:LABEL]])")


def main(argv):
    specs, k = [], 0
    while k < len(argv) and argv[k].startswith("-") and argv[k] != "-m":
        a = argv[k]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a == "--loop" and k + 1 < len(argv):
            value, k = argv[k + 1], k + 2
        elif a.startswith("--loop="):
            value, k = a[len("--loop="):], k + 1
        else:
            raise SpecError("capture_window: unknown option '%s'\n%s" % (a, USAGE))
        specs.append(value)
    module = k < len(argv) and argv[k] == "-m"
    k += module
    if k >= len(argv) or not specs:
        raise SpecError(USAGE)
    (run_module if module else run_script)(argv[k], argv[k + 1:], specs)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except SpecError as e:
        say(str(e))
        sys.exit(2)
