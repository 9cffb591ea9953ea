#!/usr/bin/env python3
"""The command's own manners: `--help` on every verb (and only among the
verb's own options: after the program or '--' it is the program's), and
output to a closed pipe (`capture-window plan --from F | head -2`) ending
quietly with status 141 (128 + SIGPIPE), as standard tools end.

Usage: usage_test.py CAPTURE_WINDOW_COMMAND
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CW = os.path.abspath(sys.argv[1])
FAKE = os.path.join(HERE, "fake-nsys")
failures = []


def run(args, stdout=subprocess.PIPE, env=None):
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CAPTURE_WINDOW")}
    environ.update(env or {})
    p = subprocess.run([CW, *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                       env=environ, timeout=60)
    return p.returncode, p.stdout or "", p.stderr


def check(name, got, want):
    if got == want:
        print(f"PASS: {name}")
    else:
        failures.append(name)
        print(f"FAIL: {name}\n  got:      {got!r}\n  expected: {want!r}")


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
    print(f"{len(failures)} failure(s)" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
