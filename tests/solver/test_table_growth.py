"""When the transposition table grows (``drive.grow_at``, ``core.C_GROWAT``).

A small-table analogue of :data:`drive.LATE_GROWTH_ROWS`: with it lowered to the start size,
the table of 2**14 rows grows at 12,288 entries (three quarters), not 8,192; with the default
it grows at one half. The counts and the verdict are those of the default threshold (the
table is exact), and a table at its ``tt_max`` stops at three quarters (``R_GROW``: the
caller's memory stop). Catches a core that grows at one half again (``TT.shape[0] // 2``
instead of ``ctl[C_GROWAT]``) and a ``grow_at`` that ignores ``LATE_GROWTH_ROWS``.
"""

from __future__ import annotations

import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core, drive

#: Numbered draw-3 deal won in 25,024 positions (first order alone): the table grows twice.
DEAL = 18


def _run(tt_max: int = drive.TT_MAX) -> tuple[drive.Search, list[tuple[int, int]]]:
    """Search :data:`DEAL` to the end; the (rows, entries) at each growth of the table."""
    s = drive.Search(deal(DEAL, Rules(draw=3, foundation_to_tableau=True)), tt_max=tt_max)
    growths = []
    r = s.result
    while r == core.R_BUDGET:
        rows = s.TT.shape[0]
        r = s.step(500)
        if s.TT.shape[0] != rows:
            growths.append((rows, s.table.count))
    return s, growths


def test_grow_at() -> None:
    late = drive.LATE_GROWTH_ROWS
    assert drive.grow_at(late // 2) == late // 4
    assert drive.grow_at(late) == late - late // 4
    assert drive.grow_at(2 * late) == 2 * late - late // 2


def test_late_growth_in_a_small_table(monkeypatch: pytest.MonkeyPatch) -> None:
    half, half_growths = _run()
    assert half_growths[0] == (drive.TT_START, drive.TT_START // 2)
    monkeypatch.setattr(drive, "LATE_GROWTH_ROWS", drive.TT_START)
    late, growths = _run()
    assert growths == [(rows, rows * 3 // 4) for rows, _ in growths]
    assert growths[0] == (drive.TT_START, 12_288)
    assert (late.result, late.nodes) == (half.result, half.nodes) == (core.R_WON, 25_024)
    assert late.table.count == half.table.count


def test_full_table_stops_at_three_quarters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drive, "LATE_GROWTH_ROWS", drive.TT_START)
    s, growths = _run(tt_max=drive.TT_START)
    assert growths == []
    assert s.result == core.R_GROW  # the memory stop: UNKNOWN for the caller
    assert (s.TT.shape[0], s.table.count) == (drive.TT_START, 12_288)
