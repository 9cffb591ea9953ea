"""_launch.py - runs the program of `python -m capture_window --loop SPEC
...`: a SCRIPT as `python SCRIPT ARGS` runs it, or a MODULE as `python -m
MODULE ARGS` does (runpy's own entry, which python -m calls: sys.argv[0]
the module's file, sys.path[0] the current folder, the module run as
__main__), with the zero edit's marking (_zero_edit.py) in place first.

Before the run each FILE spec is looked up as the program's own file, or
as a path under its folder, the current folder or an entry of sys.path.
Found, a LINE with no loop there is an error (exit status 2). Not found,
a note says where it looked and the program runs: a module whose path
ends in FILE that it imports then (from a folder it adds to sys.path, or
a package it installs) has its loop marked, and a spec that matched no
loop is named at exit."""
import ast
import atexit
import importlib.machinery
import os
import runpy
import sys
import traceback
import types

from . import _spec
from ._loops import loop_on, refusal
from ._say import say
from ._spec import SpecError
from ._zero_edit import GLOBAL, Finder, Marking


def find_file(spec, main):
    """The file a FILE spec names: MAIN (the program's file, or None), or
    one found under the folders the module docstring says; None, after a
    note saying where it looked, when there is none yet."""
    if main and _spec.file_matches(spec, main):
        return main
    name, folders = spec.name, []
    for folder in ([os.path.dirname(main)] if main else []) + [os.getcwd()]:
        if folder not in folders:
            folders.append(folder)
    roots = folders + [p for p in sys.path if p]
    for path in [name] if os.path.isabs(name) else [os.path.join(r, name) for r in roots]:
        if os.path.isfile(path):
            return os.path.abspath(path)
    say("capture_window: note: --loop %s: no file %s%s before the run; its loop is marked if "
          "a module whose path ends in %s is imported" % (
              spec.text, name, "" if os.path.isabs(name) else
              " under %s or sys.path" % ", ".join(folders), name))
    return None


def check_file_spec(spec, main):
    """A FILE spec found before the run names a loop: SpecError if not."""
    path = find_file(spec, main)
    if path is None:
        return
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read(), path)
    except (OSError, SyntaxError) as e:
        raise SpecError("capture_window: --loop %s: cannot read %s: %s" % (spec.text, path, e))
    node, why = loop_on(tree, spec.line)
    if node is None:
        raise SpecError(refusal(path, spec.line, spec, why))


def module_file(name):
    """The source file `python -m NAME` runs (a package's __main__),
    found on sys.path without importing anything; None if not found so."""
    parts, spec, path = name.split("."), None, None
    for k in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:k + 1]), path)
        if spec is None:
            return None
        path = spec.submodule_search_locations
        if path is None and k < len(parts) - 1:
            return None
    if path:
        spec = importlib.machinery.PathFinder.find_spec(name + ".__main__", path)
    return spec.origin if spec is not None and spec.has_location else None


def marking(texts, main):
    """The marking of TEXTS (specs), installed for every import to come;
    None without the runtime (its load message said so: run unmarked)."""
    if not _spec.LIB:
        return None
    specs = [_spec.parse(t) for t in texts]
    for s in specs:
        if not s.by_function:
            check_file_spec(s, main)
    m = Marking(specs)
    sys.meta_path.insert(0, Finder(m))
    atexit.register(m.report_unused)
    return m


def new_main(m, path=None):
    """A fresh module __main__, the marking's calls in reach of its code."""
    main = types.ModuleType("__main__")
    if path:
        main.__file__ = path
    main.__builtins__ = __builtins__
    if m:
        main.__dict__[GLOBAL] = m
    sys.modules["__main__"] = main
    return main


def run_script(script, args, texts):
    """Runs SCRIPT as python would, the loops of TEXTS (specs) marked."""
    try:
        with open(script, "rb") as f:
            source = f.read()
    except OSError as e:
        raise SpecError("capture_window: cannot read %s: %s" % (script, e.strerror))
    path = os.path.abspath(script)
    sys.argv = [script] + args
    sys.path[0] = os.path.dirname(path)
    m = marking(texts, path)
    code = (m.compile(source, path, "__main__") if m else
            compile(source, path, "exec", dont_inherit=True))
    main = new_main(m, path)
    execute(lambda: exec(code, main.__dict__))


def run_module(name, args, texts):
    """Runs module NAME as `python -m NAME ARGS` would, the loops of TEXTS
    marked."""
    sys.argv = [name] + args           # runpy puts the module's file first
    m = marking(texts, module_file(name))
    new_main(m)
    execute(lambda: runpy._run_module_as_main(name))


def execute(run):
    """RUN(), an exception out of it printed as python prints it: the
    frames from the program on (runpy's too, for a module, as with -m)."""
    try:
        run()
    except Exception as e:
        tb = e.__traceback__
        while tb and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        sys.exit(1)
