"""An exception out of fit() inside the window (the optimizer step of
iteration 3 of the window 2:3 raises): Lightning's on_exception leaves the
loop, so the window closes before the code that catches the exception."""
# cw-windows: step=2:3
# cw-run:
# cw-expect: step#0(.micro@0 .) step#1(.micro@1 .) S step[ step#2(.micro@2 .) step#3(.micro@3 .) ] E
# cw-expect: .after@0
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "frameworks"))
import lightning.pytorch as pl  # noqa: E402
from workload import PLAIN, Optimizer, lightning_module  # noqa: E402
from cwtest import mark  # noqa: E402

from capture_window.integrations import CaptureWindow  # noqa: E402

trainer = pl.Trainer(max_steps=6, callbacks=[] if PLAIN else [CaptureWindow(2, 3)])
try:
    trainer.fit(lightning_module(Optimizer(raise_at=3)), train_dataloaders=range(10))
except RuntimeError as e:
    mark("after", 0)
    print("caught:", e)
