#!/usr/bin/env python3
"""Tests of check's judgment of issue 31 on SQLite fixtures (make_fixtures.py,
served by fake-nsys): an aimed window confirmed by what its slow step took
(host work: the same kernels, many times the time; in the step's range or
between the ranges), one not confirmed by a step barely slower; GPU work in
CUDA graphs that nsys traced whole counts; profile asks nsys for each
graph's kernels unless told otherwise. Exact stdout and exit status.

Usage: judge_test.py [CAPTURE_WINDOW_COMMAND]
"""
import json
import sys

sys.dont_write_bytecode = True
import cli_test  # noqa: E402  (run, case, report and the failures list)
from cli_test import case, case_value, report, run  # noqa: E402

SEE = "add `-t osrt` or `--sample=cpu` to see it"
GRAPHS = "(nsys traced each graph whole: --cuda-graph-trace=node shows their kernels)"


def checked(path):
    """check --json PATH: (exit status, the report's object)."""
    status, out, _, _ = run(["check", "--json", path])
    return status, json.loads(out)


def host_cases():
    report("host_step", "ckpt.1.nsys-rep", 90_000)
    case("host work: an aimed window's step took 110x as long with the same kernels: ok", 0,
         ["ckpt.1.nsys-rep: ok: 3 steps (step#29-31), aimed at every 30 steps: step#30 took 2.10 s, "
          "steps 29 and 31 took 19.0 ms, with the same 497 kernels: host work (a checkpoint, a "
          f"data-loader stall); {SEE}; 1,491 kernels, 90.0 kB"], ["check", "ckpt.1.nsys-rep"])
    status, got = checked("ckpt.1.nsys-rep")
    case_value("host work --json: ok, the steps' times and the slow one",
               (status, got["ok"], got["problem"], [s["took_ns"] for s in got["step_kernels"]],
                got["host_work"]),
               (0, True, None, [19_001_500, 2_100_001_500, 19_001_500],
                [{"thread": 101, "step": 30, "took_ns": 2_100_001_500, "gap_ns": 1000,
                  "others_took_ns": [19_001_500, 19_001_500], "others_gap_ns": [1000],
                  "between": False, "work": "497 kernels", "before": 29, "others": [29, 31],
                  "calls": None}]))
    report("host_gap", "gap.nsys-rep", 90_000)
    case("host work: 2.1 s between two steps' ranges (the loop's own code): ok", 0,
         ["gap.nsys-rep: ok: 3 steps (step#29-31), aimed at every 30 steps: step#30 began 2.10 s "
          "after step#29 ended (steps 29-31 took 19.0 ms, 1.00 us apart otherwise), with the same "
          "497 kernels: host work between the steps (the loop's own code: fetching the next "
          f"batch?); {SEE}; 1,491 kernels, 90.0 kB"], ["check", "gap.nsys-rep"])
    report("host_noise", "noise.nsys-rep", 90_000)
    case("host work: a step 2x as long is not the event: missed, exit 1", 1,
         ["noise.nsys-rep: found 3 steps (step#29-31), aimed at every 30 steps, but no step differs "
          "from the others, in its work or its time: the event fell outside the window; "
          "1,491 kernels, 90.0 kB"], ["check", "noise.nsys-rep"])
    status, got = checked("noise.nsys-rep")
    case_value("host work --json: missed_event, no host work",
               (status, got["problem"], got["host_work"]), (1, "missed_event", None))
    report("host_steady", "steady.nsys-rep", 90_000)
    status, got = checked("steady.nsys-rep")
    case_value("host work in a steady window: the verdict as before, host_work in --json",
               (status, got["verdict"], [h["step"] for h in got["host_work"]]),
               (0, "ok: 3 steps (step#29-31), 1,491 kernels, 90.0 kB", [30]))


def graph_cases():
    report("graph_whole", "graph.nsys-rep", 9_000)
    case("graphs: launches traced whole are GPU work, not 'no kernels'", 0,
         [f"graph.nsys-rep: ok: 3 steps (step#30-32), 3 CUDA graph launches {GRAPHS}, 9.0 kB"],
         ["check", "graph.nsys-rep"])
    status, got = checked("graph.nsys-rep")
    case_value("graphs --json: graph_launches, each step's graphs",
               (status, got["kernels"], got["graph_launches"], [s["graphs"] for s in got["step_kernels"]]),
               (0, 0, 3, [1, 1, 1]))
    report("graph_nokernels", "notable.nsys-rep", 9_000)
    case("graphs: no GRAPH_TRACE table: the launches no kernel is joined to", 0,
         [f"notable.nsys-rep: ok: 3 steps (step#30-32), 3 CUDA graph launches {GRAPHS}, 9.0 kB"],
         ["check", "notable.nsys-rep"])
    report("graph_eval", "geval.nsys-rep", 9_000)
    case("graphs: the step that launched another graph is the aimed event", 0,
         ["geval.nsys-rep: ok: 3 steps (step#19-21), aimed at every 20 steps: step#20 launched "
          f"2 CUDA graphs, steps 19 and 21 launched 1 CUDA graph; 4 CUDA graph launches {GRAPHS}, 9.0 kB"],
         ["check", "geval.nsys-rep"])
    report("nokernels", "empty.nsys-rep", 65_000)
    case("graphs: no kernel and no graph is still no GPU work", 1,
         ["empty.nsys-rep: no kernels captured: the window closed before any GPU work "
          "(or nsys ran without -t cuda); 65.0 kB"], ["check", "empty.nsys-rep"])


def profile_cases():
    env = {"FAKE_NSYS_REPORTS": "graph_whole", "FAKE_NSYS_SIZE": "9000"}
    ok = f"prog.nsys-rep: ok: 3 steps (step#30-32), 3 CUDA graph launches {GRAPHS}, 9.0 kB"
    export = cli_test.export("prog.nsys-rep")
    case("profile: --cuda-graph-trace=node by default", 0, ["prog: ", ok], ["profile", "./prog"], env,
         ["nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -f true "
          "--cuda-graph-trace=node -o prog ./prog", export])
    case("profile: the user's --cuda-graph-trace=graph replaces it", 0, ["prog: ", ok],
         ["profile", "--cuda-graph-trace=graph", "./prog"], env,
         ["nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -f true -o prog "
          "--cuda-graph-trace=graph ./prog", export])
    case("profile: --cuda-graph-trace graph (a separate value) replaces it", 0, ["prog: ", ok],
         ["profile", "--nsys-args", "--cuda-graph-trace graph", "--", "./prog"], env,
         ["nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop -f true -o prog "
          "--cuda-graph-trace graph ./prog", export])


if __name__ == "__main__":
    sys.exit(cli_test.run_all('#!/bin/sh\necho "prog: $*"\nexit ${PROG_EXIT:-0}\n',
                              (host_cases, graph_cases, profile_cases)))
