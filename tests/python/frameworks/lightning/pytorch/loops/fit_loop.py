"""Stand-in for lightning.pytorch.loops.fit_loop: the epoch loop, which
runs _TrainingEpochLoop.run once per epoch."""
from lightning.pytorch.loops.training_epoch_loop import _TrainingEpochLoop
from lightning.pytorch.trainer import call


class _FitLoop:
    def __init__(self, trainer, max_epochs, max_steps):
        self.trainer = trainer
        self.max_epochs = max_epochs
        self.epoch = 0
        self.epoch_loop = _TrainingEpochLoop(trainer, max_steps=max_steps)

    @property
    def done(self):
        max_steps = self.epoch_loop.max_steps
        if max_steps >= 0 and self.epoch_loop.global_step >= max_steps:
            return True
        return 0 <= self.max_epochs <= self.epoch or self.trainer.should_stop

    def run(self):
        call._call_callback_hooks(self.trainer, "on_train_start")
        while not self.done:
            try:
                self.epoch_loop.run(self.trainer.train_dataloader)
                self.epoch += 1
            except StopIteration:
                break
        call._call_callback_hooks(self.trainer, "on_train_end")
