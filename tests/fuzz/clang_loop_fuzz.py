#!/usr/bin/env python3
"""clang_loop_fuzz.py - fuzz the Clang plugin's loop reader (cw-loop.cc),
the way pragma_fuzz.py fuzzes the GCC plugin's grammar.

The Clang plugin reads a marked loop ahead, token by token, to find where
its body ends; a body it misreads swallows the code after it (issue 43
item 9: `for (...) (void)e;` broke the next function).  Here every
statement form a body can take is generated:

  - unbraced bodies that begin with '(' (casts, `(n)++`, `((void)0)`,
    statement expressions), casts, calls, conditionals, comma expressions;
  - lambdas called in place, `[[attributes]]` on a declaration;
  - labels, case and default labels of an unbraced switch;
  - if/else, if constexpr, nested loops, do-while, try/catch;
  - nested braces, continue and break;

each as the body of every loop form (for, range-for, while, do-while) in a
function of its own, followed by every kind of code that may come next
(a function with try/catch, a class, a namespace, nothing).  Then seeded
random bodies nest those forms in each other.  Each file is compiled
twice with the same clang and flags, without and with the plugin, and:

  - the compiler's diagnostics must be the same (each with its source
    and caret lines; their order aside: records());
  - each program's output (a checksum per marked loop) must be the same;
  - with the plugin, CAPTURE_WINDOW_VERBOSE=1 must show exactly one window
    opened per marked loop (the loop was instrumented, its window 1:2).

Usage: clang_loop_fuzz.py --plugin capture_window_clang.so --clang clang
                          --runtime-dir DIR [--random 120] [--seed 11]
                          [--work DIR]
"""
import argparse
import os
import random
import re
import subprocess
import sys

# Body forms: (text, C++ only).  `e` is the loop's variable, `acc` and `n`
# the function's locals, `g_total` a global; K makes names unique.
BODIES = [
    ("(void)e;", False),
    ("(n)++;", False),
    ("((void)0);", False),
    ("(void)(acc += e);", False),
    ("(acc) += e;", False),
    ("(acc += e), (void)0;", False),
    ("(acc += e) ? (void)0 : (void)1;", False),
    ("({ acc += e; 0; });", False),
    ("acc += (int)e;", False),
    ("*(&acc) += e;", False),
    ("g_total += (e);", False),
    (";", False),
    ("{ acc += e; }", False),
    ("{ { (acc) += e; } (n)++; }", False),
    ("{ if (e == 3) break; (acc) += e; }", False),
    ("if (e == 2) continue; else (acc) += e;", False),
    ("if (e & 1) (acc) += e;", False),
    ("if (e & 1) (acc) += e; else if (e) (n)++; else (void)0;", False),
    ("switch (e) case 1: default: (acc) += e;", False),
    ("switch (e) { case 2: (n)++; break; default: (acc) += e; }", False),
    ("lbl: (acc) += e;", False),
    ("for (int k = 0; k < 2; ++k) (acc) += k + e;", False),
    ("while ((n)++ < 0) (void)0;", False),
    ("do (acc) += e; while (0);", False),
    ("static_cast<void>(acc += e);", True),
    ("[&] { acc += e; }();", True),
    ("[&](int v) { (acc) += v; }(e);", True),
    ("[[maybe_unused]] int t = (int)e;", True),
    ("if constexpr (true) (acc) += e;", True),
    ("try { (acc) += e; } catch (...) { (void)0; }", True),
    ("try { throw (int)e; } catch (int const &x) { (acc) += x; } catch (...) { }", True),
]
# Loop forms around BODY, after what goes before the pragma ('|'); `arr`
# holds 0..3.
LOOPS = [
    "for (int e = 0; e <= 3; ++e) BODY",
    "for (int e : arr) BODY",
    "int e = -1;|while (++e <= 3) BODY",
    "int e = 0;|do BODY while (++e <= 3);",
]
C_LOOPS = LOOPS[:1] + LOOPS[2:]
# What follows the function (the issue's fault showed there).
FOLLOWERS = [
    ("void after_K(void) { try { throw 1; } catch (int const &e) { (void)e; } }", True),
    ("struct S_K { int v = (1); int get() const { return (v); } };", True),
    ("namespace ns_K { inline int f() { return (0); } }", True),
    ("static int after_K(int x) { return (x) + 1; }", False),
    ("", False),
]
PREAMBLE = "#include <stdio.h>\nstatic int g_total;\n"


def function(k, loop, body):
    """A function whose one marked loop is LOOP with BODY."""
    before, _, text = loop.rpartition("|")
    text = text.replace("BODY", body)
    return (f"static int f{k}(void) {{\n"
            f"  int acc = 0, n = 0, arr[] = {{0, 1, 2, 3}};\n"
            f"  (void)arr; {before}\n"
            f"#pragma capture_window(1, 2, \"f{k}\")\n"
            f"  {text}\n"
            f"  return acc * 31 + n;\n"
            f"}}\n")


def random_body(rng, cxx, depth=0):
    """A body nesting random forms (braces, if/else, labels, loops, try)."""
    leaves = [b for b, only in BODIES if (cxx or not only) and "break" not in b
              and "continue" not in b and "lbl:" not in b]
    if depth >= 3 or rng.random() < 0.3:
        return rng.choice(leaves)
    inner = lambda: random_body(rng, cxx, depth + 1)   # noqa: E731
    shapes = [lambda: "{ " + inner() + " " + inner() + " }",
              lambda: "if ((e) & 1) " + inner() + " else " + inner(),
              lambda: f"lbl{depth}: " + inner(),
              lambda: "for (int k = 0; k < 2; ++k) " + inner(),
              lambda: "do " + inner() + " while (0);",
              lambda: "switch (e) case 0: default: " + inner()]
    if cxx:
        shapes += [lambda: "try " + "{ " + inner() + " } catch (...) { }",
                   lambda: "[&] { " + inner() + " }();"]
    return rng.choice(shapes)()


def units(cxx, count, seed):
    """[(file name, [function text])]: every form, then COUNT random ones."""
    rng = random.Random(seed)
    loops = LOOPS if cxx else C_LOOPS
    bodies = [b for b, only in BODIES if cxx or not only]
    followers = [f for f, only in FOLLOWERS if cxx or not only]
    funcs = []
    for i, body in enumerate(bodies):
        for j, loop in enumerate(loops):
            funcs.append((loop, body, followers[(i + j) % len(followers)]))
    for _ in range(count):
        funcs.append((rng.choice(loops), random_body(rng, cxx), rng.choice(followers)))
    # Units of 64 functions: few compilations, and a misread still shows.
    ext = "cc" if cxx else "c"
    out = []
    for start in range(0, len(funcs), 64):
        texts = []
        for k, (loop, body, follower) in enumerate(funcs[start:start + 64], start):
            texts.append(function(k, loop, body) + follower.replace("_K", f"_{k}") + "\n")
        out.append((f"loops_{'cxx' if cxx else 'c'}_{start // 64}.{ext}", texts))
    return out


def write_unit(path, texts, first):
    calls = "".join(f'  printf("f{k} %d\\n", f{k}());\n'
                    for k in range(first, first + len(texts)))
    with open(path, "w") as f:
        f.write(PREAMBLE + "".join(texts) +
                "int main(void) {\n" + calls + '  printf("total %d\\n", g_total);\n'
                "  return 0;\n}\n")


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def records(diags):
    """The compiler's diagnostics, each with its source and caret lines,
    sorted: the plugin reports -Wempty-body of `for (x : r) ;` as it reads
    the loop (cw-loop.cc), before Sema's warnings about the same loop."""
    out = []
    for line in diags.splitlines():
        if not out or re.match(r"\S+:\d+:\d+: |\d+ (warning|error)s? generated", line):
            out.append(line)
        else:
            out[-1] += "\n" + line
    return sorted(out)


def check_unit(args, path, nfuncs):
    """A list of failures of the unit at PATH."""
    cxx = path.endswith(".cc")
    std = ["-x", "c++", "-std=c++17"] if cxx else ["-std=gnu11"]
    flags = std + ["-Wall", "-Wextra", "-Wno-unknown-pragmas", "-Wno-unused-label", "-O0"]
    failures, outputs = [], []
    for plugged in (False, True):
        exe = path + (".plugged" if plugged else ".plain")
        extra = [f"-fplugin={args.plugin}"] if plugged else []
        link = ["-x", "none", f"-L{args.runtime_dir}", f"-Wl,-rpath,{args.runtime_dir}",
                "-lcapture_window"] + (["-lstdc++"] if cxx else [])
        rc, _, diags = run([args.clang] + flags + extra + [path] + link + ["-o", exe])
        # The compiler's words, less the file's own folder.
        diags = diags.replace(os.path.dirname(path) + "/", "")
        if rc != 0:
            outputs.append((rc, diags, None, None))
            continue
        env = dict(os.environ, CAPTURE_WINDOW_VERBOSE="1")
        env.pop("CAPTURE_WINDOW", None)
        prc, out, err = run([exe], env)
        outputs.append((rc, diags, (prc, out), err))
    (rc0, d0, o0, _), (rc1, d1, o1, err1) = outputs
    name = os.path.basename(path)
    if (rc0, records(d0)) != (rc1, records(d1)):
        failures.append(f"{name}: the compiler says something else with the plugin\n"
                        f"--- without (exit {rc0}):\n{d0}--- with (exit {rc1}):\n{d1}")
    elif rc0 != 0:
        failures.append(f"{name}: does not compile even without the plugin:\n{d0}")
    elif o0 != o1:
        failures.append(f"{name}: the program's output differs with the plugin")
    else:
        opened = sorted(re.findall(r"window opened: loop '(f\d+)'", err1))
        if len(opened) != nfuncs or len(set(opened)) != nfuncs:
            failures.append(f"{name}: {len(opened)} windows opened ({len(set(opened))} loops), "
                            f"expected one in each of the {nfuncs} marked loops")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--clang", required=True, help="clang (C); clang++ is taken beside it")
    ap.add_argument("--runtime-dir", required=True)
    ap.add_argument("--random", type=int, default=120, help="random bodies per language")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--work", default="clang_loop_fuzz")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures, total, nunits = [], 0, 0
    for cxx in (True, False):
        first = 0
        for name, texts in units(cxx, args.random, args.seed):
            path = os.path.abspath(os.path.join(args.work, name))
            write_unit(path, texts, first)
            failures += check_unit(args, path, len(texts))
            first += len(texts)
            total += len(texts)
            nunits += 1
    for f in failures:
        print("FAIL " + f)
    print(f"clang_loop_fuzz: {total} marked loops in {nunits} units, "
          f"{len(failures)} units differ with the plugin")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
