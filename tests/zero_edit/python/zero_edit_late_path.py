"""`python -m capture_window --loop latepkg/steps.py:7:2:2` where
latepkg/steps.py is reachable only through the folder this script puts
on sys.path as it runs (a repository that is not installed): the note
before the run says where the file was looked for, the script runs, and
the loop is marked when the module is imported."""
# cw-plugin-args: loop=latepkg/steps.py:7:2:2
# cw-windows: step=2:2
# cw-run:
# cw-stderr-re: capture_window: note: --loop latepkg/steps\.py:7:2:2: no file latepkg/steps\.py under /\S+/tests/zero_edit/python(, /\S+)? or sys\.path before the run; its loop is marked if a module whose path ends in latepkg/steps\.py is imported
# cw-expect: step#0..1(.) S step[ step#2..3(.) ] E step#4(.)
# cw-run: CAPTURE_WINDOW=4:1
# cw-stderr-re: capture_window: note: --loop latepkg/steps\.py:7:2:2: .*
# cw-expect: step#0..3(.) S step[ step#4(.) ] E
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "late"))
from latepkg.steps import run  # noqa: E402

print(run(5))
