"""The second move order (``core.ORDER_REVEALS``) and the second draw-3 search that uses it.

An order only sorts the moves of a position: the set of moves must be the same in both orders,
or the second search could prove a LOST the first would not.
"""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import midgame_positions, reference_deals, reference_state

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, core, drive, solve
from klondike_widget.solver.bridge import encode_state
from klondike_widget.solver.drive import SECOND_ORDER_AFTER, TURN_NODES


def moves_in_order(S: np.ndarray, order: int) -> list[int]:
    S = S.copy()
    S[core.O_ORDER] = order
    out = np.zeros(core.MAXM, dtype=np.int32)
    n = core.gen_moves(S, out, np.zeros(core.SCR_SIZE, dtype=np.int32), True)
    return [int(m) & core.MOVE_MASK for m in out[:n]]


def test_both_orders_generate_the_same_moves() -> None:
    checked = 0
    for draw in (1, 3):
        for state in midgame_positions(150, seed=7 + draw, draw=draw):
            S = encode_state(state)
            first = moves_in_order(S, core.ORDER_DEFAULT)
            second = moves_in_order(S, core.ORDER_REVEALS)
            assert sorted(first) == sorted(second), state
            checked += first != second  # the order itself differs somewhere
    assert checked > 0


def test_the_second_order_search_joins_late_and_its_verdict_stands() -> None:
    record = next(r for r in reference_deals() if r["seed"] == 8 and r["draw"] == 3)
    result = solve(reference_state(record), Limit(nodes=2_000_000, seconds=600))
    assert result.status is Status.WON  # the line was replayed through the engine by solve
    assert result.extra["second_order_nodes"] > 0
    assert result.nodes > SECOND_ORDER_AFTER
    quick = next(r for r in reference_deals() if r["seed"] == 2 and r["draw"] == 3)
    assert solve(reference_state(quick), Limit(seconds=60)).extra["second_order_nodes"] == 0


def test_the_second_order_waits_while_the_relaxation_searches() -> None:
    """Numbered draw-3 deal 294 is lost, proved by the relaxation after some 135,000 positions
    of its own: the first order passed :data:`SECOND_ORDER_AFTER` meanwhile, but the second
    order (which can only win) never joined, and the two shared the positions evenly."""
    state = deal(294, Rules(draw=3, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=2_000_000, seconds=600))
    assert result.status is Status.LOST and result.extra["proof"] == "draw-1 relaxation"
    relaxation = result.extra["relaxation_nodes"]
    assert result.extra["second_order_nodes"] == 0
    assert result.nodes - relaxation > SECOND_ORDER_AFTER
    assert abs(result.nodes - 2 * relaxation) <= 50_000  # turns of TURN_NODES, taken evenly


def test_the_relaxation_leads_once_the_deal_looks_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbered draw-3 deal 2311 is lost and its relaxation finds no draw-1 win: past
    ``RELAXATION_LEAD_AFTER`` positions it takes two turns for each of the draw-3 search's."""
    monkeypatch.setattr(drive, "RELAXATION_LEAD_AFTER", 200_000)
    state = deal(2311, Rules(draw=3, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=1_400_000, seconds=600))
    assert result.status is Status.UNKNOWN and result.extra["second_order_nodes"] == 0
    relaxation = result.extra["relaxation_nodes"]
    # 200,000 each, then two thirds of the other 1,000,000 (evenly: 700,000)
    assert abs(relaxation - 866_667) <= TURN_NODES, relaxation


def test_the_second_order_slows_once_the_deal_looks_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbered draw-3 deal 1260 is lost (its relaxation wins at once): the second order joins
    at ``SECOND_ORDER_AFTER`` and, past ``SECOND_ORDER_SLOW`` positions of its own, takes one
    turn for every ``SECOND_ORDER_LATE_SHARE`` of the first's."""
    monkeypatch.setattr(drive, "SECOND_ORDER_SLOW", 200_000)
    state = deal(1260, Rules(draw=3, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=2_000_000, seconds=600))
    second = result.extra["second_order_nodes"]
    first = result.nodes - second - result.extra["relaxation_nodes"]
    late = drive.SECOND_ORDER_LATE_SHARE
    assert 200_000 <= second <= 200_000 + (first - 500_000) // late + 2 * TURN_NODES, second
    # (with one turn in three to the end, the second order would have some 630,000)
