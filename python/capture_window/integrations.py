"""capture_window.integrations - a marked loop for the training loops of
frameworks, in each framework's own idiom: one line, no edit of its loop.

    from capture_window.integrations import CaptureWindowCallback
    trainer = Trainer(..., callbacks=[CaptureWindowCallback(30, 3)])   # Hugging Face

    from capture_window.integrations import CaptureWindow
    trainer = L.Trainer(..., callbacks=[CaptureWindow(30, 3)])          # Lightning

One iteration is one optimizer step, gradient accumulation included: it
begins as the first micro-batch of a step begins and ends when the
optimizer has stepped. What runs between steps (evaluation, logging,
checkpoints, Hugging Face's fetch of the next step's batches) is in no
iteration. The end of training, and an exception that leaves the
trainer, leave the loop: a window still open closes there.

Each callback is a capture_window.steps() loop (the same runtime calls,
events, CAPTURE_WINDOW_* variables and verbose lines) whose site is the
file and line that construct the callback. The classes are made on first
use, so this module imports without either framework; naming one whose
framework is missing raises ImportError. Manual: docs/python.md.
"""
import sys

from . import steps

# No __all__: `import *` would make both classes, and so need both frameworks.


class _Loop:
    """The marked loop of one callback: entered at the first step of a
    training run, left at its end (or by an exception)."""

    def __init__(self, start, count, label, depth):
        # depth: frames from the callback's __init__ up to its caller.
        self._steps = steps(start, count, label, _depth=depth + 1)
        self._step = None            # the entered loop's step(), or None

    def begin(self):
        if self._step is None:
            self._step = self._steps.__enter__()
        self._step()

    def end(self):
        if self._step is not None:
            self._steps._entry.end()

    def leave(self):
        if self._step is not None:
            self._step = None
            self._steps.__exit__(None, None, None)


def _hf_class():
    try:
        from transformers import TrainerCallback
    except ImportError as e:
        raise ImportError("capture_window.integrations.CaptureWindowCallback is a callback "
                          "of the Hugging Face Trainer: it needs the transformers package (%s)"
                          % e) from e

    class CaptureWindowCallback(TrainerCallback):
        """A Hugging Face `TrainerCallback` marking the Trainer's optimizer
        steps as a loop with the window START:COUNT:

            Trainer(..., callbacks=[CaptureWindowCallback(30, 3)])

        on_step_begin begins an iteration, on_step_end ends it (one per
        optimizer step, over all micro-batches of a gradient accumulation);
        on_train_end, or an exception out of the training epoch, leaves the
        loop. Iterations count across train() calls."""

        def __init__(self, start, count, label="step"):
            self._loop = _Loop(start, count, label, 1)
            self._guarded = None

        def on_train_begin(self, args, state, control, **kwargs):
            self._guard(sys._getframe(1))

        def on_step_begin(self, args, state, control, **kwargs):
            self._loop.begin()

        def on_step_end(self, args, state, control, **kwargs):
            self._loop.end()

        def on_train_end(self, args, state, control, **kwargs):
            self._unguard()
            self._loop.leave()

        def _guard(self, frame):
            """The Trainer calls no callback when it raises: wrap, on the
            trainer object, the method holding its step loop (_run_epoch
            since transformers 5; training_step before it) so that an
            exception through it leaves the loop."""
            trainer = _trainer_of(self, frame)
            if trainer is None or self._guarded is not None:
                return
            name = "_run_epoch" if hasattr(trainer, "_run_epoch") else "training_step"
            method, owner = getattr(trainer, name), self

            def guarded(*args, **kwargs):
                try:
                    return method(*args, **kwargs)
                except BaseException:
                    owner._unguard()
                    owner._loop.leave()
                    raise

            setattr(trainer, name, guarded)
            self._guarded = (trainer, name, guarded)

        def _unguard(self):
            g, self._guarded = self._guarded, None
            if g is not None and vars(g[0]).get(g[1]) is g[2]:
                delattr(g[0], g[1])

    return CaptureWindowCallback


def _trainer_of(callback, frame):
    """The Trainer whose callback handler called CALLBACK: the `self` of
    the first frame up from FRAME holding one with CALLBACK among its
    callbacks."""
    while frame is not None:
        obj = frame.f_locals.get("self")
        handler = getattr(obj, "callback_handler", None)
        if callback in getattr(handler, "callbacks", ()):
            return obj
        frame = frame.f_back
    return None


def _lightning_base():
    """lightning.pytorch's Callback, or pytorch_lightning's: the package
    already imported first, else whichever is installed."""
    names = ("lightning.pytorch", "pytorch_lightning")
    for name in sorted(names, key=lambda n: n not in sys.modules):
        try:
            return __import__(name, fromlist=["Callback"]).Callback
        except ImportError as e:
            error = e
    raise ImportError("capture_window.integrations.CaptureWindow is a Lightning callback: "
                      "it needs the lightning (or pytorch_lightning) package (%s)" % error)


def _lightning_class():
    class CaptureWindow(_lightning_base()):
        """A Lightning `Callback` marking the optimizer steps of fit() as
        a loop with the window START:COUNT:

            L.Trainer(..., callbacks=[CaptureWindow(30, 3)])

        An iteration begins in on_train_batch_start when none is open and
        ends in on_train_batch_end once the optimizer has stepped
        (trainer.global_step moved): under accumulate_grad_batches=N it
        spans the N batches of one step. With manual optimization each
        batch is one. on_train_end and on_exception leave the loop."""

        def __init__(self, start, count, label="step"):
            self._loop = _Loop(start, count, label, 1)
            self._label = label
            self._at = None          # global_step when the open iteration began

        @property
        def state_key(self):         # one per label in a checkpoint's callbacks
            return "%s[%s]" % (type(self).__qualname__, self._label)

        def on_train_batch_start(self, trainer, pl_module, batch, batch_idx):
            if self._at is None:
                self._at = trainer.global_step
                self._loop.begin()

        def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
            if self._at is not None and (trainer.global_step != self._at or not getattr(
                    pl_module, "automatic_optimization", True)):
                self._at = None
                self._loop.end()

        def on_train_end(self, trainer, pl_module):
            self._at = None
            self._loop.leave()

        def on_exception(self, trainer, pl_module, exception):
            self.on_train_end(trainer, pl_module)

    return CaptureWindow


_MAKERS = {"CaptureWindowCallback": _hf_class, "CaptureWindow": _lightning_class}


def __getattr__(name):
    make = _MAKERS.get(name)
    if make is None:
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    cls = make()
    cls.__module__, cls.__qualname__ = __name__, name
    globals()[name] = cls
    return cls
