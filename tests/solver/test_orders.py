"""The second move order (``core.ORDER_REVEALS``) and the second search that uses it.

An order only sorts the moves of a position: the set of moves must be the same in both orders,
or the second search could prove a LOST the first would not.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import numpy as np
import pytest
from solver_helpers import (
    midgame_positions,
    random_endgame,
    reference_deals,
    reference_state,
)

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, SolveResult, Status, core, drive, solve, turns
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


def test_the_second_order_ranks_lonelybots_kinds_of_move_then_its_cards() -> None:
    """Lonelybot tries reveals, then cards up from the columns, then talon cards onto columns,
    then up from the talon, then down from the foundations; of one kind, the lowest bit of its
    card masks first (rank * 4 + hearts, diamonds, clubs, spades). The second order's
    priorities keep every kind in its band, whatever the card."""
    index = [int(core.LONELY_INDEX[card]) for card in range(52)]
    assert sorted(index) == list(range(52))
    assert index[26] == 0 and index[13] == 1 and index[0] == 2 and index[39] == 3  # the aces
    assert index[12] == 50 and index[51] == 51  # K♣ before K♠
    seen: dict[int, set[int]] = {}
    for draw in (1, 3):
        for state in midgame_positions(200, seed=17 + draw, draw=draw):
            S = encode_state(state)
            if not S[core.O_DOM] & core.DOM_TWINS:
                continue  # (without twin classes the priorities are the first order's)
            S[core.O_ORDER] = core.ORDER_REVEALS
            out = np.zeros(core.MAXM, dtype=np.int32)
            n = core.gen_moves(S, out, np.zeros(core.SCR_SIZE, dtype=np.int32), True)
            for m in (int(m) for m in out[:n]):
                kind, prio, card = int(core.move_kind(m)), int(core.move_prio(m)), core.move_card(m)
                if kind == core.K_COL_COL:
                    assert prio == 127 - index[card]
                if kind == core.K_TAL_COL:
                    assert prio == 74 - index[card]
                seen.setdefault(kind, set()).add(prio)
    bands = [seen[k] for k in (core.K_COL_COL, core.K_COL_FND, core.K_TAL_COL, core.K_TAL_FND)]
    assert all(min(high) > max(low) for high, low in itertools.pairwise(bands)), seen
    assert max(seen[core.K_COL_COL]) <= 127  # (seven bits)


def test_in_draw_3_the_orders_break_ties_apart() -> None:
    """Fresh draw-3 deal 1007087304433024738 (lonelybot wins it in 116 states): three moves
    in, two nines of the talon can go onto columns, 9♠ the fewer taps away. Both orders once
    tried it first and searched some 18 M positions or more; the second order, which tries 9♥
    first (lonelybot's order of suits), wins in a few dozen."""
    state = deal(1007087304433024738, Rules(draw=3, foundation_to_tableau=True))
    second = drive.Search(state, order=core.ORDER_REVEALS)
    second.step(1_000)
    assert second.result == core.R_WON and second.nodes < 100, second.nodes
    assert len(second.line()) > 0  # (replayed through the engine to the win)
    first = drive.Search(state)
    first.step(200_000)
    assert first.result == core.R_BUDGET  # (it does not win in 20 M)


def test_kings_first_only_moves_the_king_fills_to_the_front() -> None:
    """``core.kings_first`` keeps every move; the King fills come first, and both they and the
    other moves keep their order."""
    moved = 0
    for state in midgame_positions(300, seed=61, draw=1):
        S = encode_state(state)
        S[core.O_ORDER] = core.ORDER_REVEALS
        out = np.zeros(core.MAXM, dtype=np.int32)
        n = core.gen_moves(S, out, np.zeros(core.SCR_SIZE, dtype=np.int32), True)
        before = [int(m) for m in out[:n]]
        core.kings_first(S, out, n)
        fills = [m for m in before if core.fills_empty(S, m)]
        assert [int(m) for m in out[:n]] == fills + [m for m in before if m not in fills]
        moved += bool(fills) and fills != before[: len(fills)]
    assert moved > 0


def test_in_draw_1_the_second_order_fills_an_emptied_column_with_a_king_first() -> None:
    """Fresh draw-1 deal 10270670954477359840 (lonelybot wins it in 90 states): the second
    order alone, which tries a King into a column it just emptied first (as lonelybot does),
    wins it in some 112,000 positions; in its plain order it took 304,028."""
    state = deal(10270670954477359840, Rules(draw=1, foundation_to_tableau=True))
    search = drive.Search(state, order=core.ORDER_REVEALS)
    while search.result == core.R_BUDGET and search.nodes < 400_000:
        search.step(50_000)
    assert search.result == core.R_WON and search.nodes < 150_000, search.nodes
    assert len(search.line()) > 0  # (replayed through the engine to the win)


def test_at_its_root_the_second_order_enters_the_first_orders_first_move() -> None:
    """Fresh draw-1 deal 7488924141928748454: the second order alone wins it in 217,166
    positions, the first order not in 3,000,000. With the first order's first move closed to
    it (both orders start with that move), the two took 3,667,217 positions in all; entering
    it (``core.enters_shared``), the second order wins within some 400,000."""
    state = deal(7488924141928748454, Rules(draw=1, foundation_to_tableau=True))
    searches = [drive.Search(state)]
    second = lambda: drive.Search(state, order=core.ORDER_REVEALS)  # noqa: E731
    reason, _, decider = turns.take_turns(
        searches, None, 1_000_000, lambda: False, None, None, (second,)
    )
    assert reason == "" and decider is searches[1] and decider.result == core.R_WON
    assert searches[0].nodes + searches[1].nodes < 500_000
    assert searches[1].shared >= 1 and searches[0].shared == 0
    assert len(decider.line()) > 0  # (replayed through the engine to the win)


def test_the_second_order_search_joins_late_and_its_verdict_stands() -> None:
    record = next(r for r in reference_deals() if r["seed"] == 8 and r["draw"] == 3)
    result = solve(reference_state(record), Limit(nodes=2_000_000, seconds=600))
    assert result.status is Status.WON  # the line was replayed through the engine by solve
    assert result.extra["second_order_nodes"] > 0
    assert result.nodes > SECOND_ORDER_AFTER
    quick = next(r for r in reference_deals() if r["seed"] == 2 and r["draw"] == 3)
    assert solve(reference_state(quick), Limit(seconds=60)).extra["second_order_nodes"] == 0


def test_in_draw_1_the_second_order_joins_early_and_cuts_a_heavy_tail() -> None:
    """Numbered draw-1 deal 2367 is won, but the first order alone searches 1.45 M positions
    before it finds the win; the second order joins after the first turn, takes the third and
    wins within a few hundred positions of its own. A deal decided before it joins pays nothing
    for it."""
    turn = drive.TURN_NODES
    after, _ = drive.second_order_schedule(1)
    assert after == turn  # (it joins at the end of the first turn, the first order goes on)
    state = deal(2367, Rules(draw=1, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=3_000_000, seconds=600), shorten=False)
    assert result.status is Status.WON  # the line was replayed through the engine by solve
    assert result.extra["decided_by"] == "second order"
    assert result.extra["relaxation_nodes"] == 0  # (no relaxation in draw 1)
    assert 0 < result.extra["second_order_nodes"] < 1_000
    assert 2 * turn <= result.nodes < 2 * turn + 1_000
    quick = solve(deal(5, Rules(draw=1)), Limit(seconds=60), shorten=False)
    assert quick.status is Status.WON and quick.extra["second_order_nodes"] == 0
    assert quick.extra["decided_by"] == "search"


def test_the_second_order_waits_while_the_relaxation_searches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Numbered draw-3 deal 652 is lost, proved by the relaxation after some 130,000 positions
    of its own: the first order passed :data:`SECOND_ORDER_AFTER` meanwhile, but the second
    order (which can only win) never joined, and (with the relaxation's lead put off) the two
    shared the positions evenly."""
    monkeypatch.setattr(drive, "RELAXATION_LEADS", ())
    state = deal(652, Rules(draw=3, foundation_to_tableau=True))  # (294 is now dead at once)
    result = solve(state, Limit(nodes=2_000_000, seconds=600))
    assert result.status is Status.LOST and result.extra["proof"] == "draw-1 relaxation"
    relaxation = result.extra["relaxation_nodes"]
    assert result.extra["second_order_nodes"] == 0
    assert result.nodes - relaxation > SECOND_ORDER_AFTER
    assert abs(result.nodes - 2 * relaxation) <= 50_000  # turns of TURN_NODES, taken evenly


def test_the_relaxation_leads_once_the_deal_looks_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbered draw-3 deal 2311 is lost and its relaxation finds no draw-1 win: past each
    stage of ``RELAXATION_LEADS`` it takes more turns for each of the draw-3 search's."""
    monkeypatch.setattr(drive, "RELAXATION_LEADS", ((200_000, 4), (600_000, 64)))
    state = deal(2311, Rules(draw=3, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=1_500_000, seconds=600))
    assert result.status is Status.UNKNOWN and result.extra["second_order_nodes"] == 0
    relaxation = result.extra["relaxation_nodes"]
    # 200,000 each, then four turns for one up to 600,000 (the search at 300,000), then
    # 64 for one of the last 600,000 (the relaxation 590,769 of them)
    assert abs(relaxation - 1_190_769) <= 2 * TURN_NODES, relaxation


def endgames_and_midgames(draw: int, endgames: int, seed: int) -> list[GameState]:
    """``endgames`` random endgames of draw ``draw`` (from seed ``seed``), then 60 mid-game
    positions (from seed ``seed + 4``)."""
    rng = random.Random(seed)
    states = [
        random_endgame(rng, rng.randint(14, 32), draw, rng.random() < 0.5) for _ in range(endgames)
    ]
    return states + midgame_positions(60, seed=seed + 4, draw=draw)


def same_verdicts(
    states: list[GameState],
) -> Iterator[tuple[GameState, drive.Search, SolveResult]]:
    """Each state one search alone decides within 100,000 positions, that search and the
    :func:`solve` of the state (all its searches, 200,000 positions at most), whose verdict
    is checked to be the same."""
    for state in states:
        alone = drive.Search(state)
        while alone.result not in (core.R_WON, core.R_EXHAUSTED) and alone.nodes < 100_000:
            alone.step(100_000)
        if alone.result not in (core.R_WON, core.R_EXHAUSTED) or alone.overflowed:
            continue
        result = solve(state, Limit(nodes=200_000, seconds=None), shorten=False)
        assert result.status is (Status.WON if alone.result == core.R_WON else Status.LOST), state
        yield state, alone, result


def test_the_draw_3_orders_share_one_table_and_keep_every_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The draw-3 orders insert into one table (``Search.share_table``): each skips what
    the other entered, so neither exhaustion alone is a proof, only both. With turns of 200
    positions and the second order joining at 200, the verdicts are those of one search alone
    on draw-3 endgames and mid-game positions, won and lost ones among those the second order
    joined (a version that takes one exhausted order for a proof calls some won ones lost),
    and a lost one costs the two together about the positions of one alone, but for the
    positions both entered (with a table each, the second order's positions came on top)."""
    monkeypatch.setattr(drive, "TURN_NODES", 200)
    monkeypatch.setattr(drive, "SECOND_ORDER_AFTER", 200)
    states = endgames_and_midgames(3, 400, seed=53)
    joined = {core.R_WON: 0, core.R_EXHAUSTED: 0}
    shared = 0
    for state, alone, result in same_verdicts(states):
        second = result.extra["second_order_nodes"]
        if second > 0 and result.extra["decided_by"] != "draw-1 relaxation":
            joined[alone.result] += 1
            if alone.result == core.R_EXHAUSTED:  # (each later order's root counts once more)
                entered = result.nodes - result.extra["relaxation_nodes"]
                # (and the positions one entered after the other: core.enters_shared)
                roots = len(drive.LATER_ORDERS)
                assert entered - result.extra["shared_nodes"] <= alone.nodes + roots, state
                shared += second > 500
    assert joined[core.R_WON] >= 20 and joined[core.R_EXHAUSTED] >= 6 and shared >= 3, joined


def test_in_draw_1_the_two_orders_keep_every_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw 1, where the second order fills an emptied column with a King first
    (``core.kings_first``): with turns of 200 positions and the second order joining at 200,
    the verdicts on draw-1 endgames and mid-game positions are those of one search alone, among
    them won and lost ones the second order joined."""
    monkeypatch.setattr(drive, "TURN_NODES", 200)
    monkeypatch.setattr(drive, "DRAW1_SECOND_ORDER_AFTER", 200)
    states = endgames_and_midgames(1, 300, seed=67)
    joined = {core.R_WON: 0, core.R_EXHAUSTED: 0}
    for _, alone, result in same_verdicts(states):
        joined[alone.result] += result.extra["second_order_nodes"] > 0
    assert joined[core.R_WON] >= 12 and joined[core.R_EXHAUSTED] >= 12, joined


@pytest.mark.parametrize(
    ("number", "draw", "budget", "verdict", "nodes"),
    [(3598, 1, 115_000, Status.WON, 120_658), (293, 3, 100_000, Status.LOST, 108_974)],
)
def test_a_deal_stopped_while_a_later_order_still_searches_is_undecided(
    number: int, draw: int, budget: int, verdict: Status, nodes: int
) -> None:
    """Deals of the game stopped by their budget after the first order is exhausted and before
    a later order on its table is: until December 2026 both were reported LOST there, and
    draw-1 deal 3598 is won (at 115,000-120,000 positions; its first order is exhausted from
    113,453 on, having skipped what the later orders entered)."""
    state = deal(number, Rules(draw=draw))
    assert solve(state, Limit(nodes=budget, seconds=None)).status is Status.UNKNOWN
    full = solve(state, Limit(nodes=200_000, seconds=None))
    assert (full.status, full.nodes) == (verdict, nodes)
