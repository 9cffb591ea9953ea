#!/usr/bin/env python3
"""The CLI asks the runtime (issue 34 item 3): libcapture_window's
cw_rank_selected_v1 and cw_rank_variable_v1 (capture_window/ranks.h), the
CAPTURE_WINDOW_RANKS grammar the runtime's own parse runs, and the command
without the library (one line, every rank selected).

Usage: runtime_rules_test.py CAPTURE_WINDOW_COMMAND LIBRARY
"""
import ctypes
import os
import subprocess
import sys
import tempfile

CW, LIBRARY = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake-nsys")
failures = []


def expect(name, got, want):
    if got == want:
        print(f"PASS: {name}")
    else:
        failures.append(name)
        print(f"FAIL: {name}\n  got:      {got!r}\n  expected: {want!r}")


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
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
