#!/usr/bin/env python3
"""Tests of what check names in the odd step (issue 31 item 6), on SQLite
fixtures (make_fixtures.py, served by fake-nsys): the kernels that differ
from the other steps' by time, the top three (absent there, or at least
twice as long); for a host-only step traced with -t osrt, the OS calls
that differ; for one traced without, the advice. Exact stdout and exit
status, and the --json fields.

Usage: oddstep_test.py [CAPTURE_WINDOW_COMMAND]
"""
import sys

sys.dont_write_bytecode = True
import cli_test  # noqa: E402  (run, case, report and the failures list)
from cli_test import case, case_value, report  # noqa: E402
from judge_test import checked  # noqa: E402  (check --json of one report)

HOST = ("ok: 3 steps (step#29-31), aimed at every 30 steps: step#30 took 2.10 s, steps 29 and 31 "
        "took 19.0 ms, with the same 497 kernels: host work (a checkpoint, a data-loader stall); ")


def kernel_cases():
    report("kernel_time", "ktime.nsys-rep", 9_000)
    case("odd step: the top three kernels by time added, absent or twice as long", 1,
         ["ktime.nsys-rep: step#31 launched 9 kernels, steps 30 and 32 launched 4; step#31's kernels "
          "that differ, by time: backward 100 us (4.00 us in steps 30 and 32), "
          "vectorized_elementwise_kernel 6.00 us (not in them), tag 2.00 us (not in them): "
          "not steady state (eval? checkpoint?)"], ["check", "ktime.nsys-rep"])
    status, got = checked("ktime.nsys-rep")
    case_value("odd step --json: odd_kernels, per step (means), forward (1.5x) left out",
               (status, got["odd_kernels"]),
               (1, [{"thread": 101, "steps": [31], "others": [30, 32], "kernels": [
                   {"name": "backward(float *, int)", "ns": 100_000, "count": 2, "others_ns": 4000,
                    "others_count": 2},
                   {"name": cli_test.FILL, "ns": 6000, "count": 3, "others_ns": 0, "others_count": 0},
                   {"name": "tag(int *)", "ns": 2000, "count": 1, "others_ns": 0, "others_count": 0}]}]))
    report("kernel_slower", "kslower.nsys-rep", 9_000)
    case("a step with the same kernels, one of them slower, named (diff's rule, issue 42)", 1,
         ["kslower.nsys-rep: step#31 launched the same kernels as steps 30 and 32 but ran backward "
          "+50.0% slower (95% interval +50.0% to +50.0%): not steady state"],
         ["check", "kslower.nsys-rep"])
    status, got = checked("kslower.nsys-rep")
    case_value("slower kernel --json: slower_kernels, the median instances and the change",
               (status, got["slower_kernels"], got["odd_kernels"]),
               (1, [{"thread": 101, "step": 31, "others": [30, 32], "kernels": [
                   {"name": "backward(float *, int)", "ns": 3000, "others_ns": 2000, "change": 0.5,
                    "low": 0.5, "high": 0.5}]}], None))
    report("host_step", "same.nsys-rep", 90_000)
    status, got = checked("same.nsys-rep")
    case_value("odd step --json: no odd kernels when the work is alike", (status, got["odd_kernels"]),
               (0, None))


def host_cases():
    report("host_calls", "osrt.nsys-rep", 90_000)
    case("host step with -t osrt: the OS calls that differ, the shared ioctl left out", 0,
         [f"osrt.nsys-rep: {HOST}OS calls that differ, by time: fsync 1.20 s (not in steps 29 and 31), "
          "write 800 ms (not in them), open 20.0 us (not in them); 1,491 kernels, 90.0 kB"],
         ["check", "osrt.nsys-rep"])
    status, got = checked("osrt.nsys-rep")
    case_value("host step --json: host_work's calls",
               (status, [h["calls"] for h in got["host_work"]]),
               (0, [[{"name": "fsync", "ns": 1_200_000_000, "count": 1, "others_ns": 0, "others_count": 0},
                     {"name": "write", "ns": 800_000_000, "count": 8, "others_ns": 0, "others_count": 0},
                     {"name": "open", "ns": 20_000, "count": 1, "others_ns": 0, "others_count": 0}]]))
    report("host_calls_quiet", "quiet.nsys-rep", 90_000)
    case("host step with -t osrt, no call differs: says so, and how to see the rest", 0,
         [f"quiet.nsys-rep: {HOST}no OS call differs; `--sample=cpu` samples the CPU; "
          "1,491 kernels, 90.0 kB"], ["check", "quiet.nsys-rep"])
    report("host_gap_calls", "gap.nsys-rep", 90_000)
    case("host work between the ranges: the calls in the gap, against the other gap's", 0,
         ["gap.nsys-rep: ok: 3 steps (step#29-31), aimed at every 30 steps: step#30 began 2.10 s after "
          "step#29 ended (steps 29-31 took 19.0 ms, 7.00 us apart otherwise), with the same 497 kernels: "
          "host work between the steps (the loop's own code: fetching the next batch?); OS calls that "
          "differ, by time: read 2.00 s (not in step 31); 1,491 kernels, 90.0 kB"], ["check", "gap.nsys-rep"])
    status, got = checked("quiet.nsys-rep")
    case_value("host step --json: calls [] with the table, None without",
               (got["host_work"][0]["calls"], checked("same.nsys-rep")[1]["host_work"][0]["calls"]),
               ([], None))


if __name__ == "__main__":
    sys.exit(cli_test.run_all("#!/bin/sh\nexit 0\n", [kernel_cases, host_cases]))
