"""settings_line.py - the settings line of CAPTURE_WINDOW_VERBOSE=1.

A verbose run's first line of its own lists every CAPTURE_WINDOW_*
variable and where its value came from (runtime/options.c, "What a run
says it ran with" in docs/environment.md):

    capture_window: settings from the environment: CAPTURE_WINDOW_VERBOSE=1; by default: ...

tests/env/env_settings.c asserts that line exactly. Every other test of a
verbose run leaves it out by calling split() here, and asserts every other
line as before; it still requires the line once in a verbose run, and
never in a quiet one (docs/testing.md, "The settings line").
"""

PREFIX = "capture_window: settings "


def is_settings(line):
    return line.startswith(PREFIX)


def split(lines):
    """(the settings lines, the other lines) of LINES (a list of lines)."""
    return [l for l in lines if is_settings(l)], [l for l in lines if not is_settings(l)]


def without(lines, verbose):
    """LINES without the settings line, or a string saying why not: a
    verbose run (VERBOSE true) prints it once, a quiet one never."""
    shown, rest = split(lines)
    if len(shown) != (1 if verbose else 0):
        return "%d settings lines in a %s run, expected %d:\n  %s" % (
            len(shown), "verbose" if verbose else "quiet", 1 if verbose else 0,
            "\n  ".join(shown) or "(none)")
    return rest
