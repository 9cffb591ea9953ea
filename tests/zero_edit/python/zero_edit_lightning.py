"""The zero edit of a Lightning fit (frameworks/lightning, the loops of
lightning 2.6): the FILE:LINE spec of lightning/pytorch/loops/
training_epoch_loop.py marks _TrainingEpochLoop.run's `while not
self.done:` loop (the FUNCTION _TrainingEpochLoop.run marks the same), one iteration per batch (with
accumulate_grad_batches=2, two iterations make an optimizer step; the
callback of integration_lightning.py counts optimizer steps instead), the
validation every 4 batches inside the iteration that runs it, counted
across the epochs that enter the loop again."""
# cw-plugin-args: loop=lightning/pytorch/loops/training_epoch_loop.py:23:3:4:batch
# cw-windows: batch=3:4
# cw-run:
# cw-expect: batch#0(.micro@0) batch#1(.micro@1 .step@0) batch#2(.micro@2)
# cw-expect: S batch[ batch#3(.micro@3 .step@1 .eval@0) batch#4(.micro@4 .step@2) ] E
# cw-expect: batch#5(.micro@5) batch#6(.micro@6 .step@3) batch#7(.micro@7)
# cw-expect: batch#8(.micro@8 .step@4 .eval@1) batch#9(.micro@9 .step@5)
# cw-run: CAPTURE_WINDOW=6:2
# cw-expect: batch#0(.micro@0) batch#1(.micro@1 .step@0) batch#2(.micro@2)
# cw-expect: batch#3(.micro@3 .step@1 .eval@0) batch#4(.micro@4 .step@2)
# cw-expect: batch#5(.micro@5) S batch[ batch#6(.micro@6 .step@3) batch#7(.micro@7) ] E
# cw-expect: batch#8(.micro@8 .step@4 .eval@1) batch#9(.micro@9 .step@5)
import lightning.pytorch as pl
from workload import Optimizer, lightning_module

trainer = pl.Trainer(max_steps=6, accumulate_grad_batches=2, val_check_interval=4)
trainer.fit(lightning_module(Optimizer()), train_dataloaders=range(5), val_dataloaders=range(1))
print("steps:", trainer.global_step, "epochs:", trainer.fit_loop.epoch)
