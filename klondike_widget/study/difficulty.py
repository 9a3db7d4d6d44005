"""Difficulty of winnable deals, from measured solver facts; and the study that rates deals.

The definition
--------------
The solver searches depth first and tries moves in the order a good player does: foundation
plays first, then moves that turn a face-down card, and so on. When a deal is easy, that order
leads straight to a win: the search walks down one path and never has to back out. When a deal
is hard, many of the natural moves lead into positions from which nothing works, and the search
examines (and abandons) many of them before it finds the winning path. So the measured fact that
defines a deal's difficulty is its **dead ends**: the positions the search examined that are not
on the winning path it found (``nodes - depth``, counted by a search with no time limit, so the
number is the same on every machine). A second fact makes a deal hard by itself: a win that
**needs a foundation card to come back down** (no win exists, or none was found in the study's
budget, with foundation-to-column moves forbidden): few players think of that move.

* **easy**: at most :data:`EASY_MAX_DEAD_ENDS` dead ends (the natural order wins almost at once);
* **hard**: at least :data:`HARD_MIN_DEAD_ENDS` dead ends, or the win needs a foundation card
  back down;
* **medium**: the rest.

The two thresholds are a factor of 100 apart on a quantity that spans five orders of magnitude,
so a deal is never near both; they are the same in both draw modes (draw 3 simply has fewer easy
deals). ``benchmarks/difficulty.py`` checks that the levels mean something to a player who cannot
see the face-down cards: a simple greedy player wins most often at *easy* and least at *hard*.

Only deals the study proved winnable are rated; a deal it could not decide is never offered as
winnable. The ratings ship as a table (:mod:`klondike_widget.engine.ratings`) written by
``python -m klondike_widget ratings``, so choosing a rated deal takes no search at all.

Examples
--------
>>> facts = measure_deal(2, draw=1)
>>> facts.deal, facts.dead_ends == facts.nodes - facts.depth
(2, True)
>>> rate(DealFacts(deal=5, draw=1, nodes=60, depth=55, line_length=200), needs_f2t=False)
<Level.EASY: 'easy'>
>>> rate(DealFacts(deal=5, draw=1, nodes=60, depth=55, line_length=200), needs_f2t=True)
<Level.HARD: 'hard'>
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core
from klondike_widget.solver.api import Search, _ensure_compiled

__all__ = [
    "EASY_MAX_DEAD_ENDS",
    "HARD_MIN_DEAD_ENDS",
    "MAX_NODES",
    "DealFacts",
    "Level",
    "Rating",
    "level_table",
    "measure_deal",
    "rate",
    "rate_study",
]

#: At most this many dead ends: easy.
EASY_MAX_DEAD_ENDS = 10
#: At least this many dead ends: hard.
HARD_MIN_DEAD_ENDS = 1000
#: The node budget of one measurement (a deal the study proved winnable needs far fewer).
MAX_NODES = 50_000_000


class Level(str, Enum):
    """The difficulty of a winnable deal."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


@dataclass(frozen=True)
class DealFacts:
    """What the solver measured on one deal (its first winning path, no time limit).

    Attributes
    ----------
    deal, draw : int
        The deal number and draw mode.
    nodes : int
        Positions the search examined until it found a win.
    depth : int
        Positions on the winning path it found (the search's depth, automatic moves not
        counted).
    line_length : int
        Engine moves of the winning line (stock taps and recycles included).
    """

    deal: int
    draw: int
    nodes: int
    depth: int
    line_length: int

    @property
    def dead_ends(self) -> int:
        """Positions examined off the winning path (``nodes - depth``)."""
        return max(0, self.nodes - self.depth)


@dataclass(frozen=True)
class Rating:
    """A rated deal: its facts, whether its win needs a foundation card back down, its level."""

    facts: DealFacts
    needs_f2t: bool
    level: Level


def measure_deal(number: int, draw: int, max_nodes: int = MAX_NODES) -> DealFacts | None:
    """Search deal ``number`` until a win is found; ``None`` if none is found in ``max_nodes``.

    The search has no time limit and no draw-1 relaxation beside it, so ``nodes`` is the same on
    every machine. The winning line is replayed through the engine (:meth:`Search.line`).

    >>> measure_deal(2, draw=3).draw
    3
    """
    _ensure_compiled()
    search = Search(deal(number, Rules(draw=draw)))
    while search.result not in (core.R_WON, core.R_EXHAUSTED) and search.nodes < max_nodes:
        if search.step(min(1_000_000, max_nodes - search.nodes)) == core.R_GROW:
            break  # the table is at its largest (Search.step grows it until then)
    if search.result != core.R_WON:
        return None
    return DealFacts(
        deal=number,
        draw=draw,
        nodes=search.nodes,
        depth=int(search.ctl[core.C_DEPTH]),
        line_length=len(search.line()),
    )


def rate(facts: DealFacts, needs_f2t: bool) -> Level:
    """The level of a winnable deal from its facts (see the module docstring)."""
    if needs_f2t or facts.dead_ends >= HARD_MIN_DEAD_ENDS:
        return Level.HARD
    if facts.dead_ends <= EASY_MAX_DEAD_ENDS:
        return Level.EASY
    return Level.MEDIUM


def rate_study(
    path: str | os.PathLike[str],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, dict[int, str], list[Rating]]:
    """Rate every deal of a study's result file.

    Returns ``(draw, codes, rated)``: ``codes`` maps each deal of the study to ``"easy"``,
    ``"medium"``, ``"hard"``, ``"lost"`` or ``"unknown"``; ``rated`` holds the :class:`Rating`
    of each won deal. A won deal needs a foundation card back down when the study's second solve
    (foundation-to-column moves forbidden) did not win.
    """
    from klondike_widget.study.results import read_results

    results = read_results(path)
    if results.settings.source != "numbers":
        raise ValueError(f"{path}: only studies of numbered deals can be rated")
    if not results.settings.check_without_f2t:
        raise ValueError(f"{path}: the study must check wins without foundation-to-column moves")
    draw = results.settings.draw
    codes: dict[int, str] = {}
    rated: list[Rating] = []
    rows = sorted(results.results, key=lambda r: r.deal)
    for i, row in enumerate(rows):
        if progress is not None:
            progress(i, len(rows))
        if row.verdict != "won":
            codes[row.deal] = row.verdict
            continue
        facts = measure_deal(row.deal, draw)
        if facts is None:  # won in the study's time but not within MAX_NODES: not rated
            codes[row.deal] = "unknown"
            continue
        needs = row.verdict_no_f2t != "won"
        level = rate(facts, needs_f2t=needs)
        codes[row.deal] = "hard-f2t" if needs else level.value
        rated.append(Rating(facts, needs, level))
    return draw, codes, rated


def level_table(rated: Iterable[Rating]) -> str:
    """A Markdown table of the defining numbers per level (count, dead ends, nodes, lengths)."""
    lines = [
        "| level  | deals | share | dead ends p10 | p50 | p90 | nodes p50 | depth p50 "
        "| line p50 | needs f->t |",
        "|--------|------:|------:|-----:|-----:|-----:|-----:|-----:|-----:|-----:|",
    ]
    items = list(rated)
    for level in Level:
        group = [r.facts for r in items if r.level is level]
        if not group:
            continue
        dead = sorted(f.dead_ends for f in group)
        nodes = sorted(f.nodes for f in group)
        depth = sorted(f.depth for f in group)
        length = sorted(f.line_length for f in group)
        back = sum(r.needs_f2t for r in items if r.level is level)
        lines.append(
            f"| {level.value:<6} | {len(group):>5} | {len(group) / len(items):>5.1%} "
            f"| {_q(dead, 0.1):>4} | {_q(dead, 0.5):>4} | {_q(dead, 0.9):>4} "
            f"| {_q(nodes, 0.5):>4} | {_q(depth, 0.5):>4} | {_q(length, 0.5):>4} | {back:>4} |"
        )
    return "\n".join(lines)


def _q(values: list[int], q: float) -> int:
    """The ``q`` quantile (nearest rank) of sorted ``values``."""
    return values[min(len(values) - 1, max(0, round(q * len(values) + 0.5) - 1))]


def write_ratings(
    studies: Iterable[str | os.PathLike[str]],
    out: str | os.PathLike[str],
    progress: bool = False,
) -> str:
    """Rate the deals of one study per draw mode and write the ratings table to ``out``.

    Every study must cover the same deal numbers, from its first without gaps. Returns a report:
    one table of the defining numbers per level and draw mode (:func:`level_table`).
    """
    from pathlib import Path

    from klondike_widget.engine.ratings import table_text

    codes: dict[int, dict[int, str]] = {}
    report = []
    for path in studies:

        def show(i: int, n: int, path: object = path) -> None:
            if progress and (i % 100 == 0 or i == n - 1):
                print(f"\r{path}: {i + 1}/{n}", end="", flush=True)

        draw, by_deal, rated = rate_study(path, progress=show)
        if progress:
            print()
        if draw in codes:
            raise ValueError(f"{path}: a second study of draw {draw}")
        codes[draw] = by_deal
        counts = {v: sum(c == v for c in by_deal.values()) for v in ("won", "lost", "unknown")}
        counts["won"] = len(rated)
        report.append(
            f"draw {draw}: {len(by_deal)} deals ({counts['won']} rated winnable, "
            f"{counts['lost']} lost, {sum(c == 'unknown' for c in by_deal.values())} undecided)"
        )
        report.append(level_table(rated))
    firsts = {min(c) for c in codes.values()}
    if len(firsts) != 1 or len({len(c) for c in codes.values()}) != 1:
        raise ValueError("the studies must cover the same deal numbers")
    rule = {
        "easy_max_dead_ends": EASY_MAX_DEAD_ENDS,
        "hard_min_dead_ends": HARD_MIN_DEAD_ENDS,
        "max_nodes": MAX_NODES,
    }
    Path(out).write_text(table_text(firsts.pop(), codes, rule), encoding="utf-8")
    return "\n\n".join(report)
