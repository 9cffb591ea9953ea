"""The zero edit of a Hugging Face Trainer (frameworks/transformers, the
loops of transformers 5.17): the FUNCTION spec Trainer._run_epoch marks
the optimizer-step loop, one iteration per optimizer step with its
micro-batches (a gradient accumulation of 2; the last step of an epoch of
5 batches has one) and the evaluation after step 5 inside step 4, counted
across the epochs that enter it again; Trainer._inner_training_loop marks
the epoch loop around it."""
# cw-plugin-args: loop=Trainer._run_epoch:3:2 loop=Trainer._inner_training_loop:1:1:epoch
# cw-windows: step=3:2 epoch=1:1
# cw-run:
# cw-expect: epoch#0( step#0(.micro@0..1 .) step#1(.micro@2..3 .) step#2(.micro@4 .) )
# cw-expect: S epoch[ epoch#1( step[ step#3(.micro@5..6 .) step#4(.micro@7..8 . .eval@0) ]
# cw-expect: step#5(.micro@9 .) ) ] E
# cw-run: CAPTURE_WINDOW_LOOPS=_run_epoch CAPTURE_WINDOW=off
# cw-expect: .micro@0..1 .step@0 .micro@2..3 .step@1 .micro@4 .step@2
# cw-expect: .micro@5..6 .step@3 .micro@7..8 .step@4 .eval@0 .micro@9 .step@5
from transformers import Trainer, TrainingArguments
from workload import Model, Optimizer

args = TrainingArguments(max_steps=6, gradient_accumulation_steps=2, eval_strategy="steps",
                         eval_steps=5)
trainer = Trainer(model=Model(), args=args, train_dataset=range(5), eval_dataset=range(1),
                  optimizers=(Optimizer(), None))
print("steps:", trainer.train())
