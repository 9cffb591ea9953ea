#!/usr/bin/env python3
"""demo_test.py - README.md's main job, `bash scripts/demo.sh`, word for word.

The demo runs in a scratch copy of the repository root whose
scripts/build.sh is a stand-in that prints what the real one prints
(`installing: ...`, ninja's `[K/N]` lines, or `ninja: no work to do.`), so
the test neither installs nor rebuilds; build/ links to this build's
runtime, plugin and test tools. Checked: the demo says what it is doing
while it builds (a line at every tenth of the steps), shows the last lines
of a failed build, and ends naming the CUDA sample's real path.

Usage: demo_test.py SOURCE_DIR BUILD_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The stand-in build.sh of each case, and the lines its build part prints.
# ninja first re-checks the globbed folders and reruns CMake, as steps of
# their own ([0/2], [1/2]): the demo counts the build's steps after them.
FRESH = ('echo "installing: npm"\n'
         'echo "[0/2] Re-checking globbed directories..."\n'
         'echo "[1/2] Re-running CMake..."\n'
         'echo "-- Configuring done"\n'
         'for k in $(seq 1 20); do echo "[$k/20] Building C object x$k.o"; done\n')
UP_TO_DATE = 'echo "ninja: no work to do."\n'
FAILING = ('echo "[1/2] Building C object a.o"\n'
           'echo "a.c:1:1: error: expected something"\n'
           'echo "ninja: build stopped: subcommand failed."\n'
           'exit 1\n')

RUN = """\
== gcc -fplugin=build/plugin/gcc/capture_window.so -fplugin-arg-capture_window-verbose samples/train_cpu.c
samples/train_cpu.c: In function ...main...:
samples/train_cpu.c:31:9: note: capture_window: for loop at samples/train_cpu.c:31 in 'main' instrumented, label "step", window 30:3 (iterations 30 to 32)
   31 | #pragma capture_window(30, 3)
      |         ^~~~~~~~~~~~~~

== CAPTURE_WINDOW_VERBOSE=1 ./train_cpu
capture_window: settings from the environment: CAPTURE_WINDOW_VERBOSE=1; by default: CAPTURE_WINDOW_RANKS=all, CAPTURE_WINDOW_TRIGGER=both, CAPTURE_WINDOW_ALIGN=1, CAPTURE_WINDOW_STEPS=all; unset: CAPTURE_WINDOW (each loop's own window), CAPTURE_WINDOW_LOOPS, CAPTURE_WINDOW_SIGNAL, CAPTURE_WINDOW_COUNT (each loop's own COUNT), CAPTURE_WINDOW_SELFCHECK (on when verbose or under an NVTX tool), CAPTURE_WINDOW_TIMES, CAPTURE_WINDOW_WATCH
capture_window: loop 'step' (samples/train_cpu.c:31, main) is active
capture_window: no CUDA driver (libcuda.so.1 with cuProfilerStart): profiler calls skipped
capture_window: window opened: loop 'step' (samples/train_cpu.c:31) iteration 30, window 30:3, thread ...
capture_window: window closed: loop 'step' (samples/train_cpu.c:31) held iterations 30-32, thread ...
capture_window: loop 'step' (samples/train_cpu.c:31) ran 50 iterations; window 30-32: median ..., spread ...
train_cpu: 50 steps, final loss ...

== the events around the window (NVTX recorder + stand-in CUDA driver)
push ascii step#28
pop step#28
push ascii step#29
pop step#29
profiler start
push registered step
  push ascii step#30
  pop step#30
  push ascii step#31
  pop step#31
  push ascii step#32
  pop step#32
pop step
profiler stop
push ascii step#33
pop step#33
push ascii step#34
pop step#34

The window holds steps 30-32. Profile the CUDA sample the same way:
  nsys profile -c cudaProfilerApi --capture-range-end=stop build/samples/train_cuda
"""

CASES = [  # (name, stand-in build.sh, has train_cuda, exit status, expected output)
    ("fresh", FRESH, False, 0, """\
== installing what is missing and configuring build/ (scripts/build.sh)
installing: npm
== building build/: 20 steps (a few minutes the first time)
    10% [2/20] Building C object x2.o
    20% [4/20] Building C object x4.o
    30% [6/20] Building C object x6.o
    40% [8/20] Building C object x8.o
    50% [10/20] Building C object x10.o
    60% [12/20] Building C object x12.o
    70% [14/20] Building C object x14.o
    80% [16/20] Building C object x16.o
    90% [18/20] Building C object x18.o
   100% [20/20] Building C object x20.o

""" + RUN + """\
(this build has no build/samples/train_cuda: it is built with CW_BUILD_CUDA=ON and nvcc)
"""),
    ("up to date, CUDA built", UP_TO_DATE, True, 0, """\
== installing what is missing and configuring build/ (scripts/build.sh)
== building build/: up to date

""" + RUN),
    ("failed build", FAILING, False, 1, """\
== installing what is missing and configuring build/ (scripts/build.sh)
== building build/: 2 steps (a few minutes the first time)
    50% [1/2] Building C object a.o
scripts/build.sh failed; its last lines:
[1/2] Building C object a.o
a.c:1:1: error: expected something
ninja: build stopped: subcommand failed.
"""),
]


def pattern(expected):
    return "".join(".*".join(map(re.escape, line.split("..."))) + "\n"
                   for line in expected.splitlines())


def scratch_root(top, source, build, stand_in, has_cuda):
    os.makedirs(os.path.join(top, "scripts"))
    shutil.copy(os.path.join(source, "scripts", "demo.sh"), os.path.join(top, "scripts"))
    with open(os.path.join(top, "scripts", "build.sh"), "w") as f:
        f.write(stand_in)
    os.symlink(os.path.join(source, "samples"), os.path.join(top, "samples"))
    os.makedirs(os.path.join(top, "build", "samples"))
    for part in ("runtime", "plugin", "tests"):
        os.symlink(os.path.join(build, part), os.path.join(top, "build", part))
    if has_cuda:
        cuda = os.path.join(top, "build", "samples", "train_cuda")
        open(cuda, "w").close()
        os.chmod(cuda, 0o755)


def main(source, build):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("CAPTURE_WINDOW") and k not in ("CW_BUILD_DIR", "NVTX_INJECTION64_PATH")}
    failures = 0
    for name, stand_in, has_cuda, status, expected in CASES:
        with tempfile.TemporaryDirectory() as top:
            scratch_root(top, os.path.abspath(source), os.path.abspath(build), stand_in, has_cuda)
            p = subprocess.run(["bash", os.path.join(top, "scripts", "demo.sh")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != status or not re.fullmatch(pattern(expected), p.stdout):
            failures += 1
            print(f"FAIL: {name}: exit {p.returncode} (expected {status}); output:\n{p.stdout}"
                  f"--- expected:\n{expected}")
        else:
            print(f"ok: {name}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
