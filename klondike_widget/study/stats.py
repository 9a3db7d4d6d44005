"""Statistics of a winnability study: Wilson intervals, bounds for unknowns, time percentiles.

Unknown verdicts (budget spent) are never hidden: every rate is reported as bounds, the lower one
counting unknowns as failures and the upper one as successes, each with its 95% Wilson interval.

>>> s = summarize_counts(won=90, lost=8, unknown=2)
>>> round(s.win_rate.low, 3), round(s.win_rate.high, 3)
(0.9, 0.92)
>>> [round(x, 4) for x in s.win_rate.interval]
[0.8256, 0.9589]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from klondike_widget.study.record import DealResult

__all__ = [
    "PUBLISHED",
    "Z95",
    "PublishedFigures",
    "RateBounds",
    "StudySummary",
    "format_summary",
    "percentile",
    "rate_bounds",
    "summarize",
    "summarize_counts",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


@dataclass(frozen=True)
class PublishedFigures:
    """Figures of Blake & Gent (JAIR 85, 2026), one million deals per draw mode, in percent."""

    winnable: float
    winnable_pm: float
    needs_f2t: float
    needs_f2t_pm: float


PUBLISHED: dict[int, PublishedFigures] = {
    1: PublishedFigures(winnable=90.480, winnable_pm=0.116, needs_f2t=0.34, needs_f2t_pm=0.08),
    3: PublishedFigures(winnable=81.945, winnable_pm=0.084, needs_f2t=0.52, needs_f2t_pm=0.04),
}
"""Blake & Gent, "The Winnability of Klondike Solitaire and Many Other Patience Games" (JAIR 85,
2026): winnable deals and winnable deals that need foundation-to-column moves, by draw mode."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default).

    Parameters
    ----------
    successes : int
        Number of successes, ``0 <= successes <= trials``.
    trials : int
        Number of trials; with none the interval is the whole ``(0.0, 1.0)``.
    z : float
        Normal quantile of the confidence level.

    Returns
    -------
    tuple of float
        ``(low, high)``, within ``[0, 1]``.

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(90, 100)]
    [0.8256, 0.9448]
    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> wilson_interval(5, 3)
    Traceback (most recent call last):
    ...
    ValueError: need 0 <= successes <= trials, got 5 of 3
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    n = float(trials)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True)
class RateBounds:
    """A rate known only between bounds because some outcomes are unknown.

    ``low = sure / trials`` (unknowns count as failures), ``high = (sure + unknown) / trials``
    (unknowns count as successes); ``interval`` runs from the Wilson low end of ``low`` to the
    Wilson high end of ``high``, a 95% interval whatever the unknowns turn out to be.

    >>> b = rate_bounds(sure=3, unknown=1, trials=10)
    >>> b.low, b.high, b.exact
    (0.3, 0.4, False)
    """

    sure: int
    unknown: int
    trials: int
    low: float
    high: float
    interval: tuple[float, float]

    @property
    def exact(self) -> bool:
        """True when no outcome is unknown (``low == high``)."""
        return self.unknown == 0

    def text(self, digits: int = 2) -> str:
        """Percentages, e.g. ``'30.00% [10.78%, 60.32%]'`` or ``'30.00%..40.00% [...]'``.

        >>> rate_bounds(sure=3, unknown=0, trials=10).text()
        '30.00% [10.78%, 60.32%]'
        """
        lo, hi = self.interval
        point = f"{100 * self.low:.{digits}f}%"
        if not self.exact:
            point += f"..{100 * self.high:.{digits}f}%"
        return f"{point} [{100 * lo:.{digits}f}%, {100 * hi:.{digits}f}%]"


def rate_bounds(sure: int, unknown: int, trials: int) -> RateBounds:
    """Bounds and 95% interval of a rate with ``sure`` successes and ``unknown`` undecided trials.

    >>> b = rate_bounds(sure=0, unknown=0, trials=0)
    >>> b.low, b.high, b.interval
    (0.0, 1.0, (0.0, 1.0))
    """
    if min(sure, unknown) < 0 or sure + unknown > trials:
        raise ValueError(f"need sure + unknown <= trials, got {sure} + {unknown} of {trials}")
    if trials == 0:
        return RateBounds(sure, unknown, 0, 0.0, 1.0, (0.0, 1.0))
    interval = (wilson_interval(sure, trials)[0], wilson_interval(sure + unknown, trials)[1])
    return RateBounds(sure, unknown, trials, sure / trials, (sure + unknown) / trials, interval)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation (numpy's default method).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    >>> percentile([5.0], 90)
    5.0
    """
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0..100, not {q}")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass(frozen=True)
class StudySummary:
    """Counts, rates and time percentiles of a study.

    ``needs_f2t`` is the share of won deals that are lost (or unknown, in the upper bound) when
    foundation-to-column moves are forbidden; it is ``None`` when that check was not run.
    ``needs_f2t_of_all`` is the same count as a share of all deals.
    """

    deals: int
    won: int
    lost: int
    unknown: int
    win_rate: RateBounds
    needs_f2t: RateBounds | None
    needs_f2t_of_all: RateBounds | None
    seconds_percentiles: dict[int, float] = field(default_factory=dict)
    total_seconds: float = 0.0


_PERCENTILES = (50, 90, 99, 100)


def summarize_counts(
    won: int,
    lost: int,
    unknown: int,
    need_f2t: int | None = None,
    need_f2t_unknown: int = 0,
    seconds: Sequence[float] = (),
) -> StudySummary:
    """A :class:`StudySummary` from counts (``need_f2t=None``: the check was not run).

    >>> s = summarize_counts(won=2, lost=1, unknown=0, need_f2t=1, seconds=[1.0, 2.0, 4.0])
    >>> s.needs_f2t.low, s.seconds_percentiles[50]
    (0.5, 2.0)
    """
    deals = won + lost + unknown
    needs: RateBounds | None = None
    needs_all: RateBounds | None = None
    if need_f2t is not None:
        needs = rate_bounds(need_f2t, need_f2t_unknown, won)
        needs_all = rate_bounds(need_f2t, need_f2t_unknown, deals)
    pct = {q: percentile(seconds, q) for q in _PERCENTILES} if seconds else {}
    return StudySummary(
        deals=deals,
        won=won,
        lost=lost,
        unknown=unknown,
        win_rate=rate_bounds(won, unknown, deals),
        needs_f2t=needs,
        needs_f2t_of_all=needs_all,
        seconds_percentiles=pct,
        total_seconds=float(sum(seconds)),
    )


def summarize(results: Iterable[DealResult], check_without_f2t: bool | None = None) -> StudySummary:
    """Summarize per-deal results.

    ``check_without_f2t`` says whether won deals were re-solved with foundation-to-column moves
    forbidden (``None``: inferred from the rows).

    >>> from klondike_widget.study.record import DealResult
    >>> rows = [DealResult(1, 1, "won", 0.5, 10, 90, "lost", 0.2, 5),
    ...         DealResult(2, 1, "lost", 1.5, 20, 0, None, None, None)]
    >>> s = summarize(rows)
    >>> s.won, s.lost, s.unknown, s.needs_f2t.sure
    (1, 1, 0, 1)
    """
    rows = list(results)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    need = need_unknown = checked = 0
    for row in rows:
        counts[row.verdict] += 1
        if row.verdict == "won" and row.verdict_no_f2t is not None:
            checked += 1
            need += row.verdict_no_f2t == "lost"
            need_unknown += row.verdict_no_f2t == "unknown"
    if check_without_f2t is None:
        check_without_f2t = checked > 0
    if check_without_f2t and checked != counts["won"]:
        raise ValueError(
            f"{counts['won'] - checked} of {counts['won']} won deals lack the check without "
            "foundation-to-column moves"
        )
    return summarize_counts(
        won=counts["won"],
        lost=counts["lost"],
        unknown=counts["unknown"],
        need_f2t=need if check_without_f2t else None,
        need_f2t_unknown=need_unknown if check_without_f2t else 0,
        seconds=[r.seconds for r in rows],
    )


def format_summary(summary: StudySummary, draw: int | None = None) -> str:
    """A plain-text report, side by side with the published figures for ``draw``.

    >>> print(format_summary(summarize_counts(won=9, lost=1, unknown=0, seconds=[1.0]), draw=1))
    deals 10: won 9, lost 1, unknown 0
    winnable            90.00% [59.58%, 98.21%]   published 90.480 ± 0.116%
    solve seconds       p50 1  p90 1  p99 1  max 1  total 1.0
    """
    s = summary
    pub = PUBLISHED.get(draw) if draw is not None else None
    lines = [f"deals {s.deals}: won {s.won}, lost {s.lost}, unknown {s.unknown}"]
    line = f"{'winnable':<20}{s.win_rate.text():<36} "
    if pub is not None:
        line += f"published {pub.winnable:.3f} ± {pub.winnable_pm:.3f}%"
    lines.append(line.rstrip())
    if s.unknown:
        lines.append(
            f"{'':<20}(unknowns as lost .. as won; the interval covers both bounds)".rstrip()
        )
    if s.needs_f2t is not None and s.needs_f2t_of_all is not None:
        line = f"{'needs f->t (of won)':<20}{s.needs_f2t.text():<36} "
        if pub is not None:
            line += f"published {pub.needs_f2t:.2f} ± {pub.needs_f2t_pm:.2f}%"
        lines.append(line.rstrip())
        lines.append(f"{'needs f->t (of all)':<20}{s.needs_f2t_of_all.text()}")
    if s.seconds_percentiles:
        p = s.seconds_percentiles
        lines.append(
            f"{'solve seconds':<20}p50 {p[50]:.3g}  p90 {p[90]:.3g}  p99 {p[99]:.3g}  "
            f"max {p[100]:.3g}  total {s.total_seconds:.1f}"
        )
    return "\n".join(lines)
