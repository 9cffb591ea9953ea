"""capture_window.integrations.CaptureWindow in a Lightning of lightning's
shape (frameworks/lightning): with accumulate_grad_batches=2 one iteration
is one optimizer step, from the first batch of the accumulation to the
last (an epoch of 5 batches steps on its last one alone), counted across
epochs; the validation every 4 batches falls between iterations. The
site is the line that constructs the callback."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0(.micro@0..1 .) step#1(.micro@2..3 .) .eval@0 S step[ step#2(.micro@4 .)
# cw-expect: step#3(.micro@5..6 .) step#4(.micro@7..8 .) ] E .eval@1 step#5(.micro@9 .)
# cw-run: CAPTURE_WINDOW_VERBOSE=1 CAPTURE_WINDOW=1:1 CAPTURE_WINDOW_LOOPS=integration_lightning.py:28
# cw-expect: step#0(.micro@0..1 .) S step[ step#1(.micro@2..3 .) ] E .eval@0 step#2(.micro@4 .)
# cw-expect: step#3(.micro@5..6 .) step#4(.micro@7..8 .) .eval@1 step#5(.micro@9 .)
# cw-stderr-re: capture_window: loop 'step' \(.*/integration_lightning\.py:28, <module>\) is active
# cw-stderr: capture_window: profiler started (cuProfilerStart: 0)
# cw-stderr-re: capture_window: window opened: loop 'step' \(.*/integration_lightning\.py:28\) .*
# cw-stderr: capture_window: profiler stopped (cuProfilerStop: 0)
# cw-stderr-re: capture_window: window closed: loop 'step' \(.*/integration_lightning\.py:28\) held iterations 1-1, .*
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "frameworks"))
import lightning.pytorch as pl  # noqa: E402
from workload import PLAIN, Optimizer, lightning_module  # noqa: E402

from capture_window.integrations import CaptureWindow  # noqa: E402

callbacks = [] if PLAIN else [CaptureWindow(2, 3)]
trainer = pl.Trainer(max_steps=6, accumulate_grad_batches=2, val_check_interval=4,
                     callbacks=callbacks)
trainer.fit(lightning_module(Optimizer()), train_dataloaders=range(5), val_dataloaders=range(1))
print("steps:", trainer.global_step, "epochs:", trainer.fit_loop.epoch)
