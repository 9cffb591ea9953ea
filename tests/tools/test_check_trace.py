#!/usr/bin/env python3
"""Unit tests of check_trace.py: each invariant must reject a record that
breaks it, and the notation must mean what its documentation says."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_trace as ct  # noqa: E402

W = {"step": [(2, 1)]}


def rec(*lines, tid=1):
    return "".join("T%d %s\n" % (tid, l) if not l.startswith("T") else l + "\n"
                   for l in lines)


def it(i, label="step", mark=True):
    out = ["push ascii %s#%d" % (label, i)]
    if mark:
        out.append("mark ascii %s@%d" % (label, i))
    return out + ["pop"]


GOOD = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2), "pop",
           "profiler stop", *it(3))
GOOD_EXPECT = "step#0..1(.) S step[ step#2(.) ] E step#3(.)"


class Notation(unittest.TestCase):
    def keys(self, text):
        return [str(e) for e in ct.parse_notation(text)]

    def test_repetition_and_derived_marks(self):
        self.assertEqual(self.keys("step#0..1(.)"), [
            "push ascii step#0", "mark ascii step@0", "pop",
            "push ascii step#1", "mark ascii step@1", "pop"])

    def test_marks_registered_domains_optional(self):
        self.assertEqual(self.keys("{d}x( .^r .~w .a@0..1 ) S? E"), [
            "push@d ascii x", "mark registered r", "mark unicode w",
            "mark ascii a@0", "mark ascii a@1", "pop@d", "profiler start (optional)",
            "profiler stop"])

    def test_bad_notation(self):
        for bad in ("x( ]", "x[", ")", "foo", "(.)", ". x"):
            with self.assertRaises(ct.NotationError, msg=bad):
                ct.parse_notation(bad)


class Checks(unittest.TestCase):
    def problems(self, text, expect=GOOD_EXPECT, mode="both", windows=W, threads=None):
        return ct.check(text, threads or [expect], mode, windows)

    def assertFails(self, text, needle, **kw):
        p = self.problems(text, **kw)
        self.assertTrue(any(needle in x for x in p), "%r not in %s" % (needle, p))

    def test_good(self):
        self.assertEqual(self.problems(GOOD), [])

    def test_sequence_differs(self):
        self.assertFails(GOOD, "event sequence differs",
                         expect="step#0..1(.) S step[ step#2(.) ] E step#3(.) step#4(.)")

    def test_unbalanced(self):
        self.assertFails(rec("push ascii x"), "open range", expect="")
        self.assertFails(rec("pop"), "no open range", expect="x()")

    def test_wrong_index(self):
        t = rec(*it(0), *it(2))
        self.assertFails(t, "expected index 1", expect="step#0(.) step#2(.)",
                         windows={"step": [(9, 1)]})

    def test_mark_outside_its_iteration(self):
        t = rec("push ascii step#0", "mark ascii step@1", "pop", "mark ascii step@0")
        self.assertFails(t, "not directly inside 'step#1'",
                         windows={"step": [(9, 1)]}, expect="")

    def test_iteration_outside_window(self):
        t = rec(*it(0), *it(1), *it(2), *it(3))
        self.assertFails(t, "not directly under the window range",
                         expect="step#0..3(.)")

    def test_iteration_in_window_after_it(self):
        t = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2), *it(3),
                "pop", "profiler stop")
        self.assertFails(t, "is directly under the window range", expect="")

    def test_window_closed_early(self):
        # window 1:3, loop left after iteration 1, re-entered for 2 and 3
        t = rec(*it(0), "profiler start", "push registered step", *it(1), "pop",
                "profiler stop", *it(2), *it(3))
        self.assertEqual(self.problems(t, windows={"step": [(1, 3)]},
                                       expect="step#0(.) S step[ step#1(.) ] E step#2..3(.)"),
                         [])
        t = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2), "pop",
                "profiler stop", *it(3))
        self.assertFails(t, "not directly under", windows={"step": [(1, 3)]}, expect="")

    def test_open_at_exit(self):
        # exit() in iteration 2 of window 2:1: ranges open, the stop comes last
        t = rec(*it(0), *it(1), "profiler start", "push registered step",
                "push ascii step#2", "mark ascii step@2", "profiler stop")
        expect = "step#0..1(.) S step[ step#2(. E"
        self.assertEqual(ct.check(t, [expect], "both", W, open_at_exit=True), [])
        p = ct.check(t, [expect.replace("(. E", "(.) ] E")], "both", W, open_at_exit=True)
        self.assertTrue(any("sequence differs" in x for x in p), p)
        # without the flag: unbalanced, and the notation must close its ranges
        self.assertRaises(ct.NotationError, ct.check, t, [expect], "both", W)
        self.assertFails(t, "open range", expect="step#0..1(.) S step[ step#2(.) ] E")
        # the stop while a window is open is accepted only as the last event
        late = rec(*it(0), *it(1), "profiler start", "push registered step",
                   "push ascii step#2", "profiler stop", "mark ascii step@2")
        p = ct.check(late, None, "both", W, open_at_exit=True)
        self.assertTrue(any("still open" in x for x in p), p)
        # and the profiler must still be stopped
        p = ct.check(t.replace("T1 profiler stop\n", ""), None, "both", W, open_at_exit=True)
        self.assertTrue(any("still on at the end" in x for x in p), p)

    def test_reentered_iteration(self):
        # window 1:2 opens in iteration 1; iteration 2 runs inside it (the
        # body re-entered the loop), then 3; the window closes after 1 ends
        t = rec(*it(0), "profiler start", "push registered step", "push ascii step#1",
                "mark ascii step@1", *it(2), *it(3), "pop", "pop", "profiler stop", *it(4))
        self.assertEqual(self.problems(t, windows={"step": [(1, 2)]},
                                       expect="step#0(.) S step[ step#1( . step#2(.) step#3(.) ) ] E "
                                              "step#4(.)"), [])
        # a top-level iteration in the window must still be under its range
        t = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2), "pop",
                "profiler stop")
        self.assertFails(t, "not directly under", windows={"step": [(1, 2)]}, expect="")

    def test_profiler_start_missing(self):
        t = rec(*it(0), *it(1), "push registered step", *it(2), "pop", "profiler stop")
        self.assertFails(t, "opens while the profiler is off", expect="")

    def test_profiler_start_after_push(self):
        t = rec(*it(0), *it(1), "push registered step", "profiler start", *it(2), "pop",
                "profiler stop")
        self.assertFails(t, "while 1 window(s) are open", expect="")

    def test_profiler_stop_before_pop(self):
        t = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2),
                "profiler stop", "pop")
        self.assertFails(t, "still open", expect="")

    def test_profiler_left_on(self):
        t = rec(*it(0), *it(1), "profiler start", "push registered step", *it(2), "pop")
        self.assertFails(t, "still on at the end", expect="")

    def test_two_threads_one_pair(self):
        a = ["T1 " + x for x in ["profiler start", "push registered step", "push ascii step#2"]]
        b = ["T2 " + x for x in ["push registered step", "push ascii step#2"]]
        # overlapping windows: one start, one stop after the last pop
        good = a + b + ["T1 pop", "T1 pop", "T2 pop", "T2 pop", "T2 profiler stop"]
        windows = {"step": [(2, 1)]}
        text = "\n".join(good) + "\n"
        p = ct.check_invariants(ct.parse_record(text)[0], "both", windows)
        self.assertTrue(any("expected index 0" in x for x in p))  # counts from 0
        seq = ["T1 push ascii step#0", "T1 pop", "T1 push ascii step#1", "T1 pop",
               "T2 push ascii step#0", "T2 pop", "T2 push ascii step#1", "T2 pop"]
        text = "\n".join(seq + good) + "\n"
        self.assertEqual(ct.check_invariants(ct.parse_record(text)[0], "both", windows), [])
        bad = a + b + ["T1 pop", "T1 pop", "T1 profiler stop", "T2 pop", "T2 pop",
                       "T2 profiler stop"]
        text = "\n".join(seq + bad) + "\n"
        p = ct.check_invariants(ct.parse_record(text)[0], "both", windows)
        self.assertTrue(any("still open" in x for x in p), p)
        self.assertTrue(any("while it is off" in x for x in p), p)

    def test_thread_multiset(self):
        t = rec(*it(0), tid=1) + rec(*it(0), *it(1), tid=2)
        w = {"step": [(5, 1)]}
        self.assertEqual(ct.check(t, ["step#0..1(.)", "step#0(.)"], "both", w), [])
        p = ct.check(t, ["step#0(.)", "step#0(.)"], "both", w)
        self.assertTrue(p)

    def test_optional_profiler(self):
        self.assertEqual(self.problems(GOOD, expect="step#0..1(.) S? step[ step#2(.) ] "
                                       "E? step#3(.) S?"), [])

    def test_off_mode(self):
        self.assertFails(rec(*it(0)), "capture off", mode="off", expect="step#0(.)")
        self.assertEqual(self.problems(rec("mark ascii step@0"), mode="off",
                                       expect=".step@0"), [])

    def test_cuda_mode(self):
        t = rec(*it(0), *it(1), "profiler start", *it(2), "profiler stop", *it(3))
        self.assertEqual(self.problems(t, mode="cuda",
                                       expect="step#0..1(.) S step#2(.) E step#3(.)"), [])
        self.assertFails(GOOD, "registered range 'step' with trigger cuda", mode="cuda")

    def test_nvtx_mode(self):
        self.assertFails(GOOD, "profiler start with trigger nvtx", mode="nvtx")

    def test_unregistered_handle(self):
        self.assertFails(rec("push registered ?0x1234", "pop"), "never registered",
                         expect="")


if __name__ == "__main__":
    unittest.main()
