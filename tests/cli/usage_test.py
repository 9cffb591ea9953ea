#!/usr/bin/env python3
"""The command's own manners: `--help` on every verb (and only among the
verb's own options: after the program or '--' it is the program's),
`--version` (the CMake project's, in the source tree and installed), the
synopsis for no command, a profiler that does not start naming the
variable that picks it, and output to a closed pipe (`capture-window plan
--from F | head -2`) ending quietly with status 141 (128 + SIGPIPE), as
standard tools end.

Usage: usage_test.py CAPTURE_WINDOW_COMMAND PROJECT_VERSION BUILD_VERSION_PY
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CW = os.path.abspath(sys.argv[1])
PROJECT_VERSION, BUILD_VERSION_PY = sys.argv[2], sys.argv[3]
FAKE = os.path.join(HERE, "fake-nsys")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from expect import expect as check, verdict  # noqa: E402


def run(args, stdout=subprocess.PIPE, env=None, command=CW):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CAPTURE_WINDOW")}
    environ.update(env or {})
    p = subprocess.run([command, *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                       env=environ, timeout=60)
    return p.returncode, p.stdout or "", p.stderr


def version_cases(folder):
    """--version: the top CMakeLists.txt's, read in the source tree; in the
    layout `cmake --install` makes (no CMakeLists.txt near), _version.py,
    which the build writes from it."""
    check("--version (source tree)", run(["--version"]), (0, f"capture-window {PROJECT_VERSION}\n", ""))
    check("-V", run(["-V"]), (0, f"capture-window {PROJECT_VERSION}\n", ""))
    prefix = os.path.join(folder, "prefix")
    package = os.path.join(prefix, "share", "capture-window", "python", "capture_window_cli")
    os.makedirs(os.path.join(prefix, "bin"))
    shutil.copy(CW, os.path.join(prefix, "bin"))
    shutil.copytree(os.path.join(os.path.dirname(CW), "capture_window_cli"), package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(BUILD_VERSION_PY, package)
    check("--version (installed)", run(["--version"], command=os.path.join(prefix, "bin", "capture-window")),
          (0, f"capture-window {PROJECT_VERSION}\n", ""))


def synopsis():
    """What the manual's synopsis paragraph says, as no command prints it."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "cli_manual", os.path.join(os.path.dirname(CW), "capture_window_cli", "__init__.py"))
    manual = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(manual)
    return manual.__doc__.strip().split("\n\n")[1] + "\n"


def manual_usage():
    """docs/cli.md's usage block, indented as the synopsis is."""
    with open(os.path.join(os.path.dirname(os.path.dirname(CW)), "docs", "cli.md")) as f:
        block = f.read().split("```usage\n", 1)[1].split("```", 1)[0]
    return "".join("  " + line + "\n" for line in block.splitlines())


def closed_pipe(args):
    """ARGS with stdout a pipe whose reader has gone before the first write."""
    r, w = os.pipe()
    os.close(r)
    try:
        return run(args, stdout=w)
    finally:
        os.close(w)


SYNOPSIS = {
    "profile": "  capture-window profile [-o NAME] [--label L] [--expect START:COUNT]",
    "check": "  capture-window check [--label L] [--expect START:COUNT] [--json] REPORT.nsys-rep...",
}
PARAGRAPH = {"profile": "profile runs", "check": "check exports each report with"}
# plan's help is its own, longer text (plan.py's HELP).
PLAN_HELP = ["usage: capture-window plan [OPTIONS] -- PROGRAM [ARG...]",
             "       capture-window plan [OPTIONS] --from FILE|FOLDER [FILE...]"]


def main():
    lines = synopsis().splitlines()
    check("no command: the synopsis, every verb and --version", (run([]), lines[-3:]), (
        (2, "", synopsis()),
        ["  capture-window trigger PATH (--at STEP | --align N) [--count C] [--label L] [--wait SECONDS]",
         "  capture-window diff [--json] [--fail-if-slower PCT] [--label L] BASE NEW",
         "  capture-window --version"]))
    check("docs/cli.md's usage block is --help's synopsis", manual_usage(), synopsis())
    # A verb's missing or bad arguments: what is wrong, then that verb's
    # synopsis lines only (the manual's), never every verb's.
    mine = {v: [l for l in lines if l.startswith(f"  capture-window {v} ")
                or l.startswith(" " * 25) and v == "profile"] for v in ("check", "plan", "diff", "profile")}
    for verb, words, message in (
            ("check", [], None),
            ("check", ["--steps", "x.nsys-rep"], "capture-window: check: unknown option '--steps'"),
            ("check", ["--label"], "capture-window: --label needs a value"),
            ("plan", [], "capture-window: plan: give either --from PATH... or -- PROGRAM [ARG...]"),
            ("plan", ["--fast"], "capture-window: plan: unknown option '--fast' (--help lists them)"),
            ("diff", ["a"], "capture-window: diff: give two runs, BASE and NEW (each a step-time "
             "file, a folder of them or a quoted glob), got 1: a"),
            ("profile", ["-o", "x"], "capture-window: profile: no program given"),
            ("profile", ["--tool", "vtune", "--", "./p"],
             "capture-window: --tool takes nsys or ncu, got 'vtune'")):
        want = "\n".join(filter(None, [message, "usage:", *mine[verb]])) + "\n"
        check(f"{verb} {' '.join(words)}: its own usage", run([verb, *words]), (2, "", want))
    # Every verb's numbers by the runtime's one rule and words (runtime.number).
    for words, option, low, text in ((["plan", "--count", "0", "--from", "x"], "plan: --count", 1, "0"),
                                     (["plan", "--steps", "1x", "--", "./p"], "plan: --steps", 1, "1x"),
                                     (["profile", "--auto", "--steps", "0", "--", "./p"],
                                      "profile --auto: --steps", 1, "0"),
                                     (["profile", "--auto", "--count", str((1 << 62) + 1), "--", "./p"],
                                      "profile --auto: --count", 1, str((1 << 62) + 1)),
                                     (["profile", "--tool", "ncu", "--steps", "x", "--", "./p"], "--steps", 1, "x")):
        check(" ".join(words), run(words),
              (2, "", f"capture-window: {option} must be a decimal number from {low} to 2^62, got '{text}'\n"))
    status, out, err = run(["diff", "--help"])
    check("diff --help: its own text", (status, err, out.splitlines()[:1]),
          (0, "", ["usage: capture-window diff [--json] [--fail-if-slower PCT] [--label L] BASE NEW"]))
    check("an unknown command", run(["prof"]),
          (2, "", "capture-window: unknown command 'prof' (profile, check, plan, trigger, diff; --help, --version)\n"))
    for tool, variable, args in (("nsys", "NSYS", []), ("ncu", "NCU", ["--tool", "ncu"])):
        status, out, err = run(["profile", *args, "--", "./train"], env={variable: "/no/such/" + tool})
        check(f"profile{' ' if args else ''}{' '.join(args)} without {tool}", (status, out, err.splitlines()[-1:]),
              (1, "", [f"capture-window: cannot run /no/such/{tool}: No such file or directory "
                       f"({variable} names the {tool} to run)"]))
    for verb in ("profile", "check", "plan"):
        for words in (["--help"], ["-h"], ["--label", "x", "--help"]):
            status, out, err = run([verb, *words])
            lines = out.splitlines()
            if verb == "plan":
                check(f"{verb} {' '.join(words)}", (status, err, lines[:2]), (0, "", PLAN_HELP))
                continue
            check(f"{verb} {' '.join(words)}",
                  (status, err, lines[:2], any(l.startswith(PARAGRAPH[verb]) for l in lines)),
                  (0, "", ["usage:", SYNOPSIS[verb]], True))
    # After the program, or after '--', --help belongs to the program.
    with tempfile.TemporaryDirectory() as folder:
        version_cases(folder)
        log = os.path.join(folder, "nsys.log")
        open(log, "w").close()
        env = {"NSYS": FAKE, "FAKE_NSYS_LOG": log}
        for words in (["./train", "--help"], ["-o", "t", "--", "./train", "-h"]):
            run(["profile", *words], env=env)
        with open(log) as f:
            calls = [line.split(" -o ")[1] for line in f.read().splitlines()
                     if line.startswith("nsys profile")]
        check("profile PROGRAM --help runs PROGRAM --help", calls,
              ["train ./train --help", "t ./train -h"])
        status, out, err = run(["plan", "--from", os.path.join(folder, "none"), "--help"])
        check("plan --from F --help", (status, out.splitlines()[:1]), (0, PLAN_HELP[:1]))

        steps = os.path.join(folder, "steps.txt")
        with open(steps, "w") as f:
            f.write("# capture-window step times 1\nloop 1 T1 step train.c:31\n")
            f.writelines(f"1 {i} {1000000 + i % 7}\n" for i in range(200))
        check("plan --from F | (reader gone)", closed_pipe(["plan", "--from", steps]),
              (141, "", ""))
        check("plan --json --from F | (reader gone)",
              closed_pipe(["plan", "--json", "--from", steps]), (141, "", ""))
    check("--help | (reader gone)", closed_pipe(["--help"]), (141, "", ""))
    check("check --help | (reader gone)", closed_pipe(["check", "--help"]), (141, "", ""))
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
