#!/usr/bin/env python3
"""make_fixtures.py - the SQLite exports that fake-nsys serves for the CLI tests.

Each fixture is what `nsys export --type sqlite` (2025.3.1) writes for one
report, cut down to the tables and columns capture-window reads, under
their real names (schema of docs.nvidia.com/nsight-systems, "SQLite Export
Schema Reference"):

  StringIds (id, value)                  every name below is an id into it
  NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId)
      eventType 59: a push/pop range; text NULL and textId set for a
      registered string (the runtime's window range); domainId 0: the
      default domain; eventType 34: a mark (end NULL); eventType 75 names
      a domain
  CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,
      correlationId, nameId, returnValue)  CUDA API calls
  CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,
      correlationId, globalPid, demangledName, shortName, gridX, ...)
  OSRT_API (start, end, eventClass, globalTid, nameId, returnValue,
      nestingLevel, callchainId)          OS calls (-t osrt)

As in nsys, a table with no rows is not created, a thread's globalTid is
(pid << 24) | tid and its process's globalPid is pid << 24. A kernel runs
on the GPU well after its launch, after the step that launched it has
ended, as in a real pipelined step; the kernel is joined to its launch by
correlationId.

Usage: make_fixtures.py OUT.sqlite FIXTURE[@PID]   (fake-nsys calls build())
       make_fixtures.py --list
"""
import contextlib
import re
import sqlite3
import sys

NVTX_PUSH_POP_RANGE = 59
NVTX_MARK = 34
NVTX_DOMAIN_CREATE = 75
LAUNCH = "cudaLaunchKernel_v7000"
GEMM = ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>"
        "(T1::Params)", "Kernel2")
FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char *, 1>>(int, T2, T3)", "vectorized_elementwise_kernel")
ALLREDUCE = ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm *, unsigned long, ncclWork *)",
             "ncclDevKernel_AllReduce_Sum_bf16_RING_LL")
TAG = ("tag(int *)", "tag")
FORWARD = ("forward(float *, int, float)", "forward")
BACKWARD = ("backward(float *, int)", "backward")

SCHEMA = {
    "StringIds": "id INTEGER PRIMARY KEY, value TEXT NOT NULL",
    "NVTX_EVENTS": "start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
                   "text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER",
    "CUPTI_ACTIVITY_KIND_RUNTIME": "start INTEGER NOT NULL, end INTEGER NOT NULL, "
                                   "eventClass INTEGER NOT NULL, globalTid INTEGER, "
                                   "correlationId INTEGER, nameId INTEGER NOT NULL, "
                                   "returnValue INTEGER NOT NULL",
    "CUPTI_ACTIVITY_KIND_KERNEL": "start INTEGER NOT NULL, end INTEGER NOT NULL, "
                                  "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
                                  "streamId INTEGER NOT NULL, correlationId INTEGER, "
                                  "globalPid INTEGER, demangledName INTEGER NOT NULL, "
                                  "shortName INTEGER NOT NULL, gridX INTEGER NOT NULL, "
                                  "gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL",
    # nsys's default --cuda-graph-trace=graph: a graph's run whole, no kernels
    "CUPTI_ACTIVITY_KIND_GRAPH_TRACE": "start INTEGER NOT NULL, end INTEGER NOT NULL, "
                                       "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, "
                                       "streamId INTEGER NOT NULL, correlationId INTEGER, "
                                       "globalPid INTEGER, graphId INTEGER NOT NULL, "
                                       "graphExecId INTEGER NOT NULL",
    # -t osrt: the OS runtime calls (columns as nsys 2025.3.1 exports them on the H200)
    "OSRT_API": "start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, "
                "globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, "
                "nestingLevel INTEGER, callchainId INTEGER",
}
DEFAULT_PID = 4100


class Report:
    """The rows of one report, built by threads that advance their own clocks."""

    def __init__(self, pid):
        self.pid = pid
        self.rows = {table: [] for table in SCHEMA}
        self.strings = {}
        self.correlations = {}   # per process, as in CUDA
        self.gpu_clock = 0

    def string(self, value):
        if value not in self.strings:
            self.strings[value] = len(self.strings) + 1
            self.rows["StringIds"].append((self.strings[value], value))
        return self.strings[value]

    def thread(self, tid, start=1_000_000, pid=None):
        return Thread(self, tid, start, pid or self.pid)

    def domain(self, name, domain_id):
        self.rows["NVTX_EVENTS"].append((0, None, NVTX_DOMAIN_CREATE, name, self.pid << 24,
                                         None, domain_id))

    def write(self, path):
        db = sqlite3.connect(path)
        for table, columns in SCHEMA.items():
            rows = self.rows[table]
            if rows:
                db.execute(f"CREATE TABLE {table} ({columns})")
                marks = ", ".join("?" * len(rows[0]))
                db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        db.commit()
        db.close()


class Thread:
    """One CPU thread: its NVTX ranges and CUDA calls, at its own clock (ns)."""

    def __init__(self, report, tid, start, pid):
        self.report, self.clock, self.pid = report, start, pid
        self.gtid = (pid << 24) | tid

    def tick(self, ns=1000):
        self.clock += ns
        return self.clock

    @contextlib.contextmanager
    def range(self, text, registered=False, domain=0):
        """A push/pop range around the block's events."""
        start = self.tick()
        yield
        text_id = self.report.string(text) if registered else None
        self.report.rows["NVTX_EVENTS"].append(
            (start, self.tick(), NVTX_PUSH_POP_RANGE, None if registered else text,
             self.gtid, text_id, domain))

    def mark(self, text):
        """An nvtxMarkA in the default domain."""
        self.report.rows["NVTX_EVENTS"].append((self.tick(), None, NVTX_MARK, text, self.gtid,
                                                None, 0))

    def call(self, name, correlation=None):
        """A CUDA API call; its correlation id."""
        report = self.report
        if correlation is None:
            correlation = report.correlations[self.pid] = report.correlations.get(self.pid, 0) + 1
        start = self.tick()
        report.rows["CUPTI_ACTIVITY_KIND_RUNTIME"].append(
            (start, self.tick(500), 1, self.gtid, correlation, report.string(name), 0))
        return correlation

    def os_call(self, name, ns):
        """An OS call of NS nanoseconds (-t osrt), at the thread's clock."""
        start = self.tick()
        self.report.rows["OSRT_API"].append((start, self.tick(ns), 27, self.gtid,
                                             self.report.string(name), 0, 0, None))

    def launch(self, kernel, times=1, ns=2000):
        """cudaLaunchKernel of KERNEL (demangled, short name) TIMES times; each
        kernel runs 5 ms after its launch, for NS nanoseconds."""
        report = self.report
        for _ in range(times):
            correlation = self.call(LAUNCH)
            start = max(self.clock + 5_000_000, report.gpu_clock)
            report.gpu_clock = start + ns
            report.rows["CUPTI_ACTIVITY_KIND_KERNEL"].append(
                (start, start + ns, 0, 1, 7, correlation, self.pid << 24,
                 report.string(kernel[0]), report.string(kernel[1]), 1000 + correlation, 1, 1))

    def loop(self, steps, kernels, label="step", window=True):
        """A window range LABEL around steps LABEL#i, each launching KERNELS
        ((kernel, times) pairs, or a function of the step giving them)."""
        with contextlib.ExitStack() as stack:
            if window:
                stack.enter_context(self.range(label, registered=True))
            for i in steps:
                with self.range(f"{label}#{i}"):
                    for kernel, times in (kernels(i) if callable(kernels) else kernels):
                        self.launch(kernel, times)
                    self.call("cudaStreamSynchronize_v3020")


# ---------------------------------------------------------------- the fixtures

def window(r):
    """Steps 30-32 of 510 kernels each, one more launched in the window before
    step 30 and one after step 32, user ranges and ranges of other domains
    (one named step#7)."""
    main = r.thread(101)
    r.domain("NCCL", 1)
    r.domain("mydomain", 2)
    with main.range("step", registered=True):
        main.launch(ALLREDUCE)
        main.loop(range(30, 33), [(GEMM, 128), (FILL, 256), (ALLREDUCE, 126)], window=False)
        main.launch(ALLREDUCE)
        for _ in range(3):
            with main.range("forward"), main.range("ncclAllReduce", domain=1):
                main.call("cudaMemcpyAsync_v3020")
        with main.range("step#7", domain=2):
            pass


def threads(r):
    """Two threads' windows 30-32 at the same time; the thread whose window
    closed first goes on with steps 33-36; a third thread launches 6 kernels
    in no range. 2 kernels a step: 26 kernels."""
    first = r.thread(102)
    first.loop(range(30, 33), [(TAG, 2)])
    first.loop(range(33, 37), [(TAG, 2)], window=False)
    r.thread(101, start=1_003_000).loop(range(30, 33), [(TAG, 2)])
    r.thread(103).launch(TAG, 6)


def nokernels(r):
    r.thread(101).loop(range(30, 33), [])


def four(r):
    r.thread(101).loop(range(30, 34), [(TAG, 1)])


def merged(r):
    main = r.thread(101)
    main.loop(range(10, 12), [(TAG, 1)])
    main.loop(range(40, 43), [(TAG, 1)])


def noranges(r):
    main = r.thread(101)
    for _ in range(3):
        with main.range("forward"):
            main.launch(TAG)


def eval_loop(r):
    """A loop labelled eval, steps 5-6 of 4 kernels; steps 0-1 of another loop."""
    main = r.thread(101)
    main.loop(range(5, 7), [(FORWARD, 2), (BACKWARD, 2)], label="eval")
    main.loop(range(0, 2), [], window=False)


def stepsoff(r):
    """CAPTURE_WINDOW_STEPS=off: the window range only, 3 kernels."""
    main = r.thread(101)
    with main.range("step", registered=True):
        main.launch(TAG, 3)


def repeat1(r):
    r.thread(101).loop(range(10, 12), [(TAG, 1)])


def repeat2(r):
    r.thread(101, start=9_000_000).loop(range(40, 43), [(TAG, 1)])


def eval_step(r):
    """Step 31 runs an evaluation: 1,512 kernels; steps 30 and 32 launch 497."""
    def kernels(i):
        return [(GEMM, 1000), (FILL, 512)] if i == 31 else [(GEMM, 241), (FILL, 256)]
    r.thread(101).loop(range(30, 33), kernels)


def other_kernels(r):
    """Steps 30-33 launch 4 kernels each, but step 32 other ones."""
    def kernels(i):
        return [(FORWARD, 2), (FILL, 2)] if i == 32 else [(FORWARD, 2), (BACKWARD, 2)]
    r.thread(101).loop(range(30, 34), kernels)


def thread_step(r):
    """Two threads, steps 30-32: thread 102's step 30 launches 3 kernels, not 1."""
    r.thread(101).loop(range(30, 33), [(TAG, 1)])
    r.thread(102).loop(range(30, 33), lambda i: [(TAG, 3 if i == 30 else 1)])


def graph(r):
    """Steps 30-32, each one cudaGraphLaunch that runs 3 kernels (one correlation id)."""
    main = r.thread(101)
    with main.range("step", registered=True):
        for i in range(30, 33):
            with main.range(f"step#{i}"):
                correlation = main.call("cudaGraphLaunch_v10000")
                for k, kernel in enumerate((FORWARD, BACKWARD, FILL)):
                    start = main.clock + 5_000_000 + 3000 * k
                    r.rows["CUPTI_ACTIVITY_KIND_KERNEL"].append(
                        (start, start + 2000, 0, 1, 7, correlation, r.pid << 24,
                         r.string(kernel[0]), r.string(kernel[1]), 1, 1, 1))


def child(r):
    """Steps 30-32 of 1 kernel; a child process, traced too, launches 2
    kernels with the same correlation ids as the first two of the parent."""
    r.thread(101).loop(range(30, 33), [(TAG, 1)])
    r.thread(7, pid=4200).launch(TAG, 2)


def late(r):
    """A rank whose window opened one step late: steps 31-33."""
    r.thread(101).loop(range(31, 34), [(TAG, 2)])


def rank(r):
    """One rank's window: steps 30-32 of 2 kernels."""
    r.thread(101).loop(range(30, 33), [(TAG, 2)])


STEADY = [(GEMM, 241), (FILL, 256)]   # a training step: 497 kernels


def own_capture(r):
    """A capture of the program's own (llm.c calls cudaProfilerStart before
    its loop): steps 0-3, the runtime's window range around steps 1-3 only."""
    main = r.thread(101)
    main.loop(range(0, 1), [(TAG, 2)], window=False)
    main.loop(range(1, 4), [(TAG, 2)])


def no_window(r):
    """Steps 0-3 with no window range: a capture of the program's own
    (llm.c's start and stop) before the runtime's window opened."""
    r.thread(101).loop(range(0, 4), [(TAG, 2)], window=False)


def trainer(r, steps, odd, aim=None):
    """The trainer of issue 21: an 'epoch' range of its own around the
    window, and in every step a 'train_step' range of its own holding the
    step's 497 kernels; ODD(i, thread) adds what step i does besides. AIM:
    the runtime's mark of a window aimed at an event every AIM steps."""
    main = r.thread(101)
    with main.range("epoch"), main.range("step", registered=True):
        if aim:
            main.mark(f"step:aimed-every-{aim}")
        for i in steps:
            with main.range(f"step#{i}"):
                with main.range("train_step"):
                    for kernel, times in STEADY:
                        main.launch(kernel, times)
                odd(i, main)
                main.call("cudaStreamSynchronize_v3020")


def evaluate(main):
    """An evaluation: a 'validation' range of 2,960 kernels, 'forward' ranges in it."""
    with main.range("validation"):
        for _ in range(2):
            with main.range("forward"):
                main.launch(GEMM, 740)
                main.launch(FILL, 740)


def validation(r):
    """Steps 19-21 of the trainer; step 20 evaluates."""
    trainer(r, range(19, 22), lambda i, t: evaluate(t) if i == 20 else None)


def aimed(r):
    """validation, in a window the runtime marked as aimed at every 20 steps."""
    trainer(r, range(19, 22), lambda i, t: evaluate(t) if i == 20 else None, aim=20)


def aimed_missed(r):
    """A window aimed at every 20 steps whose steps 21-23 are all alike."""
    trainer(r, range(21, 24), lambda i, t: None, aim=20)


def checkpoint(r):
    """Steps 29-31, each with a range 'iter I' of its own; step 30 also a
    'checkpoint' range (domain 'app') of no kernel: a copy to the host."""
    def odd(i, main):
        with main.range(f"iter {i}"):
            pass
        if i == 30:
            with main.range("checkpoint", domain=3):
                main.call("cudaMemcpy_v3020")
    r.domain("app", 3)
    trainer(r, range(29, 32), odd)


def coinciding(r):
    """Steps 59-61, aimed at every 20: step 60 evaluates and checkpoints."""
    def odd(i, main):
        if i == 60:
            evaluate(main)
            with main.range("checkpoint"):
                main.call("cudaMemcpy_v3020")
    trainer(r, range(59, 62), odd, aim=20)


# ---- issue 31: host work (the step's time) and graphs traced whole

HOST_WORK = 18_251_500      # a step's host computing: with its 497 launches, 19.0 ms


def host_step(r, aim=30):
    """Steps 29-31 of the trainer, 19.0 ms each; step 30 takes 2.1 s with the
    same 497 kernels (a checkpoint writing to disk: no kernel, no range)."""
    trainer(r, range(29, 32), lambda i, t: t.tick(HOST_WORK + (2_081_000_000 if i == 30 else 0)), aim=aim)


def host_steady(r):
    """host_step in a window meant for steady state (no mark)."""
    host_step(r, aim=None)


def host_gap(r):
    """Steps 29-31 of 19.0 ms, aimed at every 30; 2.1 s pass between step#29's
    end and step#30's start (the loop's own code: its next batch)."""
    main = r.thread(101)
    with main.range("step", registered=True):
        main.mark("step:aimed-every-30")
        for i in range(29, 32):
            with main.range(f"step#{i}"):
                for kernel, times in STEADY:
                    main.launch(kernel, times)
                main.tick(HOST_WORK)
            if i == 29:
                main.tick(2_100_000_000)


def host_noise(r):
    """Aimed at every 30, steps 29-31: step 30 is 2x as long, not 3x: not the event."""
    trainer(r, range(29, 32), lambda i, t: t.tick(HOST_WORK + (19_000_000 if i == 30 else 0)), aim=30)


def graph_launch(main, graph_id):
    """A cudaGraphLaunch that nsys traced whole: a GRAPH_TRACE row, no kernels."""
    r = main.report
    correlation = main.call("cudaGraphLaunch_v10000")
    start = main.clock + 5_000_000
    r.rows["CUPTI_ACTIVITY_KIND_GRAPH_TRACE"].append(
        (start, start + 40_000, 0, 1, 7, correlation, r.pid << 24, graph_id, 100 + graph_id))


def graph_whole(r):
    """Steps 30-32, each one cudaGraphLaunch of graph 1, traced whole (nsys's
    default --cuda-graph-trace=graph): no kernel in the report."""
    main = r.thread(101)
    with main.range("step", registered=True):
        for i in range(30, 33):
            with main.range(f"step#{i}"):
                graph_launch(main, 1)
                main.call("cudaStreamSynchronize_v3020")


def graph_nokernels(r):
    """graph_whole from an nsys that wrote no GRAPH_TRACE table: the launches
    no kernel is joined to."""
    graph_whole(r)
    del r.rows["CUPTI_ACTIVITY_KIND_GRAPH_TRACE"][:]


def graph_eval(r):
    """Aimed at every 20, steps 19-21 each launch graph 1 (traced whole);
    step 20 launches graph 2 too (the evaluation)."""
    main = r.thread(101)
    with main.range("step", registered=True):
        main.mark("step:aimed-every-20")
        for i in range(19, 22):
            with main.range(f"step#{i}"):
                graph_launch(main, 1)
                if i == 20:
                    graph_launch(main, 2)
                main.call("cudaStreamSynchronize_v3020")


# ---- issue 31 item 6: what the odd step holds, by time

def kernel_time(r):
    """Steps 30-32 of 2 forward and 2 backward kernels (2 us each); step 31's
    backward kernels take 50 us each, its forward 3 us (1.5x: not much
    longer), and it launches 3 fill, 1 tag and 1 gemm kernel the others lack."""
    def kernels(i):
        if i != 31:
            return [(FORWARD, 2, 2000), (BACKWARD, 2, 2000)]
        return [(FORWARD, 2, 3000), (BACKWARD, 2, 50_000), (FILL, 3, 2000), (TAG, 1, 2000), (GEMM, 1, 2000)]
    main = r.thread(101)
    with main.range("step", registered=True):
        for i in range(30, 33):
            with main.range(f"step#{i}"):
                for kernel, times, ns in kernels(i):
                    main.launch(kernel, times, ns)
                main.call("cudaStreamSynchronize_v3020")


def kernel_slower(r):
    """kernel_time's steps 30-32 with the same kernels each (2 forward, 2
    backward of 2 us); step 31's backward kernels take 3 us (issue 42: a
    kernel slower among the same kernels)."""
    main = r.thread(101)
    with main.range("step", registered=True):
        for i in range(30, 33):
            with main.range(f"step#{i}"):
                main.launch(FORWARD, 2, 2000)
                main.launch(BACKWARD, 2, 3000 if i == 31 else 2000)
                main.call("cudaStreamSynchronize_v3020")


def host_calls(r, checkpoint=True):
    """host_step traced with -t osrt: every step waits in ioctl for 5 us (the
    synchronize); step 30 writes its checkpoint: open 20 us, 8 writes of
    100 ms, fsync 1.2 s, close 3 us (2.1 s in all, as host_step)."""
    def odd(i, t):
        t.os_call("ioctl", 5000)
        if i == 30 and checkpoint:
            t.os_call("open", 20_000)
            for _ in range(8):
                t.os_call("write", 100_000_000)
            t.os_call("fsync", 1_200_000_000)
            t.os_call("close", 3000)
        t.tick(HOST_WORK + (2_081_000_000 - 2_000_023_000 - 12_000 if i == 30 and checkpoint else
                            2_081_000_000 if i == 30 else 0))
    trainer(r, range(29, 32), odd, aim=30)


def host_calls_quiet(r):
    """host_calls whose step 30 makes the same OS calls as the others: the
    time went to computing (a report traced with -t osrt that holds no answer)."""
    host_calls(r, checkpoint=False)


def host_gap_calls(r):
    """host_gap traced with -t osrt: the 2.1 s between step#29 and step#30
    are a read of 2.0 s (the next batch); every gap holds a 5 us poll."""
    main = r.thread(101)
    with main.range("step", registered=True):
        main.mark("step:aimed-every-30")
        for i in range(29, 32):
            if i > 29:
                main.os_call("poll", 5000)
            if i == 30:
                main.os_call("read", 2_000_000_000)
                main.tick(100_000_000)
            with main.range(f"step#{i}"):
                for kernel, times in STEADY:
                    main.launch(kernel, times)
                main.tick(HOST_WORK)


FIXTURES = {"window": window, "threads": threads, "nokernels": nokernels, "four": four,
            "merged": merged, "noranges": noranges, "eval": eval_loop, "stepsoff": stepsoff,
            "repeat1": repeat1, "repeat2": repeat2, "eval_step": eval_step,
            "other_kernels": other_kernels, "thread_step": thread_step, "graph": graph, "child": child,
            "late": late, "rank": rank, "validation": validation, "aimed": aimed,
            "aimed_missed": aimed_missed, "checkpoint": checkpoint, "coinciding": coinciding,
            "host_step": host_step, "host_steady": host_steady, "host_gap": host_gap,
            "host_noise": host_noise, "graph_whole": graph_whole, "graph_nokernels": graph_nokernels,
            "graph_eval": graph_eval, "own_capture": own_capture, "no_window": no_window, "kernel_time": kernel_time, "kernel_slower": kernel_slower, "host_calls": host_calls,
            "host_calls_quiet": host_calls_quiet, "host_gap_calls": host_gap_calls}


def placed(name):
    """The trainer's window of steps S to S+2 (profile --auto's reports):
    steady:S (alike), eval:S:AIM (step S+1 evaluates), host:S:AIM (step S+1
    takes 2.1 s of host work); AIM: the mark of a window aimed at every AIM
    steps. -> a fixture, or None."""
    m = re.fullmatch(r"(steady|eval|host):([0-9]+)(?::([0-9]+))?", name)
    if not m:
        return None
    kind, start, aim = m.group(1), int(m.group(2)), int(m.group(3) or 0) or None
    odd = {"steady": lambda i, t: None,
           "eval": lambda i, t: evaluate(t) if i == start + 1 else None,
           "host": lambda i, t: t.tick(HOST_WORK + (2_081_000_000 if i == start + 1 else 0))}[kind]
    return lambda r: trainer(r, range(start, start + 3), odd, aim=aim)


def build(spec, path):
    """Writes fixture SPEC ("NAME" or "NAME@PID": the process id) to PATH;
    False if there is no such fixture."""
    name, _, pid = spec.partition("@")
    fixture = FIXTURES.get(name) or placed(name)
    if not fixture:
        return False
    report = Report(int(pid) if pid else DEFAULT_PID)
    fixture(report)
    report.write(path)
    return True


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(f"{n}: {(f.__doc__ or '').split(chr(10))[0]}" for n, f in FIXTURES.items()))
    elif len(sys.argv) != 3 or not build(sys.argv[2], sys.argv[1]):
        sys.exit(__doc__.split("\n\n")[-1])
