#!/usr/bin/env python3
"""The CLI's layers (issue 31 item 7): no import cycle among the modules of
capture_window_cli, at module level or inside a function; and nsys's
defaults written in one place (common.NSYS_DEFAULTS).

Usage: layers_test.py CLI_FOLDER
"""
import ast
import os
import sys

folder = os.path.join(sys.argv[1], "capture_window_cli")
imports, words = {}, {}   # module: the modules it imports; its string constants
DEFAULTS = {"cuda,nvtx", "cudaProfilerApi", "--cuda-graph-trace=node"}
for name in sorted(os.listdir(folder)):
    if name.endswith(".py"):
        with open(os.path.join(folder, name)) as f:
            tree = ast.parse(f.read())
        # `from .X import ...` and `from . import X` (X a module of the folder)
        imports[name[:-3]] = {m for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1
                              for m in ([n.module] if n.module else [a.name for a in n.names])
                              if os.path.exists(os.path.join(folder, m + ".py"))}
        words[name[:-3]] = {n.value for n in ast.walk(tree)
                            if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def cycle(start):
    """A path of imports from START back to itself, or None."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        module, path = stack.pop()
        for other in sorted(imports.get(module, ())):
            if other == start:
                return path + [other]
            if other not in seen:
                seen.add(other)
                stack.append((other, path + [other]))
    return None


failures = [f"import cycle: {' -> '.join(c)}" for m in imports for c in [cycle(m)] if c]
for name in imports:
    if name != "common" and words[name] & DEFAULTS:
        failures.append(f"{name}.py writes nsys's defaults (common.NSYS_DEFAULTS holds them)")
for f in failures:
    print("FAIL:", f)
if not failures:
    print(f"PASS: no import cycle among {len(imports)} modules; nsys's defaults in common.py")
sys.exit(1 if failures else 0)
