#!/usr/bin/env python3
"""wheel.py - the two pip routes of docs/python.md "Install", on every
Python 3.10-3.15 that pyenv or the system (/usr/bin/python3.M) has, and on
the one running this script (the default python3), each in a fresh venv,
with no package index:

- `pip install --no-index WHEEL` (the wheel `cmake --build` wrote): the
  package loads the library the wheel put beside it, with no variable set
  (its verbose lines, and the file the process mapped), and the venv's
  `capture-window --help` prints what cli/capture-window prints, and
  `python -m capture_window --help` ends on a manual that runs there
  (`python -m pydoc capture_window`);
- `pip install ./python` (the in-tree backend, python/make_wheel.py): the
  package alone, which loads CAPTURE_WINDOW_LIBRARY.

The venvs are made --without-pip and the pip each Python bundles
(ensurepip's wheel) installs into them: the same pip a plain venv gets,
without the seconds that installing it takes. A version neither has is
said and not tested; only the default python3 cannot be missing.

Usage: wheel.py --dist DIR --source DIR --runtime LIB   (DIR: the build's dist/)
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from install import SCRIPT, WANT  # noqa: E402 (the marked loop and its verbose lines)

VERSIONS = ("3.10", "3.11", "3.12", "3.13", "3.14", "3.15")
# train.py also prints the libcapture_window files the process mapped.
MAPPED = """
print(*sorted({l.split(None, 5)[-1].strip() for l in open("/proc/self/maps")
               if "libcapture_window" in l}))
"""


def pythons():
    """{"3.M": interpreter}: pyenv's newest 3.M.N of each version, else
    /usr/bin/python3.M; the running interpreter for its own."""
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = {}
    for version in VERSIONS:
        paths = [p for p in glob.glob(os.path.join(root, "versions", version + ".*", "bin",
                                                   "python3"))
                 if re.fullmatch(re.escape(version) + r"\.\d+", p.split(os.sep)[-3])]
        if paths:
            found[version] = max(paths, key=lambda p: int(p.split(os.sep)[-3].split(".")[2]))
        elif os.path.exists("/usr/bin/python" + version):
            found[version] = "/usr/bin/python" + version
    found["%d.%d" % sys.version_info[:2]] = sys.executable
    return found


def clean_env(**extra):
    """No CAPTURE_WINDOW_*, PYTHONPATH, LD_LIBRARY_PATH or pip settings
    from outside; pip may use no index."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CAPTURE_WINDOW", "NVTX_", "PYTHON", "LD_LIBRARY", "PIP_"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_CACHE_DIR="1", PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def pip_wheel(python):
    """The pip wheel PYTHON's ensurepip installs: bundled with it, or
    Debian's (python3-venv puts it in /usr/share/python-wheels); None."""
    bundled = run([python, "-c", "import ensurepip, os; print(os.path.dirname(ensurepip.__file__))"])
    found = glob.glob(os.path.join(bundled.stdout.strip(), "_bundled", "pip-*.whl")) \
        if bundled.returncode == 0 else []
    return (found or glob.glob("/usr/share/python-wheels/pip-*.whl") or [None])[0]


def venv_with(python, folder, what):
    """A fresh venv at FOLDER with WHAT (a wheel or a source folder) pip
    installed into it; None, or what went wrong."""
    p = run([python, "-m", "venv", "--without-pip", folder])
    if p.returncode:
        return "venv: " + p.stderr
    pip = pip_wheel(python)
    if not pip:
        return "no pip wheel in %s's ensurepip" % python
    p = run([os.path.join(folder, "bin", "python"), os.path.join(pip, "pip"), "install",
             "--no-index", what], env=clean_env())
    return "pip install %s: exit %d\n%s%s" % (what, p.returncode, p.stdout, p.stderr) \
        if p.returncode else None


def marked_loop(folder, **env):
    """What is wrong with the marked loop run by the venv's python (None if
    nothing), and the libcapture_window files the process mapped."""
    with open(os.path.join(folder, "train.py"), "w") as f:
        f.write(SCRIPT + MAPPED)
    p = run([os.path.join(folder, "bin", "python"), "train.py"], cwd=folder,
            env=clean_env(CAPTURE_WINDOW_VERBOSE="1", CAPTURE_WINDOW_SELFCHECK="0", **env))
    # Without a CUDA driver the profiler lines say so; the window lines stay.
    lines = [line for line in p.stderr.splitlines() if "profiler" not in line]
    if p.returncode == 0 and len(lines) == len(WANT) and all(
            re.fullmatch(w, line) for w, line in zip(WANT, lines)):
        return None, p.stdout.strip()
    return ("exit status %d, stderr:\n%s\nexpected (profiler lines aside):\n%s"
            % (p.returncode, p.stderr, "\n".join(WANT))), p.stdout.strip()


MANUAL = "Manual: python -m pydoc capture_window (installed with the package)"


def manual_runs(folder):
    """`python -m capture_window --help` ends on a manual the wheel's user
    has: the command it names runs in the venv and prints the package's
    docs, loop() and steps() among them. None, or what went wrong."""
    python = os.path.join(folder, "bin", "python")
    p = run([python, "-m", "capture_window", "--help"], cwd=folder, env=clean_env())
    if p.returncode or p.stdout.splitlines()[-1:] != [MANUAL]:
        return "python -m capture_window --help: exit %d, last line %r, expected %r" % (
            p.returncode, p.stdout.splitlines()[-1:], MANUAL)
    p = run([python, "-m", "pydoc", "capture_window"], cwd=folder, env=clean_env())
    if p.returncode or not p.stdout.startswith("Help on package capture_window:") or any(
            f not in p.stdout for f in ("loop(iterable, start, count, label='step')",
                                        "class steps(builtins.object)")):
        return "python -m pydoc capture_window: exit %d, stdout:\n%s%s" % (
            p.returncode, p.stdout, p.stderr)
    return None


def wheel_route(python, folder, wheel, help_text):
    problem = venv_with(python, folder, wheel)
    if problem:
        return problem
    problem, mapped = marked_loop(folder)
    if problem:
        return problem
    beside = glob.glob(os.path.join(folder, "lib", "python3.*", "site-packages",
                                    "capture_window", "libcapture_window.so.1"))
    if [mapped] != beside:
        return "the process mapped %r, not the wheel's library %r" % (mapped, beside)
    p = run([os.path.join(folder, "bin", "capture-window"), "--help"], env=clean_env())
    if p.returncode or p.stdout != help_text:
        return "capture-window --help: exit %d, stdout:\n%s\nexpected:\n%s%s" % (
            p.returncode, p.stdout, help_text, p.stderr)
    return None


def source_route(python, folder, source, runtime):
    problem = venv_with(python, folder, os.path.join(source, "python"))
    if problem:
        return problem
    problem, mapped = marked_loop(folder, CAPTURE_WINDOW_LIBRARY=runtime)
    if problem:
        return problem
    if mapped != os.path.realpath(runtime):
        return "the process mapped %r, not CAPTURE_WINDOW_LIBRARY's %r" % (mapped, runtime)
    return None


def built_wheel(dist):
    """The one wheel in the build's DIST (make_wheel.py removes others)."""
    wheels = glob.glob(os.path.join(dist, "capture_window-*.whl"))
    if len(wheels) != 1:
        sys.exit("FAIL: %s holds %d wheels, not the one the build wrote: %s"
                 % (dist, len(wheels), wheels))
    return wheels[0]


def main():
    p = argparse.ArgumentParser(description="pip installs the wheel and ./python (docstring).")
    p.add_argument("--dist", required=True, help="the build's dist/, with the one wheel it wrote")
    p.add_argument("--source", required=True, help="the source tree (python/, cli/)")
    p.add_argument("--runtime", required=True, help="libcapture_window for ./python's package")
    args = p.parse_args()
    args.runtime = os.path.abspath(args.runtime)
    args.wheel = built_wheel(args.dist)
    help_text = run([sys.executable, os.path.join(args.source, "cli", "capture-window"),
                     "--help"], env=clean_env()).stdout
    found = pythons()
    for version in VERSIONS:
        if version not in found:
            print("missing: no Python %s (pyenv's or /usr/bin's), not tested" % version)
    for version, python in list(found.items()):
        if not pip_wheel(python):
            print("missing: Python %s (%s) has no pip to install with (Debian: python3-venv), "
                  "not tested" % (version, python))
            del found[version]
    if not found:
        return 77          # skipped: nothing here can pip install
    failed = 0
    with tempfile.TemporaryDirectory() as scratch, \
            concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = {}
        for version, python in sorted(found.items()):
            jobs[version, "wheel"] = pool.submit(wheel_route, python, os.path.join(
                scratch, version + "-wheel"), args.wheel, help_text)
            jobs[version, "./python"] = pool.submit(source_route, python, os.path.join(
                scratch, version + "-source"), args.source, args.runtime)
        for (version, route), job in jobs.items():
            problem = job.result()
            print("%s: Python %s (%s), pip install %s%s" % (
                "FAIL" if problem else "ok", version, found[version],
                os.path.basename(args.wheel) if route == "wheel" else route,
                ":\n" + problem if problem else ""))
            failed += bool(problem)
        # The manual is the wheel's, the same on every Python: asked once.
        version = min(v for v, route in jobs if route == "wheel")
        if not jobs[version, "wheel"].result():
            problem = manual_runs(os.path.join(scratch, version + "-wheel"))
            print("%s: Python %s, python -m capture_window --help's manual%s" % (
                "FAIL" if problem else "ok", version, ":\n" + problem if problem else ""))
            failed += bool(problem)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
