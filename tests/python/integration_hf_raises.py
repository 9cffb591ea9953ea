"""An exception out of the Trainer inside the window (the optimizer step
of iteration 3 of the window 2:3 raises): the Trainer calls no callback
then, yet the window closes as the exception leaves the epoch, before the
code that catches it runs, and the callback's wrapper is gone after. A
second train() with the same callback counts on (contract section 2)."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0(.micro@0 .) step#1(.micro@1 .) S step[ step#2(.micro@2 .) step#3(.micro@3 .) ] E
# cw-expect: .after@0 step#4(.micro@4 .) step#5(.micro@5 .)
# cw-run: CAPTURE_WINDOW=4:2
# cw-expect: step#0(.micro@0 .) step#1(.micro@1 .) step#2(.micro@2 .) step#3(.micro@3 .)
# cw-expect: .after@0 S step[ step#4(.micro@4 .) step#5(.micro@5 .) ] E
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "frameworks"))
from transformers import Trainer, TrainingArguments  # noqa: E402
from workload import PLAIN, Model, Optimizer  # noqa: E402
from cwtest import mark  # noqa: E402

from capture_window.integrations import CaptureWindowCallback  # noqa: E402

callbacks = [] if PLAIN else [CaptureWindowCallback(2, 3)]
trainer = Trainer(model=Model(), args=TrainingArguments(max_steps=6), train_dataset=range(10),
                  callbacks=callbacks, optimizers=(Optimizer(raise_at=3), None))
try:
    trainer.train()
except RuntimeError as e:
    mark("after", 0)
    print("caught:", e, "| left on the trainer:", [n for n in vars(trainer) if n[0] == "_"])
trainer = Trainer(model=Model(), args=TrainingArguments(max_steps=2), train_dataset=range(10),
                  callbacks=callbacks, optimizers=(Optimizer(first=4), None))
print("steps:", trainer.train())
