"""cwtest.py - what the Python test scripts share.

mark(label, i) is the script's own NVTX mark LABEL@i (mark.c). With
CW_TEST_PLAIN=1 the script is its own unmarked build: `capture_window`
is then a stand-in whose loop() and steps() mark nothing, so the driver
can compare the two runs' output and marks, as it does for C programs
built without the plugin."""
import ctypes
import os

_mark = ctypes.CDLL(os.environ["CW_MARK_LIBRARY"]).cw_py_mark
_mark.argtypes = [ctypes.c_char_p, ctypes.c_long]


def mark(label, i):
    _mark(label.encode(), i)


class _Unmarked:
    @staticmethod
    def loop(iterable, start, count, label="step"):
        return iter(iterable)

    class steps:
        def __init__(self, start, count, label="step"):
            pass

        def __enter__(self):
            return lambda: None

        def __exit__(self, *exc):
            return False


if os.environ.get("CW_TEST_PLAIN") == "1":
    capture_window = _Unmarked
else:
    import capture_window  # noqa: F401
