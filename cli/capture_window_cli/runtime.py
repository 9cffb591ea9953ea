"""runtime.py - the rules libcapture_window owns, asked of it instead of
copied: the launchers' rank variables and the grammar of
CAPTURE_WINDOW_RANKS (capture_window/ranks.h, version 1), and the windows
CAPTURE_WINDOW asks for (capture_window/windows.h, version 1). The library is
the one the Python package loads (capture_window._runtime.LIB: its
CAPTURE_WINDOW_LIBRARY, the copy beside the package, the install's lib
folder, the loader's path), or, run from a source checkout, the newest of
its builds' (ROOT/build*/runtime/, ROOT the folder that holds cli/ and
runtime/). When none loads, the command has no copy of the rules to fall
back to: it says so once, names reports without a rank counts every rank
as selected, and plans no window of CAPTURE_WINDOW (docs/cli.md)."""
import contextlib
import ctypes
import glob
import io
import os
import sys

from .common import ME, Usage

_lib = []   # [the library or None], once asked


class Window(ctypes.Structure):
    """struct cw_window_v1: start is -1 unless placed is AT_START."""
    _fields_ = [("start", ctypes.c_longlong), ("count", ctypes.c_longlong),
                ("every", ctypes.c_longlong), ("times", ctypes.c_longlong), ("placed", ctypes.c_int)]


AT_START, BY_AUTO, BY_SPIKE = 0, 1, 2   # enum cw_window_placed_v1


def library():
    """libcapture_window with its rank calls, or None (said once, when
    CAPTURE_WINDOW_RANKS is set: then the answer is a guess)."""
    if not _lib:
        said = io.StringIO()
        try:
            with contextlib.redirect_stderr(said):   # the package's line is for loops
                from capture_window import _runtime
            lib = _runtime.LIB
        except ImportError:
            lib = None
        lib = lib or checkout_library()
        if lib is not None and hasattr(lib, "cw_windows_parse_v1"):
            lib.cw_rank_selected_v1.restype = ctypes.c_int
            lib.cw_rank_selected_v1.argtypes = [ctypes.c_char_p, ctypes.c_longlong]
            lib.cw_rank_variable_v1.restype = ctypes.c_char_p
            lib.cw_rank_variable_v1.argtypes = [ctypes.c_int]
            lib.cw_windows_parse_v1.restype = ctypes.c_int
            lib.cw_windows_parse_v1.argtypes = [ctypes.c_char_p, ctypes.POINTER(Window), ctypes.c_int]
            lib.cw_number_parse_v1.restype = ctypes.c_char_p
            lib.cw_number_parse_v1.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                               ctypes.c_longlong, ctypes.c_longlong,
                                               ctypes.POINTER(ctypes.c_longlong),
                                               ctypes.c_char_p, ctypes.c_size_t]
        else:
            lib = None
        _lib.append(lib)
    return _lib[0]


def checkout_root():
    """The source checkout this package lies in (ROOT/cli/capture_window_cli),
    or None when installed."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return root if os.path.isdir(os.path.join(root, "runtime", "include", "capture_window")) else None


def checkout_library():
    """The newest build's library in this source checkout, or None (and
    None when CAPTURE_WINDOW_LIBRARY names the one to use)."""
    root = None if os.environ.get("CAPTURE_WINDOW_LIBRARY") else checkout_root()
    built = glob.glob(os.path.join(root, "build*", "runtime", "libcapture_window.so.1")) if root else []
    for path in sorted(built, key=os.path.getmtime, reverse=True):
        with contextlib.suppress(OSError):
            return ctypes.CDLL(path)
    return None


def cannot_load(guess):
    """One line, the first time the library is missing, with the guess made."""
    if len(_lib) == 1:
        _lib.append("said")
        root = None if os.environ.get("CAPTURE_WINDOW_LIBRARY") else checkout_root()
        builds = f"none in {os.path.join(root, 'build*', 'runtime')}/; " if root else ""
        print(f"{ME}: cannot load libcapture_window ({builds}set CAPTURE_WINDOW_LIBRARY to its "
              f"path): {guess}", file=sys.stderr)


def rank_variables():
    """The rank variables, in the order the runtime reads them; () without the library."""
    lib = library()
    if not lib:
        return ()
    names, k = [], 0
    while lib.cw_rank_variable_v1(k):
        names.append(lib.cw_rank_variable_v1(k).decode())
        k += 1
    return tuple(names)


def rank_selected(rank, spec):
    """Whether CAPTURE_WINDOW_RANKS=SPEC opens windows in RANK: True, False,
    or None for a value the runtime rejects; True without the library."""
    lib = library()
    if not lib:
        cannot_load("every rank counted as selected")
        return True
    answer = lib.cw_rank_selected_v1(spec.encode(), rank)
    return None if answer < 0 else bool(answer)


def windows(spec, guess="no window of CAPTURE_WINDOW planned"):
    """CAPTURE_WINDOW=SPEC's windows as the runtime reads them, sorted by
    start: a list of Window; [] for off, none and unset; None for a value
    the runtime rejects, or without the library (said once, with GUESS:
    what the caller does without it)."""
    if not spec:
        return []
    lib = library()
    if not lib:
        cannot_load(guess)
        return None
    n = lib.cw_windows_parse_v1(spec.encode(), None, 0)
    if n < 0:
        return None
    found = (Window * n)()
    lib.cw_windows_parse_v1(spec.encode(), found, n)
    return list(found)


def occurrences(spec, guess="no window of CAPTURE_WINDOW planned"):
    """The (start, count) of each window CAPTURE_WINDOW=SPEC opens at a set
    step, periodic ones unrolled (those without TIMES: once); [] without
    the library (said once, with GUESS) or for a value the runtime rejects."""
    out = []
    for w in windows(spec, guess) or []:
        if w.placed == AT_START:
            out += [(w.start + k * w.every, w.count) for k in range(w.times if w.every else 1)]
    return out


def number(name, text, low):
    """TEXT, the number NAME, by the runtime's one number rule
    (cw_number_parse_v1: decimal digits from LOW to 2^62): (value, None),
    or (None, its words "NAME must be a decimal number from LOW to 2^62").
    Without the library (plan --from on a machine that has only the CLI),
    the same rule and words here."""
    lib = library()
    if not lib:
        ok = text.isascii() and text.isdigit() and low <= int(text) <= 1 << 62
        return (int(text), None) if ok else (None, f"{name} must be a decimal number from {low} to 2^62")
    out, buf = ctypes.c_longlong(), ctypes.create_string_buffer(128)
    data = text.encode()
    reason = lib.cw_number_parse_v1(data, len(data), name.encode(), low, 1 << 62,
                                    ctypes.byref(out), buf, len(buf))
    return (None, reason.decode()) if reason else (out.value, None)


def option_number(name, text, low):
    """A command-line number by the runtime's one rule (runtime.number):
    (value, None) or (None, "NAME must be a decimal number from LOW to
    2^62, got 'TEXT'")."""
    value, reason = number(name, text, low)
    return value, reason and f"{reason}, got '{text}'"


def parse_expect(spec):
    """START:COUNT (START may be "*": wherever the run starts it) -> (start, count)."""
    start, colon, count = spec.partition(":")
    if not colon:
        raise Usage(f"{ME}: --expect takes START:COUNT, got '{spec}'")
    values = []
    for name, text, low in (("START", start, 0), ("COUNT", count, 1)):
        value, reason = (None, None) if name == "START" and text == "*" else \
            number(name, text, low)
        if reason:
            raise Usage(f"{ME}: --expect {reason}, got '{spec}'")
        values.append(value)
    return tuple(values)


def rank_variable():
    """The rank variable the runtime reads: the first of them that is set."""
    return next((v for v in rank_variables() if os.environ.get(v)), None)


def none_due():
    """Why this process writes no report, when the runtime will open no window."""
    if os.environ.get("CAPTURE_WINDOW") == "off":
        return "CAPTURE_WINDOW=off"
    ranks = os.environ.get("CAPTURE_WINDOW_RANKS")
    var = rank_variable()
    rank = int(os.environ[var]) if var and os.environ[var].isdigit() else 0
    if ranks and rank_selected(rank, ranks) is False:
        return f"rank {rank} is not in CAPTURE_WINDOW_RANKS={ranks}"
    return None
