"""_runtime.py - libcapture_window through ctypes: the library, the
ABI of capture_window/abi.h (version 2), and the sites.

Every decision (windows, CAPTURE_WINDOW_*, NVTX, the profiler, the
self-check, step times) is the C runtime's; this module only makes the
calls the compiler plugins emit.
"""
import atexit
import ctypes
import os
import threading

from ._say import say

ABI_VERSION = 2
NAMES = ("libcapture_window.so.1", "libcapture_window.so")


class Site(ctypes.Structure):
    """struct cw_site_v2."""
    _fields_ = [("abi_version", ctypes.c_uint), ("line", ctypes.c_uint),
                ("file", ctypes.c_char_p), ("function", ctypes.c_char_p),
                ("label", ctypes.c_char_p), ("start", ctypes.c_longlong),
                ("count", ctypes.c_longlong), ("runtime", ctypes.c_void_p * 4)]


def candidates():
    """Where the library is looked for, in order: CAPTURE_WINDOW_LIBRARY,
    beside this package (a copy put there), PREFIX/lib of a CMake install
    (the package in PREFIX/share/capture-window/python), then the dynamic
    loader's own search (LD_LIBRARY_PATH, the system folders)."""
    given = os.environ.get("CAPTURE_WINDOW_LIBRARY")
    if given:
        return [given]
    here = os.path.dirname(os.path.abspath(__file__))
    try:  # written by the CMake install: its CMAKE_INSTALL_LIBDIR
        from ._installed import LIBDIR
    except ImportError:
        LIBDIR = "lib"
    prefix_lib = os.path.normpath(os.path.join(here, "..", "..", "..", "..", LIBDIR))
    found = [os.path.join(d, n) for d in (here, prefix_lib) for n in NAMES]
    return [p for p in found if os.path.exists(p)] + list(NAMES)


def load():
    """The library, or None when none loads, after one stderr line that
    names every file tried and why it did not load: the loops then run
    unmarked, as if the program had been built without the plugin."""
    tried = []
    for path in candidates():
        try:
            # PyDLL keeps the GIL over the calls: they are short and never
            # call back into Python, and not releasing it saves its cost.
            lib = ctypes.PyDLL(path)
        except OSError as e:
            why = str(e)  # the loader's message starts with the name
            tried.append("%s (%s)" % (path, why[len(path) + 2:] if why.startswith(path + ": ")
                                      else why))
            continue
        lib.cw_loop_enter_v2.restype = ctypes.c_void_p
        lib.cw_loop_enter_v2.argtypes = [ctypes.POINTER(Site)]
        lib.cw_iter_begin_v2.restype = ctypes.c_int
        lib.cw_iter_begin_v2.argtypes = [ctypes.c_void_p]
        lib.cw_iter_end_v2.restype = None
        lib.cw_iter_end_v2.argtypes = [ctypes.c_void_p]
        lib.cw_loop_exit_v2.restype = None
        lib.cw_loop_exit_v2.argtypes = [ctypes.c_void_p, ctypes.c_int]
        return lib
    say("capture_window: cannot load libcapture_window, tried %s; the marked loops run "
        "unmarked (set CAPTURE_WINDOW_LIBRARY to the library's path)" % ", ".join(tried))
    return None


LIB = load()
if LIB:
    enter, begin, end, leave = (LIB.cw_loop_enter_v2, LIB.cw_iter_begin_v2,
                                LIB.cw_iter_end_v2, LIB.cw_loop_exit_v2)
    # The runtime's exit work (capture_window/exit.h: windows of this
    # thread closed, the exit self-check, step times written) at Python's
    # own exit, whose hooks run even where C's do not: an uncaught
    # KeyboardInterrupt ends the process by SIGINT after them. Registered
    # before the package's own hook, so it runs after it (atexit is LIFO).
    _exit_work = getattr(LIB, "cw_exit_v1", None)
    if _exit_work:
        _exit_work.restype, _exit_work.argtypes = None, []
        atexit.register(_exit_work)

_watching = []


def watching():
    """Whether the runtime watches CAPTURE_WINDOW_WATCH
    (capture_window/watch.h): another thread may then store 0 into any
    loop's attention_at. Final once a loop was entered; asked then."""
    if not _watching:
        ask = getattr(LIB, "cw_watch_active_v1", None)
        _watching.append(bool(ask and ask()))
    return _watching[0]


# The runtime keeps a pointer to each site for the life of the process:
# sites are made once per (place, window, label) and never freed.
_sites = {}
_sites_lock = threading.Lock()


def site(file, line, function, start, count, label):
    """The descriptor of the marked loop at FILE:LINE (made on first use)."""
    key = (file, line, function, start, count, label)
    s = _sites.get(key)
    if s is None:
        with _sites_lock:
            s = _sites.get(key)
            if s is None:
                s = Site(ABI_VERSION, line, file.encode(), function.encode(),
                         label.encode(), start, count)
                _sites[key] = s
    return s


def counters(head):
    """struct cw_loop_v2's two fields (next, attention_at) as a writable
    view: indexing it is the cheapest access ctypes memory has."""
    return memoryview((ctypes.c_longlong * 2).from_address(head)).cast("B").cast("q")
