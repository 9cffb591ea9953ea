"""Stand-in for lightning.pytorch.callbacks.callback: the hooks the
stand-in loops call, with lightning 2.6's signatures."""


class Callback:
    @property
    def state_key(self):
        return self.__class__.__qualname__

    def on_train_start(self, trainer, pl_module): pass
    def on_train_end(self, trainer, pl_module): pass
    def on_train_batch_start(self, trainer, pl_module, batch, batch_idx): pass
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx): pass
    def on_validation_start(self, trainer, pl_module): pass
    def on_validation_end(self, trainer, pl_module): pass
    def on_exception(self, trainer, pl_module, exception): pass
