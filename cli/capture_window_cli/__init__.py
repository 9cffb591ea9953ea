"""capture-window - profile a program's capture windows with Nsight Systems,
check what the reports hold, and plan where to cut.

  capture-window profile [-o NAME] [--label L] [--expect START:COUNT]
                         [--nsys-args 'OPTIONS'] [NSYS-OPTION...] [--] PROGRAM [ARG...]
  capture-window check [--label L] [--expect START:COUNT] [--json] REPORT.nsys-rep...
  capture-window profile --tool ncu [-o NAME] [--label L] [--steps N | --window START:COUNT]
                         [--ncu-args 'OPTIONS'] [NCU-OPTION...] -- PROGRAM [ARG...]
  capture-window profile --auto [-o NAME] [--label L] [--steps N] [--count C]
                         [--from FILE] [NSYS-OPTION...] -- PROGRAM [ARG...]
  capture-window plan [--json] [--plot FILE] [--steps N] [--count C] -- PROGRAM [ARG...]
  capture-window plan [--json] [--plot FILE] [--count C] --from PATH...
  capture-window trigger PATH (--at STEP | --align N) [--count C] [--label L] [--wait SECONDS]
  capture-window diff [--json] [--fail-if-slower PCT] [--label L] BASE NEW
  capture-window --version

profile runs
  nsys profile -t cuda,nvtx -c cudaProfilerApi --capture-range-end=stop \\
               -f true -o NAME[.%q{RANK}] [NSYS-OPTIONS] PROGRAM ARG...
(--capture-range-end=repeat:N when CAPTURE_WINDOW holds N windows; an
option given in NSYS-OPTIONS replaces the default for it), then checks each
report. NAME defaults to PROGRAM's file name. When a rank variable is set
(RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID: the first
set, as the runtime reads them), each rank writes NAME.<rank>.nsys-rep.
If the words hold `--`, everything before it is options; otherwise the
program is the first word that does not start with `-`.

check exports each report with `nsys export --type sqlite` (REPORT.sqlite
beside it) and prints one verdict per report, e.g.
  train.nsys-rep: ok: 3 steps (step#30-32), 1,532 kernels, 4.2 MB
  train.nsys-rep: step#31 launched 1,512 kernels, steps 30 and 32 launched
    497: not steady state (eval? checkpoint?)
The kernels of a step are those its thread launched inside the step's range.
Reports of several processes (ranks) are compared: a line per rank, then
whether every rank captured the same steps. --json prints one JSON object
per report (and one for the ranks) instead. A REPORT.ncu-rep gets the
verdict of profile --tool ncu.

profile --tool ncu runs Nsight Compute on one step of each marked loop
(CAPTURE_WINDOW_COUNT=1; --steps N, --window START:COUNT for others):
  ncu --nvtx --profile-from-start off -f -o NAME [NCU-OPTIONS] PROGRAM ARG...
then checks that NAME.ncu-rep holds kernels, all from the window's steps.

profile --auto goes from nothing to checked reports in two runs of
PROGRAM: one as plan runs it (--steps N stops it, SIGTERM, once a loop has
N steps; --from FILE reads an earlier run's step times instead), then one
under nsys with every window plan suggests for the first marked loop in one
CAPTURE_WINDOW value (--capture-range-end=repeat:N), and a table of each
report's check: the window, what it was aimed at, the verdict, the report,
what its odd step holds.

plan runs PROGRAM once without a profiler, every step timed
(CAPTURE_WINDOW=none, CAPTURE_WINDOW_TIMES), or reads --from the files an
earlier run recorded (files, a folder, a quoted glob), and reports per loop and thread: the warm-up, the
steady step time, periodic slow steps (every 25 steps from 25: 6.0x
slower), outliers, and ready CAPTURE_WINDOW values with their nsys
commands. --steps N stops the program once a loop has N steps; --plot
draws them (matplotlib). Given several ranks' files, it names each (and
why one holds no step) and compares each loop across the ranks. The
manual: docs/where-to-cut.md.

trigger writes a request to PATH, the file every rank watches
(CAPTURE_WINDOW_WATCH=PATH): each rank opens a window at iteration STEP,
or at the next multiple of N after it saw the request, of C steps (default:
the loop's COUNT), in the loops labelled L (default: every active loop).
--wait waits up to SECONDS for every rank that answered in PATH.answers/
to be done with it, then prints a row per rank (rank, host, seen at, held)
and a line such as `4 of 4 ranks held steps 120-122`; exit status 0 when
every rank held its window, 1 when one did not. The manual:
docs/workflows.md, "A trigger every rank sees".

NSYS names the nsys to run (default: nsys on PATH), NCU the ncu. Exit status: 0 all
reports ok, 1 a report failed its check (or nsys failed), 2 bad usage.
The manual: docs/cli.md.
"""
