"""Figures of a study: solve-time distribution and the win rate as deals accumulate.

Needs matplotlib (an optional dependency, imported only here). Figures are built without pyplot,
so no GUI backend is involved; a notebook shows the returned figure, a script saves it to a file.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from klondike_widget.study.stats import PUBLISHED, wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from klondike_widget.study.results import StudyResults

__all__ = ["plot_results", "running_win_rate"]


def running_win_rate(
    verdicts: list[str],
) -> tuple[list[int], list[float], list[float], list[float], list[float]]:
    """For each prefix of ``verdicts``: its size, the win-rate bounds and the 95% interval ends.

    >>> n, low, high, lo95, hi95 = running_win_rate(["won", "unknown", "lost", "won"])
    >>> n, low, high
    ([1, 2, 3, 4], [1.0, 0.5, 0.3333333333333333, 0.5], [1.0, 1.0, 0.6666666666666666, 0.75])
    """
    n: list[int] = []
    low: list[float] = []
    high: list[float] = []
    lo95: list[float] = []
    hi95: list[float] = []
    won = unknown = 0
    for i, verdict in enumerate(verdicts, start=1):
        won += verdict == "won"
        unknown += verdict == "unknown"
        n.append(i)
        low.append(won / i)
        high.append((won + unknown) / i)
        lo95.append(wilson_interval(won, i)[0])
        hi95.append(wilson_interval(won + unknown, i)[1])
    return n, low, high, lo95, hi95


def plot_results(results: StudyResults, path: str | os.PathLike[str] | None = None) -> Figure:
    """Two panels: a histogram of solve times (log scale) by verdict, and the running win rate
    (deals in deal-number order) with its bounds, 95% band and the published figure.

    Parameters
    ----------
    results : StudyResults
        A study read back with :func:`klondike_widget.study.results.read_results`.
    path : path-like, optional
        Where to save the figure (format from the suffix: .png, .svg, .pdf).

    Returns
    -------
    matplotlib.figure.Figure
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("plotting a study needs matplotlib: pip install matplotlib") from None
    rows = sorted(results.results, key=lambda r: r.deal)
    draw = results.settings.draw
    fig = Figure(figsize=(11, 4.2), layout="constrained")
    ax_t, ax_w = fig.subplots(1, 2)

    floor = 1e-4
    times = [max(r.seconds, floor) for r in rows]
    if times:
        import numpy as np

        bins = np.geomspace(min(times), max(max(times), min(times) * 10), 40)
        for verdict, colour in (("won", "tab:green"), ("lost", "tab:red"), ("unknown", "grey")):
            data = [max(r.seconds, floor) for r in rows if r.verdict == verdict]
            if data:
                ax_t.hist(
                    data, bins=bins, alpha=0.6, color=colour, label=f"{verdict} ({len(data)})"
                )
        ax_t.set_xscale("log")
        ax_t.legend()
    ax_t.axvline(results.settings.seconds, color="k", linestyle=":", linewidth=1)
    ax_t.set_xlabel("solve time per deal (s, log scale; dotted: budget)")
    ax_t.set_ylabel("deals")
    ax_t.set_title(f"Solve times, draw {draw}")

    n, low, high, lo95, hi95 = running_win_rate([r.verdict for r in rows])
    if n:
        pct = [[100 * v for v in seq] for seq in (low, high, lo95, hi95)]
        ax_w.fill_between(n, pct[2], pct[3], color="tab:blue", alpha=0.2, label="95% interval")
        ax_w.plot(n, pct[0], color="tab:blue", label="win rate (unknown = lost)")
        if any(r.verdict == "unknown" for r in rows):
            ax_w.plot(n, pct[1], color="tab:blue", linestyle="--", label="unknown = won")
    pub = PUBLISHED.get(draw)
    if pub is not None:
        ax_w.axhline(pub.winnable, color="tab:orange", label=f"Blake & Gent {pub.winnable:.3f}%")
    ax_w.set_xlabel("deals (in deal order)")
    ax_w.set_ylabel("winnable (%)")
    ax_w.set_title(f"Win rate as deals accumulate, draw {draw}")
    ax_w.legend(loc="lower right")
    if path is not None:
        fig.savefig(os.fspath(path), dpi=110)
    return fig
