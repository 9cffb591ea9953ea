"""_zero_edit.py - `python -m capture_window --loop SPEC SCRIPT ARGS`: loops
of the script, or of any module it imports, marked with no edit of a file.

Each spec is parsed by the runtime's loop spec engine (_spec.py): FILE:LINE
names the loop on LINE of any module whose path ends in FILE, FUNCTION the
outermost loop of each function so named (Trainer.fit,
pkg.mod.Trainer.fit). A FILE is looked up before the script runs, and a
LINE with no loop there is an error then.

The marked loops are rewritten when their module's source is compiled
(the script's, and each imported module's that a spec may name), on the
syntax tree, so lines and columns stay those of the file:

    for T in ITER:           for T in __capture_window__.loop(K, ITER):
        BODY                     BODY

    while COND:              with __capture_window__.steps(K) as __capture_window_K__:
        BODY                     while __capture_window_K__.next() and COND:
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
import atexit
import importlib.machinery
import os
import re
import sys
import threading
import traceback
import types

from . import _marked, _runtime, _spec
from ._spec import SpecError

GLOBAL = "__capture_window__"     # the name the rewritten code calls through
LOOPS = (ast.For, ast.AsyncFor, ast.While)    # async for: found, to say it cannot be marked


class Marker:
    """A loop found by a spec: where it is, and its site once marked."""

    def __init__(self, spec, node, path, qualname):
        self.spec, self.node, self.path, self.qualname = spec, node, path, qualname

    def site(self):
        s = self.spec
        return _runtime.site(self.path, self.node.lineno, self.qualname, s.start, s.count,
                             s.label)


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


def loop_at(tree, line):
    """The loop whose keyword is on LINE, or None."""
    for node in ast.walk(tree):
        if isinstance(node, LOOPS) and node.lineno == line:
            return node
    return None


def where(path, line):
    return "%s:%d" % (path, line)


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
        node.test = ast.BoolOp(op=ast.And(), values=[call(state, "next"), node.test])
        node.body.insert(0, ast.Expr(call(state, "begin")))
        if node.orelse:
            node.orelse.insert(0, ast.Expr(call(state, "leave")))
        wrapped = ast.With(items=[ast.withitem(context_expr=call(GLOBAL, "steps",
                                                                 ast.Constant(k)),
                                               optional_vars=ast.Name(state, ast.Store()))],
                           body=[node])
        return ast.fix_missing_locations(ast.copy_location(wrapped, node))


class While:
    """One entry of a marked while loop: steps()' calls, split at the body."""
    __slots__ = ("head", "c", "on")

    def __init__(self, head):
        self.head, self.c, self.on = head, _runtime.counters(head), 0

    def next(self):
        if self.on:
            self.on = 0
            _runtime.end(self.head)
        return True

    def begin(self):
        c = self.c
        i = c[0]
        c[0] = i + 1                       # the plugins' inline test
        if i >= c[1]:
            self.on = _runtime.begin(self.head)

    def leave(self):
        head, self.head = self.head, None
        if head:
            _runtime.leave(head, self.on)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.leave()
        return False


class Idle:
    """A while loop that is not active (off, not selected, another rank)."""

    def next(self):
        return True

    def begin(self):
        pass

    def leave(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


IDLE = Idle()


class Marking:
    """The specs of one run, the loops they marked, and the calls the
    rewritten code makes (the object behind __capture_window__)."""

    def __init__(self, specs):
        self.specs = specs
        self.sites = []
        self.lock = threading.Lock()    # modules may be compiled in two threads
        self.used = set()           # indexes of specs that marked a loop
        self.marked = {}            # (path, line) of each marked loop -> its spec
        names = [s.name.rsplit(".", 1)[-1] for s in specs if s.by_function]
        self.prefilter = re.compile(
            rb"\bdef\s+(%s)\b" % b"|".join(re.escape(n.encode()) for n in names)
        ) if names else None

    # -- the calls of the rewritten code --

    def loop(self, k, iterable):
        return _marked(self.sites[k], iterable)

    def steps(self, k):
        head = _runtime.enter(self.sites[k])
        return While(head) if head else IDLE

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
                node = loop_at(tree, s.line)
                if node is None:
                    print("capture_window: %s: --loop %s: no for or while loop starts on this "
                          "line; nothing marked there" % (where(path, s.line), s.text),
                          file=sys.stderr)
                elif self.accept(n, s, node, path):
                    found.append(Marker(s, node, path, enclosing_qualname(tree, s.line)))
        return found

    def function_markers(self, n, s, tree, path, module):
        for fn, qualified, qualname in functions(tree, module):
            if not _spec.function_matches(s, qualified):
                continue
            loops = outermost_loops(fn)
            here = where(path, fn.lineno)
            if len(loops) != 1:
                print("capture_window: %s: --loop %s: %s %s; name the loop by FILE:LINE%s"
                      % (here, s.text, qualname,
                         "holds no loop" if not loops else "has %d outermost loops (lines %s)"
                         % (len(loops), ", ".join(str(l.lineno) for l in loops)),
                         ", e.g. --loop %s:%d" % (os.path.basename(path), loops[0].lineno)
                         if loops else ""), file=sys.stderr)
            elif self.accept(n, s, loops[0], path):
                yield Marker(s, loops[0], path, qualname)

    def accept(self, n, s, node, path):
        if isinstance(node, ast.AsyncFor):
            print("capture_window: %s: --loop %s: an async for loop cannot be marked; "
                  "nothing marked there" % (where(path, node.lineno), s.text), file=sys.stderr)
            return False
        # A module compiled again (importlib.reload) marks its loop again,
        # with the same site: its iterations keep counting.
        if self.marked.setdefault((path, node.lineno), n) != n:
            print("capture_window: %s: --loop %s: this loop is marked by an earlier --loop "
                  "already" % (where(path, node.lineno), s.text), file=sys.stderr)
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
        if found:
            tree = ast.fix_missing_locations(Rewriter(first, found).visit(tree))
        return compile(tree, path, "exec", dont_inherit=True)

    def report_unused(self):
        for n, s in enumerate(self.specs):
            if n not in self.used:
                print("capture_window: --loop %s matched no loop in this run" % s.text,
                      file=sys.stderr)


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


def resolve_file(spec, script):
    """The file a FILE spec names, looked up before the script runs: the
    script, or FILE under the script's folder, the current folder or an
    entry of sys.path."""
    if _spec.file_matches(spec, script):
        return script
    name = spec.name
    roots = [os.path.dirname(script), os.getcwd()] + [p for p in sys.path if p]
    for path in [name] if os.path.isabs(name) else [os.path.join(r, name) for r in roots]:
        if os.path.isfile(path):
            return os.path.abspath(path)
    raise SpecError("capture_window: --loop %s: no file %s in the script's folder, the current "
                    "folder or sys.path; name a module's file from its package's folder, e.g. "
                    "transformers/trainer.py" % (spec.text, name))


def check_file_spec(spec, script):
    """A FILE spec's loop exists: SpecError before the script runs if not."""
    path = resolve_file(spec, script)
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError) as e:
        raise SpecError("capture_window: --loop %s: cannot read %s: %s" % (spec.text, path, e))
    node = loop_at(tree, spec.line)
    at = "%s:%d" % (spec.name, spec.line)
    if node is None:
        raise SpecError("%s: --loop %s: no for or while loop starts on this line of %s"
                        % (at, spec.text, path))
    if isinstance(node, ast.AsyncFor):
        raise SpecError("%s: --loop %s: an async for loop cannot be marked" % (at, spec.text))


def run(script, args, texts):
    """Runs SCRIPT as python would, the loops of TEXTS (specs) marked."""
    try:
        with open(script, "rb") as f:
            source = f.read()
    except OSError as e:
        raise SpecError("capture_window: cannot read %s: %s" % (script, e.strerror))
    path = os.path.abspath(script)
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(path)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    if _spec.LIB:
        specs = [_spec.parse(t) for t in texts]
        for s in specs:
            if not s.by_function:
                check_file_spec(s, path)
        marking = Marking(specs)
        code = marking.compile(source, path, "__main__")
        main.__dict__[GLOBAL] = marking
        sys.meta_path.insert(0, Finder(marking))
        atexit.register(marking.report_unused)
    else:           # no runtime: the load message said so; run unmarked
        code = compile(source, path, "exec", dont_inherit=True)
    sys.modules["__main__"] = main
    try:
        exec(code, main.__dict__)
    except Exception as e:
        # As python prints it: the frames from the script on.
        tb = e.__traceback__
        while tb and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        sys.exit(1)
