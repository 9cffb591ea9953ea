"""capture_window.integrations.CaptureWindowCallback in a Trainer of
transformers' shape (frameworks/transformers): one iteration per optimizer
step over the micro-batches of a gradient accumulation of 2 (the third
step of an epoch of 5 batches has one), counted across epochs; the
evaluation after step 5 falls between iterations. The site is the line
that constructs the callback."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0(.micro@0..1 .) step#1(.micro@2..3 .) S step[ step#2(.micro@4 .)
# cw-expect: step#3(.micro@5..6 .) step#4(.micro@7..8 .) ] E .eval@0 step#5(.micro@9 .)
# cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW_LOOPS=integration_hf.py:31
# cw-expect: step#0(.micro@0..1 .) step#1(.micro@2..3 .) S step[ step#2(.micro@4 .)
# cw-expect: step#3(.micro@5..6 .) step#4(.micro@7..8 .) ] E .eval@0 step#5(.micro@9 .)
# cw-stderr-re: capture_window: loop 'step' \(.*/integration_hf\.py:31, <module>\) is active
# cw-stderr: capture_window: profiler started (cuProfilerStart: 0)
# cw-stderr-re: capture_window: window opened: loop 'step' \(.*/integration_hf\.py:31\) iteration 2, .*
# cw-stderr: capture_window: profiler stopped (cuProfilerStop: 0)
# cw-stderr-re: capture_window: window closed: loop 'step' \(.*/integration_hf\.py:31\) held iterations 2-4, .*
# cw-run: CAPTURE_WINDOW=off
# cw-expect: .micro@0..1 .step@0 .micro@2..3 .step@1 .micro@4 .step@2
# cw-expect: .micro@5..6 .step@3 .micro@7..8 .step@4 .eval@0 .micro@9 .step@5
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "frameworks"))
from transformers import Trainer, TrainingArguments  # noqa: E402
from workload import PLAIN, Model, Optimizer  # noqa: E402

from capture_window.integrations import CaptureWindowCallback  # noqa: E402

callbacks = [] if PLAIN else [CaptureWindowCallback(2, 3)]
args = TrainingArguments(max_steps=6, gradient_accumulation_steps=2, eval_strategy="steps",
                         eval_steps=5)
trainer = Trainer(model=Model(), args=args, train_dataset=range(5), eval_dataset=range(1),
                  callbacks=callbacks, optimizers=(Optimizer(), None))
print("steps:", trainer.train())
