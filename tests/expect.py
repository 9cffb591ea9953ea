"""expect.py - what the Python test drivers under tests/ share: one PASS or
FAIL line per check, the names of the failed ones, and the run's verdict.

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from expect import expect, verdict
    expect("plan.rows", rows, 3)
    sys.exit(verdict())
"""
failures = []


def expect(name, got, want):
    """PASS if GOT equals WANT; else FAIL, with both."""
    if got == want:
        print(f"PASS: {name}")
    else:
        failures.append(name)
        print(f"FAIL: {name}\n  got:      {got!r}\n  expected: {want!r}")


def verdict():
    """Says how the run went; the exit status: 1 if a check failed."""
    print(f"{len(failures)} failed" if failures else "all passed")
    return 1 if failures else 0
