"""The finder-beams benchmark's arithmetic (``benchmarks/finder_beams.py``): what a schedule
would cost the deals measured without it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("finder_beams", ROOT / "benchmarks/finder_beams.py")
assert _SPEC is not None and _SPEC.loader is not None
finder_beams = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(finder_beams)

#: Two deals measured without beams: one won after 1 M positions in 2 s, which the beam of
#: width 256 wins (0.01 s) and that of width 1024 does not (0.04 s); one lost after 40,000
#: positions in 0.02 s, too short to have been beamed (the benchmark beams from 50,000).
RECORDS = [
    {
        "nodes": 1_000_000,
        "cpu": 2.0,
        "beams": {"256:1,2,1": [True, 0.01], "1024:1,1,0": [False, 0.04]},
    },
    {"nodes": 40_000, "cpu": 0.02, "beams": {}},
]


def test_a_deal_a_beam_wins_costs_its_search_until_then_and_the_beams_run() -> None:
    schedule = ((100_000, 1024, (1, 1, 0)), (400_000, 256, (1, 2, 1)))
    total, wins = finder_beams.cost(RECORDS, schedule)
    assert wins == 1
    assert total == pytest.approx(2.0 * 0.4 + 0.04 + 0.01 + 0.02)


def test_a_beam_that_finds_nothing_adds_its_time_and_none_due_after_the_decision() -> None:
    total, wins = finder_beams.cost(RECORDS, ((100_000, 1024, (1, 1, 0)),))
    assert (wins, total) == (0, pytest.approx(2.0 + 0.04 + 0.02))
    assert finder_beams.cost(RECORDS, ((2_000_000, 256, (1, 2, 1)),)) == (2.02, 0)
    assert finder_beams.cost(RECORDS, ()) == (2.02, 0)


def test_the_table_marks_todays_schedule_and_puts_the_cheapest_first() -> None:
    today = ((100_000, 1024, (1, 1, 0)),)
    rows = finder_beams.table(RECORDS, today).splitlines()[2:]
    assert any(row.endswith("| 2.06 | 0 |") and "(today)" in row for row in rows)
    seconds = [float(row.split("|")[2]) for row in rows[:12]]
    assert seconds == sorted(seconds) and seconds[0] < 2.02
