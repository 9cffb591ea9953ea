#!/usr/bin/env python3
"""The CLI asks the runtime (issue 34 item 3): libcapture_window's
cw_rank_selected_v1 and cw_rank_variable_v1 (capture_window/ranks.h), the
CAPTURE_WINDOW_RANKS grammar the runtime's own parse runs, the windows
cw_windows_parse_v1 reads in CAPTURE_WINDOW (capture_window/windows.h) and
the reports profile plans from them, and the command without the library
(one line, every rank selected).

Usage: runtime_rules_test.py CAPTURE_WINDOW_COMMAND LIBRARY
"""
import ctypes
import os
import subprocess
import sys
import tempfile

CW, LIBRARY = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake-nsys")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expect import expect, verdict  # noqa: E402


lib = ctypes.CDLL(LIBRARY)
lib.cw_rank_selected_v1.restype = ctypes.c_int
lib.cw_rank_selected_v1.argtypes = [ctypes.c_char_p, ctypes.c_longlong]
lib.cw_rank_variable_v1.restype = ctypes.c_char_p
lib.cw_rank_variable_v1.argtypes = [ctypes.c_int]
for spec, rank, want in ((b"0,4-7", 3, 0), (b"0,4-7", 5, 1), (b"0,4-7", 0, 1), (b"all", 9, 1),
                         (b"", 2, 1), (None, 2, 1), (b"3", 3, 1), (b"3-1", 2, -1), (b"x", 0, -1),
                         (b"1,", 1, -1), (b"-1", 0, -1), (b"0-4611686018427387905", 1, -1),
                         (b"2", -1, -1)):
    expect(f"cw_rank_selected_v1({spec!r}, {rank})", lib.cw_rank_selected_v1(spec, rank), want)
expect("cw_rank_variable_v1(0..)", [lib.cw_rank_variable_v1(k) for k in range(-1, 6)],
       [None, b"RANK", b"OMPI_COMM_WORLD_RANK", b"PMI_RANK", b"PMIX_RANK", b"SLURM_PROCID", None])


class Window(ctypes.Structure):
    _fields_ = [("start", ctypes.c_longlong), ("count", ctypes.c_longlong),
                ("every", ctypes.c_longlong), ("times", ctypes.c_longlong), ("placed", ctypes.c_int)]


lib.cw_windows_parse_v1.restype = ctypes.c_int
lib.cw_windows_parse_v1.argtypes = [ctypes.c_char_p, ctypes.POINTER(Window), ctypes.c_int]
# (value, the windows as (start, count, every, times, placed), or the return code)
for spec, want in ((b"30:3", [(30, 3, 0, 0, 0)]), (b"50:2,10:3", [(10, 3, 0, 0, 0), (50, 2, 0, 0, 0)]),
                   (b"19:3/20x3", [(19, 3, 20, 3, 0)]), (b"19:3/20", [(19, 3, 20, 0, 0)]),
                   (b"auto:4", [(-1, 4, 0, 0, 1)]), (b"spike:2x3", [(-1, 2, 0, 3, 2)]),
                   (b"spike:2", [(-1, 2, 0, 1, 2)]), (b"off", []), (b"none", []), (b"", []),
                   (None, []), (b"x", -1), (b"10:3,11:3", -1), (b"auto:3,1:2", -1),
                   (b"19:3/2", -1), (b"1:0", -1)):
    n = lib.cw_windows_parse_v1(spec, None, 0)
    got = n
    if n >= 0:
        found = (Window * max(n, 1))()
        lib.cw_windows_parse_v1(spec, found, n)
        got = [(w.start, w.count, w.every, w.times, w.placed) for w in found[:n]]
    expect(f"cw_windows_parse_v1({spec!r})", got, want)
# Its parse borrows the library's own configuration and puts it back: a
# bad value first, then a good one, reads as each alone.
expect("cw_windows_parse_v1 after a bad value", (lib.cw_windows_parse_v1(b"1:x", None, 0),
                                                lib.cw_windows_parse_v1(b"5:1", None, 0)), (-1, 1))

with tempfile.TemporaryDirectory(prefix="cw-rules-") as folder:
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("CAPTURE_WINDOW", "RANK", "OMPI_", "PMI", "SLURM"))}
    for library, lines in ((LIBRARY, ["capture-window: no report, as expected: rank 3 is not in "
                                      "CAPTURE_WINDOW_RANKS=0,4-7"]),
                           ("/no/such/libcapture_window.so", [])):
        env = dict(base, NSYS=FAKE, CAPTURE_WINDOW_LIBRARY=library, CAPTURE_WINDOW_RANKS="0,4-7",
                   SLURM_PROCID="3")
        p = subprocess.run([CW, "profile", "--", "true"], env=env, cwd=folder, capture_output=True,
                           text=True)
        said = [l for l in p.stderr.splitlines() if "libcapture_window" in l]
        if lines:
            expect("profile asks the library: rank 3 of SLURM_PROCID left out",
                   (p.returncode, p.stdout.splitlines(), said), (0, lines, []))
        else:
            expect("profile without the library: said once, the rank counted as selected",
                   (p.returncode, said, "-o true " in p.stderr),
                   (1, ["capture-window: cannot load libcapture_window (set CAPTURE_WINDOW_LIBRARY "
                        "to its path): every rank counted as selected"], True))
    # The reports profile plans come from the runtime's reading: sorted,
    # periodic windows with TIMES unrolled, one without TIMES unbounded.
    log = os.path.join(folder, "nsys.log")
    for value, end in (("50:2,10:3", "repeat:2"), ("19:3/20x3", "repeat:3"), ("30:3", "stop"),
                       ("auto:3", "stop"), ("19:3/20", "repeat"), ("spike:3", "repeat"),
                       ("10:3,11:3", "repeat")):
        env = dict(base, NSYS=FAKE, CAPTURE_WINDOW_LIBRARY=LIBRARY, CAPTURE_WINDOW=value,
                   FAKE_NSYS_LOG=log)
        subprocess.run([CW, "profile", "--", "true"], env=env, cwd=folder, capture_output=True)
        with open(log) as f:
            said = [w for w in f.read().split() if w.startswith("--capture-range-end=")]
        os.unlink(log)
        expect(f"profile plans CAPTURE_WINDOW={value}", said, [f"--capture-range-end={end}"])

# Run from a source checkout with no CAPTURE_WINDOW_LIBRARY, the command
# finds the checkout's own build (ROOT/build*/runtime/); a checkout with no
# build says where it looked and what it does without.
SOURCE = os.path.dirname(os.path.dirname(CW))
with tempfile.TemporaryDirectory(prefix="cw-checkout-") as root:
    import shutil
    shutil.copytree(os.path.join(SOURCE, "cli"), os.path.join(root, "cli"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(SOURCE, "python"), os.path.join(root, "python"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    os.makedirs(os.path.join(root, "runtime", "include", "capture_window"))
    base = {k: v for k, v in os.environ.items()
            if not k.startswith(("CAPTURE_WINDOW", "LD_LIBRARY_PATH", "RANK", "OMPI_", "PMI", "SLURM"))}
    log = os.path.join(root, "nsys.log")
    for name, build, want in (
            ("no build", False, (["--capture-range-end=repeat"], [
                f"capture-window: cannot load libcapture_window (none in {root}/build*/runtime/; "
                "set CAPTURE_WINDOW_LIBRARY to its path): no window of CAPTURE_WINDOW planned"])),
            ("its build", True, (["--capture-range-end=repeat:3"], []))):
        if build:
            os.makedirs(os.path.join(root, "build-x", "runtime"))
            os.symlink(LIBRARY, os.path.join(root, "build-x", "runtime", "libcapture_window.so.1"))
        env = dict(base, NSYS=FAKE, CAPTURE_WINDOW="19:3/20x3", FAKE_NSYS_LOG=log)
        p = subprocess.run([os.path.join(root, "cli", "capture-window"), "profile", "--", "true"],
                           env=env, cwd=root, capture_output=True, text=True)
        with open(log) as f:
            said = [w for w in f.read().split() if w.startswith("--capture-range-end=")]
        os.unlink(log)
        expect(f"a source checkout, {name}: the library",
               (said, [l for l in p.stderr.splitlines() if "libcapture_window" in l]), want)
sys.exit(verdict())
