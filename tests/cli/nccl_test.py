#!/usr/bin/env python3
"""Tests of `capture-window check` on the reports of a data-parallel NCCL
job (one per rank, nccl_fixtures.py served by fake-nsys): each rank's time
in NCCL kernels per step, and which rank the others waited for. Each case
asserts the exact stdout and exit status.

Usage: nccl_test.py [CAPTURE_WINDOW_COMMAND]
"""
import json
import sys

sys.dont_write_bytecode = True
import cli_test  # noqa: E402  (run, case, report and the failures list)
from cli_test import case, report  # noqa: E402

ME = "capture-window"


def reports(scenario, size):
    """A report per rank of SCENARIO: report.R.nsys-rep; their names."""
    names = [f"report.{r}.nsys-rep" for r in range(size)]
    for r, name in enumerate(names):
        report(f"nccl:{scenario}:{r}/{size}", name, 60_000)
    return names


def head(names, steps, kernels):
    """The lines of every report and of the ranks' steps before the NCCL lines."""
    first, last = map(int, steps.split("-"))
    return ([f"{n}: ok: {last - first + 1} steps (step#{steps}), {kernels} kernels, 60.0 kB"
             for n in names] +
            [f"{ME}: rank {r} ({n}): step#{steps}" for r, n in enumerate(names)] +
            [f"{ME}: all {len(names)} ranks captured the same steps (step#{steps})"])


def step(i, times, step_ms):
    listed = ", ".join(f"rank {r} {t}" for r, t in enumerate(times))
    return f"{ME}: step#{i} NCCL kernel time: {listed} (step {step_ms})"


SLOW = "rank 1 arrived last at every all-reduce (step#30-32): the others waited 2.9 ms of each 7.1 ms step"
STRAGGLERS = [   # name, scenario, ranks, each step's NCCL times, the step, the verdict
    ("2 ranks, rank 1 arrives last at every all-reduce", "straggler", 2, ["3.1 ms", "200 us"],
     "7.1 ms", SLOW),
    ("4 ranks, rank 1 arrives last at every all-reduce", "straggler", 4,
     ["3.1 ms", "200 us", "3.1 ms", "3.1 ms"], "7.1 ms", SLOW),
    ("4 ranks, ranks 1 and 2 arrive last together", "pair", 4, ["1.7 ms", "200 us", "200 us", "1.7 ms"],
     "5.7 ms", "ranks 1-2 arrived last together at every all-reduce (step#30-32): the others waited "
     "1.5 ms of each 5.7 ms step"),
]


def straggler_cases():
    """The slow ranks compute longer in every step: the others wait in the all-reduce."""
    for name, scenario, size, times, step_ms, verdict in STRAGGLERS:
        names = reports(scenario, size)
        case(f"nccl: {name}", 0, head(names, "30-32", 9) +
             [step(i, times, step_ms) for i in (30, 31, 32)] + [f"{ME}: {verdict}"], ["check", *names])


def even_cases():
    """Jitter of up to 40 us is no straggler: the ranks are even."""
    names = reports("even", 2)
    case("nccl: 2 even ranks", 0,
         head(names, "30-32", 9) +
         [step(30, ["220 us", "200 us"], "4.2 ms"), step(31, ["200 us", "230 us"], "4.2 ms"),
          step(32, ["220 us", "200 us"], "4.2 ms"),
          f"{ME}: ranks even at every all-reduce (step#30-32): NCCL kernel times differ by at "
          "most 30 us a step"], ["check", *names])
    names = reports("even", 4)
    case("nccl: 4 even ranks", 0,
         head(names, "30-32", 9) +
         [step(30, ["240 us", "220 us", "200 us", "230 us"], "4.2 ms"),
          step(31, ["210 us", "240 us", "220 us", "200 us"], "4.2 ms"),
          step(32, ["220 us", "200 us", "230 us", "210 us"], "4.2 ms"),
          f"{ME}: ranks even at every all-reduce (step#30-32): NCCL kernel times differ by at "
          "most 40 us a step"], ["check", *names])


def fast_cases():
    """Steps under 1 ms: 5% of a step is less than the jitter, 0.1 ms is not."""
    names = reports("fast", 2)
    case("nccl: 2 even ranks, steps under 1 ms", 0,
         head(names, "30-32", 9) +
         [step(30, ["240 us", "200 us"], "840 us"), step(31, ["200 us", "260 us"], "860 us"),
          step(32, ["240 us", "200 us"], "860 us"),
          f"{ME}: ranks even at every all-reduce (step#30-32): NCCL kernel times differ by at "
          "most 60 us a step"], ["check", *names])


def some_steps_cases():
    """Rank 2 is slow in steps 31 and 33 only."""
    names = reports("some", 4)
    even, slow = ["200 us"] * 4, ["3.1 ms", "3.1 ms", "200 us", "3.1 ms"]
    case("nccl: 4 ranks, rank 2 arrives last in some steps", 0,
         head(names, "30-33", 12) +
         [step(30, even, "4.2 ms"), step(31, slow, "7.1 ms"), step(32, even, "4.2 ms"),
          step(33, slow, "7.1 ms"),
          f"{ME}: rank 2 arrived last at the all-reduces of step#31 and 33: the others waited "
          "2.9 ms of each 7.1 ms step",
          f"{ME}: ranks even at the all-reduces of step#30 and 32"], ["check", *names])


def json_cases():
    """--json: the ranks object holds the NCCL times, in ns."""
    names = reports("straggler", 2)
    status, out, _, _ = cli_test.run(["check", "--json", *names])
    got = json.loads(out.splitlines()[-1]).get("nccl")
    steps = [{"step": i, "step_ns": 7_100_000,
              "nccl_ns": [{"rank": 0, "ns": 3_100_000}, {"rank": 1, "ns": 200_000}],
              "last": [1], "waited_ns": 2_900_000, "spread_ns": 2_900_000} for i in (30, 31, 32)]
    want = {"collective": "all-reduce", "steps": steps,
            "verdict": [SLOW]}
    name = "nccl --json: the nccl object of the ranks"
    if status == 0 and got == want:
        print(f"PASS: {name}")
    else:
        cli_test.failures.append(name)
        print(f"FAIL: {name}\n  status {status}\n  got {got}\n  expected {want}")


if __name__ == "__main__":
    sys.exit(cli_test.run_all("#!/bin/sh\nexit 0\n",
                              (straggler_cases, even_cases, fast_cases, some_steps_cases, json_cases)))
