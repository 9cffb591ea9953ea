"""ncu_report.py - a stand-in for Nsight Compute's Python Report Interface
(<ncu install>/extras/python/ncu_report.py), for the CLI tests: the part
capture-window uses, serving the fixtures of tests/cli/ncu_fixtures.py.
Each kernel is an action of range 0; its NVTX state has the default domain
(id 0) alone. With $FAKE_NCU_NO_PYTHON set it fails to import, as the real
one does under a Python it was not built for.
"""
import os
import sys

if os.environ.get("FAKE_NCU_NO_PYTHON"):
    raise ImportError("fake ncu_report: _ncu_report: undefined symbol: PyUnicode_AsUTF8")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", ".."))
from ncu_fixtures import kernels_of  # noqa: E402


class _Domain:
    def __init__(self, stack):
        self._stack = stack

    def name(self):
        return ""

    def push_pop_ranges(self):
        return tuple(self._stack)


class _NvtxState:
    def __init__(self, stack):
        self._stack = stack

    def domains(self):
        return [0] if self._stack else []

    def domain_by_id(self, domain_id):
        return _Domain(self._stack)


class _Action:
    def __init__(self, kernel):
        self._kernel = kernel

    def name(self):
        return self._kernel[0]

    def nvtx_state(self):
        return _NvtxState(self._kernel[2])


class _Range:
    def __init__(self, kernels):
        self._kernels = kernels

    def num_actions(self):
        return len(self._kernels)

    def action_by_idx(self, k):
        return _Action(self._kernels[k])


class _Context:
    def __init__(self, kernels):
        self._kernels = kernels

    def num_ranges(self):
        return 1

    def range_by_idx(self, k):
        return _Range(self._kernels)


def load_report(path):
    kernels = kernels_of(path)
    if kernels is None:
        raise RuntimeError(f"Failed to load report {path}")
    return _Context(kernels)
