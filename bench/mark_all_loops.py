#!/usr/bin/env python3
"""mark_all_loops.py IN OUT [--only REGEX] - copy a C file with
`#pragma capture_window(0,1)` before every loop at statement position, for
the compile-time benchmark; with --only, before those loops only whose
source line (from its keyword to the line's end) matches REGEX, as a user
marks the one or two loops that matter.

A loop is marked when its `for`, `while` or `do` keyword is real code (not
in a comment, a string, a character constant or a preprocessor directive, so
loops written inside #define bodies are skipped), lies inside a function
body (brace depth >= 1) and is not inside parentheses (a statement
expression or a macro argument). The `while` that ends a `do ... while`
is not a loop of its own and is left alone.

The pragma must start a line, so it is inserted as "\\n#pragma ...\\n" in
front of the keyword; the lines after it shift, which does not matter for
timing a compile. Prints the number of loops marked.
"""
import argparse
import re
import sys

TOKEN = re.compile(
    r"""
      (?P<comment>/\*.*?\*/|//(?:[^\n\\]|\\.)*)
    | (?P<string>"(?:[^"\\\n]|\\.)*")
    | (?P<char>'(?:[^'\\\n]|\\.)*')
    | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
    | (?P<newline>\n)
    | (?P<space>[ \t\r\f\v]+|\\\n)
    | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)

PRAGMA = "\n#pragma capture_window(0,1)\n"


def directive_end(text, pos):
    """End of the preprocessor directive starting at pos (continuations and
    comments that span lines included)."""
    while True:
        m = TOKEN.match(text, pos)
        if not m or m.lastgroup == "newline":
            return pos
        pos = m.end()


def loop_positions(text):
    """Offsets of the keywords of the loops to mark."""
    positions = []
    brackets = []     # open '(' '[' '{' in order
    braces = 0        # depth of '{'
    do_depths = []    # brace depth of each `do` whose `while` is still to come
    previous = None   # previous significant token
    at_line_start = True
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        kind, tok = m.lastgroup, m.group()
        if kind == "punct" and tok == "#" and at_line_start:
            pos = directive_end(text, m.end())
            continue
        pos = m.end()
        if kind == "newline":
            at_line_start = True
            continue
        if kind in ("space", "comment"):
            continue
        at_line_start = False
        if kind == "punct":
            if tok in "([{":
                brackets.append(tok)
                braces += tok == "{"
            elif tok in ")]}" and brackets:
                braces -= brackets.pop() == "{"
        elif kind == "ident" and tok in ("for", "while", "do"):
            is_do_tail = (tok == "while" and previous != "do" and do_depths
                          and do_depths[-1] == braces)
            if is_do_tail:
                do_depths.pop()
            else:
                if tok == "do":
                    do_depths.append(braces)
                if braces >= 1 and "(" not in brackets:
                    positions.append(m.start())
        previous = tok
    return positions


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("target")
    ap.add_argument("--only", type=re.compile, metavar="REGEX")
    a = ap.parse_args()
    with open(a.source, encoding="latin-1", newline="") as f:
        text = f.read()
    positions = loop_positions(text)
    if a.only:
        positions = [p for p in positions
                     if a.only.match(text, p, text.find("\n", p) % (len(text) + 1))]
    out, last = [], 0
    for p in positions:
        out.append(text[last:p])
        out.append(PRAGMA)
        last = p
    out.append(text[last:])
    with open(a.target, "w", encoding="latin-1", newline="") as f:
        f.write("".join(out))
    print(len(positions))


if __name__ == "__main__":
    main()
