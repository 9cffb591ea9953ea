"""Stand-in for lightning.pytorch."""
from lightning.pytorch.callbacks import Callback
from lightning.pytorch.core import LightningModule
from lightning.pytorch.trainer import Trainer

__all__ = ["Callback", "LightningModule", "Trainer"]
