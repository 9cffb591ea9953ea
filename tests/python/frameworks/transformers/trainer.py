"""Stand-in for transformers.trainer: the loops of Trainer.train() in
transformers 5.17, in the same methods and the same nesting."""
import math

from .trainer_callback import CallbackHandler, DefaultFlowCallback, TrainerControl, TrainerState
from .training_args import TrainingArguments


class Trainer:
    def __init__(self, model=None, args=None, train_dataset=None, eval_dataset=None,
                 callbacks=None, optimizers=(None, None)):
        self.model, self.args = model, args or TrainingArguments()
        self.train_dataset, self.eval_dataset = train_dataset, eval_dataset
        self.optimizer = optimizers[0]
        self.callback_handler = CallbackHandler([DefaultFlowCallback] + list(callbacks or []),
                                                model, self.optimizer)
        self.state, self.control = TrainerState(), TrainerControl()
        self.control = self.callback_handler.on_init_end(self.args, self.state, self.control)

    def train(self):
        return self._inner_training_loop(args=self.args)

    def _inner_training_loop(self, batch_size=None, args=None):
        steps_in_epoch = len(self.train_dataset)
        num_update_steps_per_epoch = math.ceil(steps_in_epoch / args.gradient_accumulation_steps)
        max_steps = args.max_steps
        num_train_epochs = math.ceil(max_steps / num_update_steps_per_epoch)
        self.state.max_steps = max_steps
        epochs_trained = 0
        self.control = self.callback_handler.on_train_begin(args, self.state, self.control)

        for epoch in range(epochs_trained, num_train_epochs):
            self.control = self.callback_handler.on_epoch_begin(self.args, self.state, self.control)
            self._run_epoch(epoch=epoch, steps_in_epoch=steps_in_epoch,
                            num_update_steps_per_epoch=num_update_steps_per_epoch)
            if self.control.should_training_stop:
                break

        self.control = self.callback_handler.on_train_end(self.args, self.state, self.control)
        return self.state.global_step

    def _run_epoch(self, epoch, steps_in_epoch, num_update_steps_per_epoch):
        step = -1
        epoch_iterator = iter(self.train_dataset)
        remainder = steps_in_epoch % self.args.gradient_accumulation_steps
        if remainder == 0:
            remainder = self.args.gradient_accumulation_steps

        for update_step in range(0, num_update_steps_per_epoch):
            num_batches = (
                self.args.gradient_accumulation_steps if update_step != (num_update_steps_per_epoch - 1) else remainder
            )
            batch_samples = self.get_batch_samples(epoch_iterator, num_batches)

            for i, inputs in enumerate(batch_samples):
                step += 1
                do_sync_step = (step + 1) % self.args.gradient_accumulation_steps == 0 or (step + 1) == steps_in_epoch

                if step % self.args.gradient_accumulation_steps == 0:
                    self.control = self.callback_handler.on_step_begin(self.args, self.state, self.control)

                self.training_step(self.model, inputs)

                if do_sync_step:
                    self.optimizer.step()
                    self.control = self.callback_handler.on_optimizer_step(self.args, self.state, self.control)
                    self.state.global_step += 1
                    self.state.epoch = epoch + (step + 1) / steps_in_epoch
                    self.control = self.callback_handler.on_step_end(self.args, self.state, self.control)
                    self._maybe_log_save_evaluate()
                else:
                    self.control = self.callback_handler.on_substep_end(self.args, self.state, self.control)

                if self.control.should_epoch_stop or self.control.should_training_stop:
                    break
            if self.control.should_epoch_stop or self.control.should_training_stop:
                break

        self.control = self.callback_handler.on_epoch_end(self.args, self.state, self.control)
        self._maybe_log_save_evaluate()

    def get_batch_samples(self, epoch_iterator, num_batches):
        return [inputs for _, inputs in zip(range(num_batches), epoch_iterator)]

    def training_step(self, model, inputs):
        model.train()
        return model(inputs)

    def _maybe_log_save_evaluate(self):
        if self.control.should_evaluate:
            self.evaluate()

    def evaluate(self):
        self.model.eval()
        losses = [self.model(inputs) for inputs in self.eval_dataset]
        self.control.should_evaluate = False
        self.control = self.callback_handler.on_evaluate(self.args, self.state, self.control)
        return {"eval_loss": sum(losses) / len(losses)}
