"""no_libuv.py - torch's TCPStore without libuv, where torch was built
without it and USE_LIBUV=0 says so.

From torch 2.4 a TCPStore uses libuv unless told otherwise, and the stores
of torchrun's rendezvous and of a worker's init_process_group under
torchrun are never told: USE_LIBUV=0 does not reach them (pytorch/pytorch
issue 148283). Debian's torch 2.x is built without libuv, so there
torchrun and its workers stop with "use_libuv was requested but PyTorch was
built without libuv support". apply() makes use_libuv=False the default of
every TCPStore made after it, in torchrun (torchrun.py) and in a worker
(rank_program.py) alike. A torch older than 2.4 (Debian 12's 1.13) has no
such argument and is left as it is.
"""
import importlib
import os


def apply():
    import torch.distributed as dist
    # the module: torch.distributed.rendezvous, as an attribute, is a function
    rendezvous = importlib.import_module("torch.distributed.rendezvous")

    if os.environ.get("USE_LIBUV") != "0" or "use_libuv" not in (
            dist.TCPStore.__init__.__doc__ or ""):
        return

    class TCPStore(dist.TCPStore):
        def __init__(self, *args, **kwargs):
            kwargs.setdefault("use_libuv", False)
            super().__init__(*args, **kwargs)

    dist.TCPStore = rendezvous.TCPStore = TCPStore
