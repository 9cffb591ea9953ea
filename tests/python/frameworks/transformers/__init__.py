"""Stand-in for transformers (tests/python/frameworks/README.md)."""
from .trainer import Trainer
from .trainer_callback import (DefaultFlowCallback, TrainerCallback, TrainerControl,
                               TrainerState)
from .training_args import TrainingArguments

__all__ = ["DefaultFlowCallback", "Trainer", "TrainerCallback", "TrainerControl",
           "TrainerState", "TrainingArguments"]
