"""ncu_fixtures.py - the Nsight Compute reports that fake-ncu and the fake
ncu_report module (extras/python/ncu_report.py) serve, for the CLI tests.

Each fixture: its kernels, as (function name, grid x, push/pop stack of the
default NVTX domain, outermost first). A report file holds "fixture=NAME".
"""

FIXTURES = {
    "one": [("train_step", 30, ["step", "step#30"])],
    "three": [(f"{k}_step", s, ["step", f"step#{s}"]) for s in (30, 31, 32) for k in ("fwd", "bwd")],
    "two": [("train_step", s, ["step", f"step#{s}"]) for s in (30, 31)],
    "outside": [("train_step", 30, ["step", "step#30"]), ("loader", 1, []), ("loader", 2, [])],
    "inner": [("gemm", 30, ["step", "step#30", "forward"]), ("relu", 30, ["step", "step#30", "forward"]),
              ("sgd", 30, ["step", "step#30"])],
    # The trainer of issue 21: its own 'epoch' range around the loop, its
    # own 'train_step' range inside every step, 'forward' inside that.
    "nested": [("gemm", 30, ["epoch", "step", "step#30", "train_step", "forward"]),
               ("relu", 30, ["epoch", "step", "step#30", "train_step", "forward"]),
               ("sgd", 30, ["epoch", "step", "step#30", "train_step"])],
    "nested3": [(k, s, ["epoch", "step", f"step#{s}", "train_step"]) for s in (30, 31, 32)
                for k in ("gemm", "sgd")],
    "eval": [("eval_step", 5, ["eval", "eval#5"])],
    "empty": [],
}


def kernels_of(path):
    """The kernels of the report at PATH, or None when it is no fixture."""
    with open(path, errors="replace") as f:
        return FIXTURES.get(f.readline().strip().partition("fixture=")[2])
