"""A module found only through the folder zero_edit_late_path.py adds to
sys.path as it runs: no --loop FILE finds it before the run."""
from cwtest import mark


def run(n):
    for i in range(n):
        mark("step", i)
    return n
