"""The zero edit in an imported module (mytrain/trainer.py): a FILE:LINE
spec names the step loop of a module the script imports, a FUNCTION spec
the epoch loop; the step loop keeps counting across the epochs that enter
it again (contract section 2), and CAPTURE_WINDOW_LOOPS selects either."""
# cw-plugin-args: loop=mytrain/trainer.py:18:4:2 loop=Trainer.fit:2:1:epoch
# cw-windows: step=4:2 epoch=2:1
# cw-run:
# cw-expect: epoch#0( . step#0..2(.) ) epoch#1( . step#3(.) S step[ step#4..5(.) ] E )
# cw-expect: S epoch[ epoch#2( . step#6..8(.) ) ] E
# cw-run: CAPTURE_WINDOW_LOOPS=trainer.py:18
# cw-expect: .epoch@0 step#0..2(.) .epoch@1 step#3(.) S step[ step#4..5(.) ] E
# cw-expect: .epoch@2 step#6..8(.)
# cw-run: CAPTURE_WINDOW_LOOPS=epoch
# cw-expect: epoch#0(. .step@0..2 ) epoch#1(. .step@3..5 ) S epoch[ epoch#2(. .step@6..8 ) ] E
# cw-run: CAPTURE_WINDOW=off
# cw-expect: .epoch@0 .step@0..2 .epoch@1 .step@3..5 .epoch@2 .step@6..8
from mytrain.trainer import Trainer

t = Trainer(3)
t.fit(3)
print(t.step)
