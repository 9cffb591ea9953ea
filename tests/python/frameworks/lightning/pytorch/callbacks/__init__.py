from lightning.pytorch.callbacks.callback import Callback

__all__ = ["Callback"]
