#!/usr/bin/env python3
"""capture_window.integrations without the frameworks: the module
imports, and each class names its missing framework in an ImportError;
the Lightning callback is made on pytorch_lightning when only that is
installed, or when it was imported first.

    integration_imports.py --package DIR --runtime LIB"""
import argparse
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))

# Run in a child: a finder refusing the real frameworks, should they be
# installed, then the checks.
CHILD = r'''
import sys
BLOCK = set(sys.argv[1].split(","))
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCK:
            raise ImportError("No module named %r" % name)
sys.meta_path.insert(0, Block())
for name in filter(None, sys.argv[2].split(",")):
    __import__(name)
from capture_window import integrations
for name in sys.argv[3:]:
    try:
        cls = getattr(integrations, name)
    except ImportError as e:
        print(name, "ImportError:", e)
    else:
        print(name, cls.__module__, cls.__qualname__, [b.__module__ for b in cls.__mro__[1:-1]])
'''


def child(package, runtime, path, block, *names, first=()):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package] + path),
               CAPTURE_WINDOW_LIBRARY=runtime, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([sys.executable, "-c", CHILD, ",".join(block), ",".join(first)] + list(names),
                       capture_output=True, text=True, env=env)
    if p.returncode or p.stderr:
        raise SystemExit("FAIL: child exited %d: %s" % (p.returncode, p.stderr))
    return p.stdout.splitlines()


def expect(what, got, want):
    if got != want:
        raise SystemExit("FAIL: %s:\n  got  %r\n  want %r" % (what, got, want))
    print("ok:", what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--runtime", required=True)
    a = ap.parse_args()
    frameworks = os.path.join(here, "frameworks")
    every = ("transformers", "lightning", "pytorch_lightning")
    expect("no framework installed",
           child(a.package, a.runtime, [], every, "CaptureWindowCallback", "CaptureWindow"),
           ["CaptureWindowCallback ImportError: capture_window.integrations.CaptureWindowCallback "
            "is a callback of the Hugging Face Trainer: it needs the transformers package "
            "(No module named 'transformers')",
            "CaptureWindow ImportError: capture_window.integrations.CaptureWindow is a Lightning "
            "callback: it needs the lightning (or pytorch_lightning) package (No module named "
            "'pytorch_lightning')"])
    expect("the stand-ins installed",
           child(a.package, a.runtime, [frameworks], (), "CaptureWindowCallback", "CaptureWindow"),
           ["CaptureWindowCallback capture_window.integrations CaptureWindowCallback "
            "['transformers.trainer_callback']",
            "CaptureWindow capture_window.integrations CaptureWindow "
            "['lightning.pytorch.callbacks.callback']"])
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "pytorch_lightning"))
        with open(os.path.join(tmp, "pytorch_lightning", "__init__.py"), "w") as f:
            f.write("class Callback:\n    pass\n")
        expect("only pytorch_lightning installed",
               child(a.package, a.runtime, [tmp], ("lightning",), "CaptureWindow"),
               ["CaptureWindow capture_window.integrations CaptureWindow ['pytorch_lightning']"])
        expect("both, lightning.pytorch preferred",
               child(a.package, a.runtime, [frameworks, tmp], (), "CaptureWindow"),
               ["CaptureWindow capture_window.integrations CaptureWindow "
                "['lightning.pytorch.callbacks.callback']"])
        expect("both, pytorch_lightning imported first",
               child(a.package, a.runtime, [frameworks, tmp], (), "CaptureWindow",
                     first=("pytorch_lightning",)),
               ["CaptureWindow capture_window.integrations CaptureWindow ['pytorch_lightning']"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
