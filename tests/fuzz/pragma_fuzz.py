#!/usr/bin/env python3
"""pragma_fuzz.py - fuzz the capture_window pragma grammar through the real
compiler and plugin.

Thousands of pragma lines - generated from the grammar's tokens and
mutated from valid pragmas (tokens dropped, doubled, swapped, replaced,
characters inserted) - are compiled, many per file, one per function, each
followed by a loop.  With -fplugin-arg-capture_window-verbose every pragma
must end in exactly one of:

  - a note `capture_window: ... instrumented` at its line (it was valid), or
  - an error at FILE:LINE:COL of its line whose message names capture_window,
  - or an error of GCC's own lexer about a malformed token on that line
    (an unterminated string, narrow and wide strings joined, a bad
    suffix): GCC's pragma_lex reports those itself before the plugin sees
    the token (a macro's token is reported at its #define).
  No error may fall on another line.

The compiler must never crash (no internal compiler error, no signal), and
the run is deterministic for a given --seed.  A failing pragma is printed
with its line so that it can become a diagnostics case.

Usage: pragma_fuzz.py --plugin capture_window.so [--cc gcc] [--cxx g++]
                      [--count 6000] [--seed 7] [--work DIR]
"""
import argparse
import os
import random
import re
import subprocess
import sys

NUMBERS = ["0", "1", "2", "30", "3", "0x10", "010", "0b11", "1u", "2ll", "7UL", "1e3",
           "2.5", ".5", "99999999999999999999", "4611686018427387904",
           "4611686018427387905", "9223372036854775807", "18446744073709551616",
           "'a'", "1'000", "W", "COUNT2"]
STRINGS = ['"step"', '""', '"a b"', '"' + "x" * 63 + '"', '"' + "y" * 64 + '"',
           '"ok.label-1"', 'u8"u"', 'L"w"', 'u"x"', 'U"x"', '"tab\\t"', '"q\\"q"',
           'LBL', '"\\x41"', 'R"(raw)"', '"ü"', '"a" "b"']
OTHER = ["(", ")", ",", "-", "+", "*", "[", "]", ";", "{", "}", "#", "##", "...",
         "ident", "sizeof", "int", "capture_window", "=", "<", ">", "?", ":", "!",
         "'", '"', "\\t", "@", "$", "`", "0x", "1.", "__LINE__", "__FILE__"]
PREAMBLE = ('#define W 5\n#define COUNT2 2\n#define LBL "macro_label"\n'
            '#define EMPTY\nvoid sink(int);\n')
NOTE_RE = re.compile(r"^(.*?):(\d+):(\d+): note: capture_window: .* instrumented")
DIAG_RE = re.compile(r"^(.*?):(\d+):(?:(\d+):)? (error|warning|note): (.*)$")
# The preprocessor's own complaints about a malformed token on the line.
LEXER_RE = re.compile(r"missing terminating|stray|unterminated|invalid suffix|"
                      r"character constant|empty character|raw string|"
                      r"multi-character|invalid (?:digit|prefix)|"
                      r"exponent has no digits|integer constant is too large|"
                      r"is too large for its type|universal character|"
                      r"null character|decimal constant|not valid in a "
                      r"preprocessing|backslash|wide string is invalid|"
                      r"string literal operator|floating constants require|"
                      r"decimal points|digit separator|concatenation of string|"
                      r"user-defined literal", re.I)


def valid_pragma(rng):
    args = [rng.choice(["0", "1", "30", "W", "0x10", "5"]),
            rng.choice(["1", "3", "COUNT2", "2"])]
    if rng.random() < 0.5:
        args.append(rng.choice(['"step"', '"eval"', "LBL", '"a.b-c_9"']))
    return "(" + ", ".join(args) + ")"


def tokens_of(text):
    return re.findall(r'"(?:[^"\\]|\\.)*"|\w+|\S', text)


def mutate(rng, text):
    toks = tokens_of(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        pool = rng.choice([NUMBERS, STRINGS, OTHER])
        k = rng.randrange(len(toks) + 1)
        if op == 0 and toks:
            del toks[min(k, len(toks) - 1)]
        elif op == 1:
            toks.insert(k, rng.choice(pool))
        elif op == 2 and toks:
            toks[min(k, len(toks) - 1)] = rng.choice(pool)
        elif op == 3 and len(toks) > 1:
            i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == 4 and toks:
            toks.insert(k, toks[min(k, len(toks) - 1)])
        else:
            s = " ".join(toks)
            at = rng.randrange(len(s) + 1)
            s = s[:at] + rng.choice("()\",-0123456789 ax.\\'#") + s[at:]
            toks = [s]
    return " ".join(toks)


def generated(rng):
    n = rng.randint(0, 9)
    return " ".join(rng.choice(rng.choice([NUMBERS, STRINGS, OTHER, ["(", ")", ","]]))
                    for _ in range(n))


def safe_line(text):
    """Keep the pragma on its own line: no comment openers, no line splice."""
    text = text.replace("/*", "/ *").replace("//", "/ /").replace("*/", "* /")
    # A C++ raw string may span lines: an unterminated one would swallow
    # the functions after it.
    text = text.replace('R"', 'R "')
    return text.rstrip("\\ ")


def make_case(rng, index):
    r = rng.random()
    if r < 0.15:
        args = valid_pragma(rng)
    elif r < 0.75:
        args = mutate(rng, valid_pragma(rng))
    else:
        args = generated(rng)
    args = safe_line(args)
    form = "pragma"
    if r < 0.15 and rng.random() < 0.3:
        form = "_Pragma"
    return form, args


def write_file(path, cases):
    lines = PREAMBLE.splitlines()
    pragma_lines = {}
    for n, (form, args) in enumerate(cases):
        lines.append("void f%d(int n) {" % n)
        if form == "_Pragma":
            escaped = ("capture_window " + args).replace("\\", "\\\\").replace('"', '\\"')
            lines.append('  _Pragma("%s")' % escaped)
        else:
            lines.append("#pragma capture_window " + args)
        pragma_lines[len(lines)] = (form, args)
        lines.append("  for (int i = 0; i < n; i++) sink(i);")
        lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return pragma_lines


def check_output(path, out, rc, pragma_lines):
    problems = []
    if rc not in (0, 1) or "internal compiler error" in out or "Segmentation" in out:
        problems.append("the compiler crashed (exit %d):\n%s" % (rc, out[-4000:]))
        return problems
    base = os.path.basename(path)
    seen = {}  # line -> {"note", "cw-error", "lexer"}
    for raw in out.splitlines():
        m = DIAG_RE.match(raw)
        if not m or os.path.basename(m.group(1)) != base:
            continue
        line, col, kind, msg = int(m.group(2)), m.group(3), m.group(4), m.group(5)
        if kind == "note" and NOTE_RE.match(raw):
            seen.setdefault(line, set()).add("note")
        elif kind == "error":
            if line not in pragma_lines:
                # A macro's token is located at its #define in the preamble.
                if not (line <= PREAMBLE.count("\n") and LEXER_RE.search(msg)):
                    problems.append("error away from any pragma: %s" % raw)
            elif "capture_window" in msg:
                if not col:
                    problems.append("capture_window error without a column: %s" % raw)
                seen.setdefault(line, set()).add("cw-error")
            elif LEXER_RE.search(msg):
                seen.setdefault(line, set()).add("lexer")
            else:
                problems.append("error that does not name capture_window: %s\n"
                                "  pragma: %s" % (raw, pragma_lines[line][1]))
    for line, (form, args) in sorted(pragma_lines.items()):
        got = seen.get(line, set())
        if "note" in got and "cw-error" in got:
            problems.append("line %d both instrumented and refused: %s" % (line, args))
        elif not got & {"note", "cw-error", "lexer"}:
            problems.append("line %d neither instrumented nor refused: %s %s"
                            % (line, form, args))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--count", type=int, default=6000)
    ap.add_argument("--per-file", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--work", default=".")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.work, exist_ok=True)
    problems, total, valid = [], 0, 0
    for k in range(0, a.count, a.per_file):
        cases = [make_case(rng, i) for i in range(min(a.per_file, a.count - k))]
        ext = ".cc" if (k // a.per_file) % 2 else ".c"
        path = os.path.join(a.work, "fuzz%d%s" % (k // a.per_file, ext))
        pragma_lines = write_file(path, cases)
        cc = a.cxx if ext == ".cc" else a.cc
        p = subprocess.run([cc, "-c", "-o", os.devnull, "-fmax-errors=0",
                            "-fdiagnostics-plain-output", "-fno-diagnostics-color",
                            "-fplugin=" + a.plugin, "-fplugin-arg-capture_window-verbose",
                            path], capture_output=True, text=True, errors="replace")
        out = p.stdout + p.stderr
        found = check_output(path, out, p.returncode, pragma_lines)
        valid += sum(1 for l in out.splitlines() if NOTE_RE.match(l))
        total += len(cases)
        problems += ["%s: %s" % (os.path.basename(path), x) for x in found]
    for x in problems[:40]:
        print("FAIL: " + x)
    print("%d pragmas (seed %d): %d instrumented, %d refused; %d problem(s)"
          % (total, a.seed, valid, total - valid, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
