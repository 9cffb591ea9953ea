"""plot.py - plan's --plot: step time against step, one panel per loop and
thread, log scale, the warm-up and each suggested window shaded, each
period's steps ringed in its own colour. matplotlib
is optional: without it, plot says how to install it and plan's report
stands alone."""
import math
import os
import sys

from .common import ME
from .runtime import occurrences

# What the plot lacks without libcapture_window (runtime.py: said once).
NO_WINDOWS = "{} is drawn without the suggested windows"


def python_in_use():
    """Which Python runs, and where it finds packages: (its path, whether
    it is a venv that does not see the system's site-packages)."""
    venv = sys.prefix != sys.base_prefix
    config = os.path.join(sys.prefix, "pyvenv.cfg")
    shared = False
    if venv and os.path.isfile(config):
        with open(config) as f:
            shared = any(l.replace(" ", "").lower() == "include-system-site-packages=true\n"
                         for l in f)
    return sys.executable, venv and not shared


def how_to_install():
    """What installs matplotlib for the Python that runs: apt's package
    reaches only the system's python3 and the venvs that see its packages."""
    python, closed_venv = python_in_use()
    if closed_venv:
        return (f"{python} is a venv without the system's site-packages, where apt's "
                "python3-matplotlib never shows: pip install matplotlib in it, or run with a venv "
                "made with --system-site-packages, or with /usr/bin/python3 (apt install "
                "python3-matplotlib)")
    return (f"{python} has none: apt install python3-matplotlib (Debian, Ubuntu; for "
            "/usr/bin/python3) or pip install matplotlib")


def log_ticks(low, high):
    """The labelled ticks of a log axis from LOW to HIGH (> 0): 1-2-5 of
    each decade when at least two of them fall inside, else every digit's
    (1-9), else None (a range under a step of 1-9: matplotlib's own
    few linear ticks)."""
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
    for digits in ((1, 2, 5), range(1, 10)):
        inside = [d * 10.0 ** e for e in decades for d in digits if low <= d * 10.0 ** e <= high]
        if len(inside) >= 2:
            return inside
    return None


def label_log_axis(axis, low, high, ticker):
    """Labels only at log_ticks (%g: 1, 2, 5, 10, 0.5), none on the minor ticks."""
    ticks = log_ticks(low, high)
    axis.set_major_locator(ticker.FixedLocator(ticks) if ticks else ticker.MaxNLocator(4))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:.3g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def plot(path, results):
    """Draws results ([(loop, analysis, suggestions)]) into path (.png or .svg); False
    when matplotlib is missing (said on stderr)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print(f"{ME}: plan: --plot needs matplotlib: {how_to_install()}; no plot written",
              file=sys.stderr)
        return False
    figure, axes = plt.subplots(len(results), 1, figsize=(12, 3.2 * len(results)), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, (loop, a, suggested) in zip(axes[:, 0], results):
        ms = [ns / 1e6 for ns in loop["ns"]]
        ax.plot(loop["index"], ms, ".-", lw=0.6, ms=3, color="black")
        first = loop["index"][0]
        time_of = {i: ms[p] for p, i in enumerate(loop["index"])} if (
            loop["index"][-1] - first != len(ms) - 1) else None
        ax.set_yscale("log")  # a warm-up of 10x and steps of 1.1x both show
        if a.warmup_end > 0:
            ax.axvspan(-0.5, a.warmup_end - 0.5, color="grey", alpha=0.25, label="warm-up")
        for k, s in enumerate(suggested):
            for n, (start, count) in enumerate(occurrences(s.value(), NO_WINDOWS.format(path))):
                ax.axvspan(start - 0.5, start + count - 0.5, color=colours[k % len(colours)],
                           alpha=0.35, label=f"CAPTURE_WINDOW={s.value()}" if n == 0 else None)
        # Each period's own steps in its suggestion's colour: a step that
        # holds two events shows both rings.
        steady = 1 if a.steady_start is not None else 0
        for k, e in enumerate(a.periodic):
            at = e.occurrences
            ys = [time_of[i] if time_of else ms[i - first] for i in at]
            ax.scatter(at, ys, s=30 + 40 * k, facecolors="none", linewidths=1.2,
                       edgecolors=colours[(k + steady) % len(colours)], label=f"every {e.every}")
        ax.set_title(f"loop '{loop['label']}' ({loop['place']}) thread {loop['thread']}",
                     fontsize=10)
        ax.set_xlabel("step")
        ax.set_ylabel("step time (ms)")
        label_log_axis(ax.yaxis, *ax.get_ylim(), matplotlib.ticker)   # the view's, margins too
        # Beside the axes, where it hides no step.
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    figure.tight_layout()
    figure.savefig(path)
    print(f"{ME}: plan: plot written to {path}", file=sys.stderr)
    return True
