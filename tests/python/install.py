#!/usr/bin/env python3
"""install.py - the package as `cmake --install` lays it out: found in
PREFIX/share/capture-window/python, it loads PREFIX/LIBDIR's library with
no variable set, and marks a loop (its verbose lines name the site).
Run by the Python under test: install.py BUILD_DIR."""
import os
import re
import subprocess
import sys
import tempfile

SCRIPT = """import capture_window
for i in capture_window.loop(range(4), 1, 2):
    pass
"""
# The verbose lines, the profiler's aside; first the settings line
# (tests/tools/settings_line.py), which tests/env/env_settings.c checks in full.
WANT = [r"capture_window: settings from the environment: .*CAPTURE_WINDOW_VERBOSE=1.*",
        r"capture_window: loop 'step' \(.*/train\.py:2, <module>\) is active",
        r"capture_window: window opened: loop 'step' \(.*/train\.py:2\) iteration 1, "
        r"window 1:2, thread [0-9]+",
        r"capture_window: window closed: loop 'step' \(.*/train\.py:2\) held iterations 1-2, "
        r"thread [0-9]+"]


def main():
    build = sys.argv[1]
    with tempfile.TemporaryDirectory() as prefix:
        subprocess.run(["cmake", "--install", build, "--prefix", prefix], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(prefix, "train.py"), "w") as f:
            f.write(SCRIPT)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CAPTURE_WINDOW", "NVTX_", "PYTHON", "LD_LIBRARY"))}
        env.update(PYTHONPATH=os.path.join(prefix, "share", "capture-window", "python"),
                   CAPTURE_WINDOW_VERBOSE="1", CAPTURE_WINDOW_SELFCHECK="0")
        p = subprocess.run([sys.executable, "train.py"], cwd=prefix, env=env,
                           capture_output=True, text=True)
    # Without a CUDA driver the profiler lines say so; the window lines stay.
    lines = [l for l in p.stderr.splitlines() if "profiler" not in l]
    ok = p.returncode == 0 and len(lines) == len(WANT) and all(
        re.fullmatch(w, l) for w, l in zip(WANT, lines))
    if not ok:
        print("FAIL: exit status %d, stderr:\n%s\nexpected (profiler lines aside):\n%s"
              % (p.returncode, p.stderr, "\n".join(WANT)))
        return 1
    print("ok: the installed package loaded the installed library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
