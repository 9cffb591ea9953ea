"""Stand-in for lightning.pytorch.loops.training_epoch_loop: one epoch's
batches, `while not self.done:`, with gradient accumulation and the
validation every val_check_interval batches of an epoch, as in lightning 2.6."""
from lightning.pytorch.trainer import call


class _TrainingEpochLoop:
    def __init__(self, trainer, min_steps=None, max_steps=-1):
        self.trainer = trainer
        self.max_steps = max_steps
        self.global_step = 0          # optimizer steps
        self.total_batch_idx = -1
        self._ready = 0               # batches of this epoch fetched

    @property
    def done(self):
        max_steps_reached = 0 <= self.max_steps <= self.global_step
        return max_steps_reached or self._num_ready_batches_reached() or self.trainer.should_stop

    def run(self, data_fetcher):
        self.reset()
        self.on_run_start(data_fetcher)
        while not self.done:
            try:
                self.advance(data_fetcher)
                self.on_advance_end(data_fetcher)
            except StopIteration:
                break

    def reset(self):
        self._ready = 0

    def on_run_start(self, data_fetcher):
        self._num_batches = len(data_fetcher)
        self._iterator = iter(data_fetcher)

    def advance(self, data_fetcher):
        batch = next(self._iterator)
        batch_idx = self._ready
        self._ready += 1
        self.total_batch_idx += 1
        trainer = self.trainer
        call._call_callback_hooks(trainer, "on_train_batch_start", batch, batch_idx)
        batch_output = trainer.lightning_module.training_step(batch, batch_idx)
        if not self._should_accumulate():
            trainer.optimizer.step()
            trainer.optimizer.zero_grad()
            self.global_step += 1
        call._call_callback_hooks(trainer, "on_train_batch_end", batch_output, batch, batch_idx)

    def on_advance_end(self, data_fetcher):
        if self._should_check_val_fx():
            self._run_validation()

    def _run_validation(self):
        trainer, module = self.trainer, self.trainer.lightning_module
        call._call_callback_hooks(trainer, "on_validation_start")
        module.eval()
        for batch_idx, batch in enumerate(trainer.val_dataloaders):
            module.validation_step(batch, batch_idx)
        module.train()
        call._call_callback_hooks(trainer, "on_validation_end")

    def _should_check_val_fx(self):
        every = self.trainer.val_check_interval
        return bool(self.trainer.val_dataloaders) and every is not None and \
            self._ready % every == 0      # batch_idx + 1: check_val_every_n_epoch=1

    def _accumulated_batches_reached(self):
        return self._ready % self.trainer.accumulate_grad_batches == 0

    def _num_ready_batches_reached(self):
        return self._ready == self._num_batches

    def _should_accumulate(self):
        return not self._accumulated_batches_reached() and not self._num_ready_batches_reached()
