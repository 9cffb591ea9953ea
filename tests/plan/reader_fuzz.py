#!/usr/bin/env python3
"""Fuzzing plan's step-time reader (as tests/fuzz does for the
environment): mutated step-time files, each read by the bulk reader and by
the line-by-line one (the definition of the format), in small blocks so
that lines fall across block ends.

  reader_fuzz.py CLI_DIR [CASES]

Each file must give the same answer both ways: the same loops, step for
step, or the same `FILE:LINE: reason`; no other
exception. Files of format 2 (the runtime's records), mutated byte by
byte, must read or give `FILE: byte N: reason` (`FILE:1:` for a broken
first line), no other exception. The loops of a file that reads are then analysed and given
their suggestions (no exception either). A few of the files also go
through the command: exit 0, 1 or 2 and never a traceback.
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
sys.dont_write_bytecode = True
from capture_window_cli import plan, steptimes, suggest  # noqa: E402
from capture_window_cli.common import Usage  # noqa: E402

INTERESTING = b"0123456789 \n-.eT:#\t\rx\x00\xff" + b"loop "


def seed_file(r):
    """A valid file: two or three loops in threads, steps interleaved a
    run at a time, comments, a blank line."""
    lines = [b"# capture-window step times 1"]
    loops = r.randint(1, 3)
    next_index = [r.randint(0, 5) for _ in range(loops)]
    defined = 0
    while defined < loops or r.random() < 0.9:
        if defined < loops and (defined == 0 or r.random() < 0.3):
            defined += 1
            lines.append(b"loop %d T%d step%d src/t r.c:%d" % (defined, r.randint(1, 9999), defined,
                                                               r.randint(1, 500)))
            continue
        k = r.randrange(defined)
        for _ in range(r.randint(1, 40)):
            lines.append(b"%d %d %d" % (k + 1, next_index[k], r.choice([1000, 1010, 990, 8000])))
            next_index[k] += 1 if r.random() < 0.95 else r.randint(2, 4)
        if r.random() < 0.05:
            lines.append(r.choice([b"# a comment", b""]))
        if len(lines) > 400:
            break
    return b"\n".join(lines) + b"\n"


def seed_records(r):
    """A valid file of format 2: loop records, then steps records of them."""
    out = [b"# capture-window step times 2\n"]
    loops = r.randint(1, 3)
    for k in range(1, loops + 1):
        line = b"loop %d T%d step%d src/t r.c:%d\n" % (k, r.randint(1, 9999), k, r.randint(1, 500))
        out.append(struct.pack("<qq", k, -len(line)) + line)
    next_index = [0] * loops
    for _ in range(r.randint(1, 8)):
        k = r.randrange(loops)
        n = r.randint(1, 40)
        steps = []
        for _ in range(n):
            steps += [next_index[k], r.choice([1000, 1010, 990, 8000])]
            next_index[k] += 1
        out.append(struct.pack(f"<qq{2 * n}q", k + 1, n, *steps))
    return b"".join(out)


def mutate_records(data, r):
    data = bytearray(data)
    for _ in range(r.randint(1, 3)):
        if not data:
            break
        at = r.randrange(len(data))
        how = r.randrange(4)
        if how == 0:
            data[at] = r.randrange(256)
        elif how == 1:
            data[at] ^= 0x80  # a sign
        elif how == 2:
            del data[at:at + r.choice([1, 8, 16])]
        else:
            del data[at:]  # cut short
    return bytes(data)


def mutate(data, r):
    data = bytearray(data)
    for _ in range(r.randint(1, 4)):
        how = r.randrange(6)
        at = r.randrange(len(data) + 1)
        if how == 0 and data:
            data[min(at, len(data) - 1)] = r.choice(INTERESTING)
        elif how == 1:
            data[at:at] = bytes([r.choice(INTERESTING)]) * r.randint(1, 3)
        elif how == 2:
            del data[at:at + r.randint(1, 5)]
        elif how == 3:
            data[at:at] = b"9" * r.randint(15, 22)  # numbers of 18 digits and more
        elif how == 4:
            lines = bytes(data).split(b"\n")
            k = r.randrange(len(lines))
            lines.insert(r.randrange(len(lines) + 1), lines[k])  # a line again, elsewhere
            data = bytearray(b"\n".join(lines))
        else:
            del data[at:]  # cut short
    return bytes(data)


def write_case(path, case, r, seed, mutate):
    """Case `case`'s file at path: a seed file, mutated but every tenth."""
    data = seed(r)
    if case % 10:
        data = mutate(data, r)
    with open(path, "wb") as f:
        f.write(data)


def keep(path, name):
    """A failing case's file, kept beside path as NAME -> where."""
    kept = os.path.join(os.path.dirname(path), name)
    os.rename(path, kept)
    return kept


def outcome(path, by_lines):
    try:
        loops = steptimes.read_times([path], by_lines)
        return [(l["label"], l["file"], l["line"], l["thread"], list(l["index"]), list(l["ns"]))
                for l in loops]
    except Usage as e:
        return str(e)


def main():
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    r = random.Random(20261201)
    steptimes.BLOCK = 256
    folder = tempfile.mkdtemp(prefix="cw-reader-fuzz-")
    path = os.path.join(folder, "steps")
    failures, errors, read_ok = 0, 0, 0
    where = re.compile(re.escape(f"{path}:") + r"\d+: \S")
    for case in range(cases):
        write_case(path, case, r, seed_file, mutate)
        try:
            bulk, by_lines = outcome(path, False), outcome(path, True)
            if isinstance(bulk, str):
                errors += 1
                ok = bulk == by_lines and bool(where.match(bulk))
            else:
                read_ok += 1
                ok = bulk == by_lines
                for loop in steptimes.read_times([path]):
                    a = plan.analyse(loop["index"], loop["ns"])
                    shown = [suggest.shown(s, None, []) for s in suggest.suggestions(a)]
                    plan.text_report(loop, a, shown, "")
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            ok, bulk, by_lines = False, f"{type(e).__name__}: {e}", ""
        if not ok:
            failures += 1
            kept = keep(path, f"failure-{case}")
            print(f"FAIL: case {case} ({kept})\n  bulk:     {str(bulk)[:300]}\n"
                  f"  by lines: {str(by_lines)[:300]}")
        if case % 300 == 7 and ok:
            p = subprocess.run([sys.executable, os.path.join(sys.argv[1], "capture-window"), "plan",
                                "--from", path], capture_output=True, text=True)
            if p.returncode not in (0, 1, 2) or "Traceback" in p.stderr:
                failures += 1
                print(f"FAIL: case {case}: the command: exit {p.returncode}\n{p.stderr[-500:]}")
    print(f"{cases} files: {read_ok} read, {errors} refused with FILE:LINE, {failures} failure(s)")
    failures += records_cases(r, path, cases)
    return 1 if failures or not read_ok or not errors else 0


def records_cases(r, path, cases):
    """Format 2 mutated: it reads, or FILE: byte N: reason (FILE:LINE: once
    its first line says another format); never another exception."""
    failures, errors, read_ok = 0, 0, 0
    where = re.compile(re.escape(f"{path}") + r"(: byte \d+|:\d+): \S")
    for case in range(cases):
        write_case(path, case, r, seed_records, mutate_records)
        try:
            got = outcome(path, False)
            if isinstance(got, str):
                errors += 1
                ok = bool(where.match(got))
            else:
                read_ok += 1
                ok = True
                for loop in steptimes.read_times([path]):
                    plan.analyse(loop["index"], loop["ns"])
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            ok, got = False, f"{type(e).__name__}: {e}"
        if not ok:
            failures += 1
            kept = keep(path, f"records-failure-{case}")
            print(f"FAIL: format 2 case {case} ({kept}): {str(got)[:300]}")
    print(f"{cases} files of format 2: {read_ok} read, {errors} refused, {failures} failure(s)")
    return failures + (0 if read_ok and errors else 1)


if __name__ == "__main__":
    sys.exit(main())
