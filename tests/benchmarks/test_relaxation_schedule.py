"""``benchmarks/relaxation_schedule.py``: its replay of the driver's turns is the solve's own
count where the relaxation proves the loss, and never beats the offline best."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import relaxation_schedule as schedule

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, drive, solve


def test_the_replay_of_a_deal_the_relaxation_proves_is_the_solves_count() -> None:
    # numbered draw-3 deal 4566: the relaxation proves it lost at 212,325 positions, past both
    # of the driver's stages; the draw-3 search alone would need 424,445
    costs = schedule.measure(4566, cap=2_000_000)
    assert costs.relaxation[0] and costs.kind == "both"
    result = solve(deal(4566, Rules(draw=3)), Limit(seconds=None, nodes=5_000_000))
    assert result.status is Status.LOST and result.extra["proof"] == "draw-1 relaxation"
    replayed = schedule.replay(costs, drive.RELAXATION_LEADS)
    assert replayed == result.nodes
    assert replayed > costs.best == costs.relaxation[1]
    # 1:1 throughout pays twice the relaxation's positions (and a turn), not more
    assert (
        schedule.replay(costs, ())
        == 2 * costs.relaxation[1] + 10_000 - costs.relaxation[1] % 10_000
    )


def test_a_search_that_ends_without_a_proof_leaves_the_turns_to_the_other() -> None:
    won_in_draw_1 = schedule.Costs(7, draw3=(True, 95_000), relaxation=(False, 25_000))
    assert won_in_draw_1.kind == "draw-3 search" and won_in_draw_1.best == 95_000
    assert schedule.replay(won_in_draw_1, ((20_000, 4),)) == 95_000 + 25_000
    capped = schedule.Costs(8, draw3=(False, 30_000), relaxation=(True, 100_000))
    assert schedule.replay(capped, ()) == 130_000
    with pytest.raises(ValueError, match="deal 9: not proved lost"):
        schedule.replay(schedule.Costs(9, (False, 10), (False, 20)), ())


def test_the_table_puts_each_schedule_against_the_offline_best() -> None:
    deals = [
        schedule.Costs(1, draw3=(True, 40_000), relaxation=(True, 400_000)),
        schedule.Costs(2, draw3=(True, 900_000), relaxation=(True, 300_000)),
    ]  # 1:1 pays 40k + 30k and 300k + 300k; the lead 40k + 60k and 80k + 300k
    rows = schedule.table(deals, {"1:1": (), "lead": ((20_000, 4), (200_000, 64))})
    assert rows[0] == "| schedule | both (2) | all | over the best |"
    assert rows[2] == "| offline best | 0.34 | 0.34 | +0.0% |"
    assert rows[3] == "| 1:1 | 0.67 | 0.67 | +97.1% |"
    assert rows[4] == "| lead | 0.48 | 0.48 | +41.2% |"
    assert schedule.parse_stages("5:2") == ((5, 2),)
    with pytest.raises(ValueError, match="want FROM:LEAD"):
        schedule.parse_stages("5")
