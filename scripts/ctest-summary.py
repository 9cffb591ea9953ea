#!/usr/bin/env python3
"""ctest-summary.py JUNIT - what scripts/test.sh prints after ctest: each
test that did not run with its reason (the last line it printed, where a
skipping test says why), then one closing line `N passed, N failed,
N skipped` from the same JUnit file (ctest --output-junit)."""
import sys
import xml.etree.ElementTree as ElementTree


def reason(case):
    out = (case.findtext("system-out") or "").strip().splitlines()
    said = [line.strip() for line in out if line.strip()]
    if said:
        return said[-1]
    skipped = case.find("skipped")
    return skipped.get("message", "no reason given") if skipped is not None else "no reason given"


def main(path):
    cases = ElementTree.parse(path).getroot().iter("testcase")
    passed, failed, skipped = [], [], []
    for case in cases:
        status = case.get("status")
        if status == "run" and case.find("failure") is None:
            passed.append(case)
        elif status in ("notrun", "disabled") or case.find("skipped") is not None:
            skipped.append(case)
        else:
            failed.append(case)
    if skipped:
        print(f"Skipped ({len(skipped)}), with the reason each gave:")
        width = max(len(c.get("name")) for c in skipped)
        for case in sorted(skipped, key=lambda c: c.get("name")):
            print(f"  {case.get('name'):<{width}}  {reason(case)}")
    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")


if __name__ == "__main__":
    main(sys.argv[1])
