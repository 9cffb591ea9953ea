#!/usr/bin/env python3
"""nccl_fixtures.py - the SQLite exports of a data-parallel NCCL job, one
report per rank, for the straggler cases of nccl_test.py (fake-nsys serves
them for reports holding "fixture=nccl:SCENARIO:RANK/SIZE").

Built with make_fixtures.py's Report and Thread, so tables, ids and the
correlation of launches to kernels are those of the other fixtures. Rank R
is process 7000 + R on GPU R. Each step: a forward and a backward kernel,
then an all-reduce kernel (ncclDevKernel_AllReduce_Sum_bf16_RING_LL)
launched by cuLaunchKernelEx, as NCCL launches it, then
cudaStreamSynchronize. The GPU work of rank R in step i takes
COMPUTE + extra(R, i) + jitter(R, i); its all-reduce kernel starts then and
ends when the last rank's work is done plus ALLREDUCE, so the rank that
arrives last spends ALLREDUCE in it and the others wait. Host steps last
the same on every rank: the last arrival plus ALLREDUCE plus SYNC.

Scenarios (window steps 30-32, "some": 30-33):
  straggler  rank 1 computes 2.9 ms longer in every step: steps of 7.1 ms
  even       no extra work; jitter of up to 40 us per rank and step
  some       rank 2 computes 2.9 ms longer in steps 31 and 33 only
  pair       ranks 1 and 2 compute 1.5 ms longer in every step
  fast       steps of under 1 ms (0.5 ms of work), jitter of up to 80 us

Usage: nccl_fixtures.py OUT.sqlite SCENARIO:RANK/SIZE
"""
import re
import sys

from make_fixtures import ALLREDUCE, BACKWARD, FORWARD, Report

COMPUTE, ALLREDUCE_NS, SYNC = 3_900_000, 200_000, 100_000
LAUNCH_EX = "cuLaunchKernelEx"


def jitter(rank, i):
    """Up to 40 us, different per rank and step (deterministic)."""
    return (rank * 7 + i * 3) % 5 * 10_000


SCENARIOS = {
    "straggler": (range(30, 33), lambda rank, i: 2_900_000 if rank == 1 else 0),
    "even": (range(30, 33), lambda rank, i: jitter(rank, i)),
    "some": (range(30, 34), lambda rank, i: 2_900_000 if rank == 2 and i in (31, 33) else 0),
    "pair": (range(30, 33), lambda rank, i: 1_500_000 if rank in (1, 2) else 0),
    "fast": (range(30, 33), lambda rank, i: 2 * jitter(rank, i) - 3_400_000),
}


def rank_report(scenario, rank, size):
    """The report of RANK of SIZE ranks in SCENARIO."""
    steps, extra = SCENARIOS[scenario]
    r = Report(7000 + rank)
    main = r.thread(101, start=1_000_000 + 3000 * rank)
    with main.range("step", registered=True):
        for i in steps:
            with main.range(f"step#{i}"):
                begin = main.clock
                main.launch(FORWARD)
                main.launch(BACKWARD)
                arrival = max(COMPUTE + extra(k, i) for k in range(size))
                nccl_kernel(r, main, begin + COMPUTE + extra(rank, i), begin + arrival + ALLREDUCE_NS, rank)
                main.call("cudaStreamSynchronize_v3020")
                main.clock = begin + arrival + ALLREDUCE_NS + SYNC - 1000   # the range's end ticks 1 us
    return r


def nccl_kernel(r, thread, start, end, device):
    """NCCL's all-reduce kernel, launched by THREAD now, run from START to END."""
    correlation = thread.call(LAUNCH_EX)
    r.rows["CUPTI_ACTIVITY_KIND_KERNEL"].append(
        (start, end, device, 1, 13, correlation, r.pid << 24, r.string(ALLREDUCE[0]),
         r.string(ALLREDUCE[1]), 2, 1, 1))


def build(spec, path):
    """Writes SPEC (SCENARIO:RANK/SIZE) to PATH; False if it names no scenario."""
    m = re.fullmatch(r"(\w+):([0-9]+)/([0-9]+)", spec)
    if not m or m.group(1) not in SCENARIOS or int(m.group(2)) >= int(m.group(3)):
        return False
    rank_report(m.group(1), int(m.group(2)), int(m.group(3))).write(path)
    return True


if __name__ == "__main__":
    if len(sys.argv) != 3 or not build(sys.argv[2], sys.argv[1]):
        sys.exit(__doc__.split("\n\n")[-1])
