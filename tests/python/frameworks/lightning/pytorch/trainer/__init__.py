from lightning.pytorch.trainer.trainer import Trainer

__all__ = ["Trainer"]
