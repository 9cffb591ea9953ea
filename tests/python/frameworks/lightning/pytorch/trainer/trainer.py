"""Stand-in for lightning.pytorch.trainer.trainer."""
from lightning.pytorch.loops.fit_loop import _FitLoop
from lightning.pytorch.trainer import call


class Trainer:
    def __init__(self, max_epochs=None, max_steps=-1, accumulate_grad_batches=1,
                 val_check_interval=None, callbacks=None, **ignored):
        if max_epochs is None:
            max_epochs = 1000 if max_steps == -1 else -1
        self.accumulate_grad_batches = accumulate_grad_batches
        self.val_check_interval = val_check_interval
        self.callbacks = list(callbacks or [])
        self.lightning_module = None
        self.should_stop = False
        self.fit_loop = _FitLoop(self, max_epochs=max_epochs, max_steps=max_steps)

    @property
    def global_step(self):
        return self.fit_loop.epoch_loop.global_step

    def fit(self, model, train_dataloaders=None, val_dataloaders=None):
        call._call_and_handle_interrupt(self, self._fit_impl, model, train_dataloaders,
                                        val_dataloaders)

    def _fit_impl(self, model, train_dataloaders, val_dataloaders):
        self.lightning_module = model
        self.train_dataloader, self.val_dataloaders = train_dataloaders, val_dataloaders
        self.optimizer = model.configure_optimizers()
        self.fit_loop.run()
