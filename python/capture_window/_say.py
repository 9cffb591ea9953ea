"""_say.py - the Python door's stderr lines, each one write(2) as the
runtime's are (runtime/options.c, cw_log): ranks that share one stderr
(torchrun, mpirun --tag-output, srun) then never cut each other's lines.
print(TEXT, file=sys.stderr) writes TEXT and its newline apart."""
import sys


def say(text):
    """TEXT and its newline, in one write of the whole line."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()
