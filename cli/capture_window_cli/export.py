"""export.py - nsys export of a report to SQLite, the file trace.Trace
reads: sqlite_of(REPORT) names it, export(REPORT) writes it afresh."""
import os
import subprocess

from .common import cannot_run, nsys_command


def sqlite_of(report):
    return report[: -len(".nsys-rep")] + ".sqlite" if report.endswith(".nsys-rep") else report + ".sqlite"


def export(report):
    """nsys export of REPORT to REPORT.sqlite, afresh (nsys stats refused an
    export it had made itself as older than the report); (path, None) or
    (None, the first line nsys printed)."""
    db = sqlite_of(report)
    try:
        p = subprocess.run([nsys_command(), "export", "--type", "sqlite", "-f", "true",
                            "-o", db, report], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    except OSError as e:
        return None, cannot_run(nsys_command(), e, "NSYS", "nsys")
    if p.returncode != 0 or not os.path.isfile(db):
        first = next((line for line in p.stdout.splitlines() if line.strip()), f"exit status {p.returncode}")
        return None, first
    return db, None
