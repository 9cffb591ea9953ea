#!/usr/bin/env python3
"""summary_test.py - what scripts/test.sh prints after ctest
(scripts/ctest-summary.py): a real CTest project of four tests, one that
passes, one that fails, one that skips saying why (exit 77, as the suites'
skips do) and one disabled, run with --output-junit; the summary lists the
two that did not run with their reasons and closes on the counts.

Usage: summary_test.py SOURCE
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import expect, verdict  # noqa: E402

PROJECT = """cmake_minimum_required(VERSION 3.16)
project(summary NONE)
enable_testing()
add_test(NAME suite.passes COMMAND sh -c "echo fine")
add_test(NAME suite.fails COMMAND sh -c "echo broken; exit 1")
add_test(NAME suite.skips COMMAND sh -c "echo 'no Slurm here: skipped'; exit 77")
set_tests_properties(suite.skips PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME suite.disabled COMMAND true)
set_tests_properties(suite.disabled PROPERTIES DISABLED TRUE)
"""

WANT = """Skipped (2), with the reason each gave:
  suite.disabled  Disabled
  suite.skips     no Slurm here: skipped
1 passed, 1 failed, 2 skipped
"""


def main():
    source = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="cw-summary-") as d:
        with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
            f.write(PROJECT)
        build, junit = os.path.join(d, "build"), os.path.join(d, "junit.xml")
        subprocess.run(["cmake", "-S", d, "-B", build], check=True, capture_output=True)
        subprocess.run(["ctest", "--test-dir", build, "--output-junit", junit],
                       capture_output=True)
        p = subprocess.run([sys.executable, os.path.join(source, "scripts", "ctest-summary.py"), junit],
                           capture_output=True, text=True)
    expect("test.sh's summary: the tests that did not run, why, and the counts",
           (p.returncode, p.stdout, p.stderr), (0, WANT, ""))
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
