"""Stand-in for transformers.trainer_callback: the callback protocol and
its handler, as in transformers 5.17."""


class TrainerState:
    def __init__(self):
        self.global_step = 0
        self.epoch = 0.0
        self.max_steps = 0


class TrainerControl:
    def __init__(self):
        self.should_training_stop = False
        self.should_epoch_stop = False
        self.should_evaluate = False


class TrainerCallback:
    def on_init_end(self, args, state, control, **kwargs): pass
    def on_train_begin(self, args, state, control, **kwargs): pass
    def on_train_end(self, args, state, control, **kwargs): pass
    def on_epoch_begin(self, args, state, control, **kwargs): pass
    def on_epoch_end(self, args, state, control, **kwargs): pass
    def on_step_begin(self, args, state, control, **kwargs): pass
    def on_optimizer_step(self, args, state, control, **kwargs): pass
    def on_substep_end(self, args, state, control, **kwargs): pass
    def on_step_end(self, args, state, control, **kwargs): pass
    def on_evaluate(self, args, state, control, **kwargs): pass


class CallbackHandler(TrainerCallback):
    """Calls the callbacks in order; each event is a method of its own."""

    def __init__(self, callbacks, model, optimizer):
        self.callbacks = [cb() if isinstance(cb, type) else cb for cb in callbacks]
        self.model, self.optimizer = model, optimizer

    def call_event(self, event, args, state, control, **kwargs):
        for callback in self.callbacks:
            result = getattr(callback, event)(args, state, control, model=self.model,
                                              optimizer=self.optimizer, **kwargs)
            if result is not None:
                control = result
        return control


for _event in ("on_init_end", "on_train_begin", "on_train_end", "on_epoch_begin",
               "on_epoch_end", "on_step_begin", "on_optimizer_step", "on_substep_end",
               "on_step_end", "on_evaluate"):
    setattr(CallbackHandler, _event,
            lambda self, args, state, control, _e=_event, **kw:
            self.call_event(_e, args, state, control, **kw))


class DefaultFlowCallback(TrainerCallback):
    """Stops at max_steps and asks for an evaluation every eval_steps."""

    def on_step_end(self, args, state, control, **kwargs):
        if args.eval_strategy == "steps" and state.global_step % args.eval_steps == 0:
            control.should_evaluate = True
        if state.global_step >= state.max_steps:
            control.should_training_stop = True
        return control
