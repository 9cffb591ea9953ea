"""The training the stand-in frameworks run in the tests: each training
batch marks micro@k, each validation batch eval@k, each optimizer step
step@n (cwtest.mark), so the events show which iteration holds what.
PLAIN: the test's unmarked run (CW_TEST_PLAIN=1), which passes no
callback."""
import os

from cwtest import mark

PLAIN = os.environ.get("CW_TEST_PLAIN") == "1"
_count = {"micro": 0, "eval": 0}


def _batch(training):
    label = "micro" if training else "eval"
    mark(label, _count[label])
    _count[label] += 1
    return 1.0


class Model:
    """A Hugging Face model: called with a batch, it returns the loss."""
    training = True

    def train(self, mode=True):
        self.training = mode

    def eval(self):
        self.training = False

    def __call__(self, inputs):
        return _batch(self.training)


class Optimizer:
    """Marks step@n per step, n from FIRST; raises RuntimeError in step
    RAISE_AT."""

    def __init__(self, raise_at=None, first=0):
        self.n, self.raise_at = first, raise_at

    def step(self):
        mark("step", self.n)
        if self.n == self.raise_at:
            raise RuntimeError("diverged at step %d" % self.n)
        self.n += 1

    def zero_grad(self):
        pass


def lightning_module(optimizer):
    """A LightningModule training with OPTIMIZER."""
    import lightning.pytorch as pl

    class Module(pl.LightningModule):
        def training_step(self, batch, batch_idx):
            return _batch(True)

        def validation_step(self, batch, batch_idx):
            _batch(False)

        def configure_optimizers(self):
            return optimizer

    return Module()
