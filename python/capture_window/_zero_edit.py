"""_zero_edit.py - `python -m capture_window --loop SPEC SCRIPT ARGS` (or
`-m MODULE ARGS`, _launch.py runs either): loops of the program, or of any
module it imports, marked with no edit of a file.

Each spec is parsed by the runtime's loop spec engine (_spec.py): FILE:LINE
names the loop on LINE of any module whose path ends in FILE, FUNCTION the
outermost loop of each function so named (Trainer.fit,
pkg.mod.Trainer.fit). _loops.py finds them in a module's syntax tree. A
spec that marked nothing by the end of the run is named then, with what
is known of why: its FILE never imported, or the names closest to its
FUNCTION among the functions of the modules compiled here.

The marked loops are rewritten when their module's source is compiled
(the script's, and each imported module's that a spec may name), on the
syntax tree, so lines and columns stay those of the file:

    for T in ITER:           for T in __capture_window__.loop(K, ITER):
        BODY                     BODY

    while COND:              with __capture_window__.steps(K) as __capture_window_K__:
        BODY                     while __capture_window_K__.end() and COND:
    else:                            __capture_window_K__.begin()
        ELSE                         BODY
                                 else:
                                     __capture_window_K__.leave()
                                     ELSE

K numbers the marked loops (their sites). The `for` form is the loop
that capture_window.loop() makes; the `while` form makes the same calls,
with the iteration being the body: COND is evaluated between iterations,
as the compiler plugins do it. Every other module is imported as before,
from its cached bytecode, and no code is traced: the cost is the marked
loops' own (docs/python.md, "Cost"), on every Python from 3.10.
"""
import ast
import difflib
import importlib.machinery
import os
import re
import sys
import threading

from . import _marked, _runtime, _spec
from ._iteration import IDLE, Entry
from ._loops import (ASYNC, enclosing_qualname, functions, loop_on, not_one_loop, outermost_loops,
                     refusal)
from ._say import say

GLOBAL = "__capture_window__"     # the name the rewritten code calls through


class Marker:
    """A loop found by a spec: where it is, and its site once marked."""

    def __init__(self, spec, node, path, qualname):
        self.spec, self.node, self.path, self.qualname = spec, node, path, qualname

    def site(self):
        s = self.spec
        return _runtime.site(self.path, self.node.lineno, self.qualname, s.start, s.count,
                             s.label)


def call(obj, method, *args):
    """The syntax tree of OBJ.METHOD(ARGS...), OBJ a name."""
    return ast.Call(func=ast.Attribute(value=ast.Name(obj, ast.Load()), attr=method,
                                       ctx=ast.Load()), args=list(args), keywords=[])


class Rewriter(ast.NodeTransformer):
    """Rewrites the loops of MARKERS (by node), numbered from FIRST, as the
    module docstring says."""

    def __init__(self, first, markers):
        self.markers = {id(m.node): k for k, m in enumerate(markers, first)}

    def visit_For(self, node):
        self.generic_visit(node)
        k = self.markers.get(id(node))
        if k is not None:
            node.iter = ast.copy_location(call(GLOBAL, "loop", ast.Constant(k), node.iter),
                                          node.iter)
        return node

    def visit_While(self, node):
        self.generic_visit(node)
        k = self.markers.get(id(node))
        if k is None:
            return node
        state = "__capture_window_%d__" % k
        node.test = ast.BoolOp(op=ast.And(), values=[call(state, "end"), node.test])
        node.body.insert(0, ast.Expr(call(state, "begin")))
        if node.orelse:
            node.orelse.insert(0, ast.Expr(call(state, "leave")))
        wrapped = ast.With(items=[ast.withitem(context_expr=call(GLOBAL, "steps",
                                                                 ast.Constant(k)),
                                               optional_vars=ast.Name(state, ast.Store()))],
                           body=[node])
        return ast.fix_missing_locations(ast.copy_location(wrapped, node))


def shown(path):
    """PATH as a message shows it: from the current folder when under it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def said(texts):
    """'a', 'a or b', 'a, b or c'."""
    return " or ".join(filter(None, [", ".join(texts[:-1]), texts[-1]]))


class Marking:
    """The specs of one run, the loops they marked, and the calls the
    rewritten code makes (the object behind __capture_window__)."""

    def __init__(self, specs):
        self.specs = specs
        self.sites = []
        self.lock = threading.Lock()    # modules may be compiled in two threads
        self.used = set()           # indexes of specs that marked a loop
        self.reached = set()        # ... that named a file compiled or a function
        self.marked = {}            # (path, line) of each marked loop -> its spec
        self.defined = {}           # qualified name -> (path, line) of the functions compiled
        names = [s.name.rsplit(".", 1)[-1] for s in specs if s.by_function]
        self.prefilter = re.compile(
            rb"\bdef\s+(%s)\b" % b"|".join(re.escape(n.encode()) for n in names)
        ) if names else None

    # -- the calls of the rewritten code --

    def loop(self, k, iterable):
        return _marked(self.sites[k], iterable)

    def steps(self, k):
        head = _runtime.enter(self.sites[k])
        return Entry(head) if head else IDLE

    # -- which modules, which loops --

    def may_mark(self, path, source):
        """Whether a spec may name a loop of the module at PATH (SOURCE:
        its bytes, read only when a FUNCTION spec needs them)."""
        if any(not s.by_function and _spec.file_matches(s, path) for s in self.specs):
            return True
        return bool(self.prefilter and self.prefilter.search(source()))

    def markers(self, tree, path, module):
        found = []
        for n, s in enumerate(self.specs):
            if s.by_function:
                found += self.function_markers(n, s, tree, path, module)
            elif _spec.file_matches(s, path):
                self.reached.add(n)
                node, why = loop_on(tree, s.line)
                if node is None:
                    say(refusal(path, s.line, s, why + "; nothing marked there"))
                elif self.accept(n, s, node, path):
                    found.append(Marker(s, node, path, enclosing_qualname(tree, s.line)))
        return found

    def function_markers(self, n, s, tree, path, module):
        for fn, qualified, qualname in functions(tree, module):
            if not _spec.function_matches(s, qualified):
                continue
            self.reached.add(n)
            loops = outermost_loops(fn)
            if len(loops) != 1:
                say(refusal(path, fn.lineno, s, not_one_loop(qualname, loops, path)))
            elif self.accept(n, s, loops[0], path):
                yield Marker(s, loops[0], path, qualname)

    def accept(self, n, s, node, path):
        if isinstance(node, ast.AsyncFor):
            say(refusal(path, node.lineno, s, ASYNC + "; nothing marked there"))
            return False
        # A module compiled again (importlib.reload) marks its loop again,
        # with the same site: its iterations keep counting.
        if self.marked.setdefault((path, node.lineno), n) != n:
            say(refusal(path, node.lineno, s, "this loop is marked by an earlier --loop "
                        "already"))
            return False
        self.used.add(n)
        return True

    def compile(self, source, path, module):
        """SOURCE compiled with its marked loops rewritten."""
        tree = ast.parse(source, path)
        with self.lock:
            found = self.markers(tree, path, module)
            first = len(self.sites)
            self.sites += [m.site() for m in found]
            if self.prefilter:
                for fn, qualified, _ in functions(tree, module):
                    self.defined.setdefault(qualified, (path, fn.lineno))
        if found:
            tree = ast.fix_missing_locations(Rewriter(first, found).visit(tree))
        return compile(tree, path, "exec", dont_inherit=True)

    def why_unused(self, n, s):
        """What the end-of-run line adds for spec N: the file never
        imported, or the functions whose names are closest to a FUNCTION
        that named none."""
        if n in self.reached:
            return ""
        if not s.by_function:
            return "; no module whose path ends in %s was imported" % s.name
        k = s.name.count(".") + 1
        tails = {}
        for qualified, where in self.defined.items():
            tails.setdefault(".".join(qualified.split(".")[-k:]), where)
        close = difflib.get_close_matches(s.name, list(tails), n=3)
        return "; did you mean %s?" % said(["%s (%s:%d)" % (name, shown(tails[name][0]),
                                                            tails[name][1])
                                            for name in close]) if close else ""

    def report_unused(self):
        for n, s in enumerate(self.specs):
            if n not in self.used:
                say("capture_window: --loop %s matched no loop in this run%s"
                    % (s.text, self.why_unused(n, s)))


class Loader(importlib.machinery.SourceFileLoader):
    """A module's source loader that rewrites the loops a spec names; a
    module none names is loaded as the default loader would (its cached
    bytecode included)."""

    marking = None

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        data = None

        def source():
            nonlocal data
            if data is None:
                data = self.get_data(path)
            return data
        if not self.marking.may_mark(path, source):
            return super().get_code(fullname)
        return self.marking.compile(source(), path, fullname)

    def exec_module(self, module):
        module.__dict__[GLOBAL] = self.marking
        super().exec_module(module)


class Finder:
    """First on sys.meta_path: finds a module as the other finders do, and
    gives source modules the marking Loader."""

    def __init__(self, marking):
        self.marking = marking

    def find_spec(self, name, path=None, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if type(spec.loader) is importlib.machinery.SourceFileLoader and spec.origin:
            loader = Loader(name, spec.origin)
            loader.marking = self.marking
            spec.loader = loader
        return spec


