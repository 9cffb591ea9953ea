"""Stand-in for lightning (tests/python/frameworks/README.md)."""
from lightning.pytorch import Callback, LightningModule, Trainer

__all__ = ["Callback", "LightningModule", "Trainer"]
