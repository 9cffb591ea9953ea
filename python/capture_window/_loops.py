"""_loops.py - the loops and functions of a module's syntax tree that a
`--loop` spec names, and why a spec names none: what the zero edit asks
of a tree, before the run (_launch.py) and as modules compile
(_zero_edit.py), with one text for each refusal."""
import ast
import os

LOOPS = (ast.For, ast.AsyncFor, ast.While)    # async for: found, to say it cannot be marked
ASYNC = "an async for loop cannot be marked"


def functions(tree, module):
    """(node, qualified name MODULE.QUALNAME, qualname) of every function in
    TREE, with the __qualname__ CPython gives it."""
    def walk(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                q = prefix + child.name
                yield child, q
                yield from walk(child, q + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)
    for node, q in walk(tree, ""):
        yield node, module + "." + q, q


def outermost_loops(function):
    """The loops of FUNCTION's body that no other loop of it holds."""
    found = []

    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, LOOPS):
                found.append(child)
            elif not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                        ast.ClassDef, ast.Lambda)):
                walk(child)
    walk(function)
    return found


def enclosing_qualname(tree, line):
    """The qualname of the innermost function holding LINE, or <module>."""
    best = None
    for node, _, q in functions(tree, ""):
        if node.lineno <= line <= node.end_lineno:
            if best is None or node.lineno >= best[0]:
                best = (node.lineno, q)
    return best[1] if best else "<module>"


def nearest(tree, line):
    """The loops that can be marked closest to LINE, the one before it and
    the one after, said as the end of a refusal."""
    lines = sorted({n.lineno for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))})
    near = [max((k for k in lines if k < line), default=None),
            min((k for k in lines if k > line), default=None)]
    near = [str(k) for k in near if k is not None]
    if not near:
        return "; the file has no for or while loop"
    if len(near) == 1:
        return "; the nearest loop starts on line %s" % near[0]
    return "; the nearest loops start on lines %s and %s" % tuple(near)


def loop_on(tree, line):
    """(the loop whose keyword is on LINE, None), or (None, why it cannot
    be marked)."""
    for node in ast.walk(tree):
        if isinstance(node, LOOPS) and node.lineno == line:
            return (None, ASYNC) if isinstance(node, ast.AsyncFor) else (node, None)
    return None, "no for or while loop starts on this line" + nearest(tree, line)


def not_one_loop(qualname, loops, path):
    """Why a FUNCTION spec marks no loop of the function QUALNAME at PATH,
    whose outermost LOOPS are not one."""
    if not loops:
        return "%s holds no loop; name the loop by FILE:LINE" % qualname
    return ("%s has %d outermost loops (lines %s); name the loop by FILE:LINE, e.g. --loop %s:%d"
            % (qualname, len(loops), ", ".join(str(l.lineno) for l in loops),
               os.path.basename(path), loops[0].lineno))


def refusal(path, line, spec, why):
    """The line that says SPEC marks nothing at PATH:LINE, and WHY."""
    return "capture_window: %s:%d: --loop %s: %s" % (path, line, spec.text, why)
