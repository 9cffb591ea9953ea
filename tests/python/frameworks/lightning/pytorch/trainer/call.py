"""Stand-in for lightning.pytorch.trainer.call: hooks and the handler of
the exceptions that leave fit()."""


def _call_and_handle_interrupt(trainer, trainer_fn, *args, **kwargs):
    try:
        return trainer_fn(*args, **kwargs)
    except BaseException as exception:
        _call_callback_hooks(trainer, "on_exception", exception)
        raise


def _call_callback_hooks(trainer, hook_name, *args, **kwargs):
    for callback in trainer.callbacks:
        getattr(callback, hook_name)(trainer, trainer.lightning_module, *args, **kwargs)
