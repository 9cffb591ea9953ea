"""torchrun.py - torchrun (torch.distributed.run) as the launchers' cases
start it: torchrun's own code, on a torch built without libuv too
(no_libuv.py).

    python3 torchrun.py TORCHRUN-ARGUMENTS...
"""
import runpy

import no_libuv

no_libuv.apply()
runpy.run_module("torch.distributed.run", run_name="__main__", alter_sys=True)
