"""Proven losses shared between the two draw-3 move orders (``drive.share_losses``).

A search stores a finished position as lost only when it cannot lead back to the search's path
(the move into it took a talon card or turned a card; the argument is in
``core.search.run_chunk``). These tests check that the other order really skips what one has
proved (it needs fewer positions), that it still wins every won position it is given (what a
wrong entry would break: it would skip a winnable position and could end exhausted), against
brute force over the engine on small positions, and that nothing is stored where the argument
does not hold (draw 1).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from fuzz_cases import position_key
from solver_helpers import brute_force, random_endgame

from klondike_widget.engine.deals import deal
from klondike_widget.engine.moves import apply_unchecked, generate_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import core, drive
from klondike_widget.solver.bridge import encode_state
from klondike_widget.solver.drive import (
    Search,
    UnsharableSearchError,
    share_losses,
    take_turns,
)

THREE = Rules(draw=3, foundation_to_tableau=True)

#: Numbered draw-3 deals, lost, that the first order proves alone in some 31,000-34,000
#: positions (and the relaxation cannot prove: it wins at once).
LOST = (4400, 3625, 2229)
#: Numbered draw-3 deals that the first order wins in some 20,000-23,000 positions.
WON = (4313, 1409, 1793, 2569, 4742, 1014, 1675, 3245, 429, 1228, 2184, 2031)


def run(search: Search, nodes: int | None = None) -> int:
    """Step ``search`` until it decides (or has searched ``nodes`` positions); its result."""
    while search.result not in (core.R_WON, core.R_EXHAUSTED, core.R_GROW):
        if nodes is not None and search.nodes >= nodes:
            break
        search.step(10_000 if nodes is None else min(10_000, nodes - search.nodes))
    return search.result


def pair(state: GameState, first_order: int = core.ORDER_DEFAULT) -> tuple[Search, Search]:
    """Two searches of ``state`` in the two orders (``first_order`` first), sharing losses."""
    other = core.ORDER_REVEALS if first_order == core.ORDER_DEFAULT else core.ORDER_DEFAULT
    a, b = Search(state, order=first_order), Search(state, order=other)
    share_losses(a, b, rows=1 << 18)
    return a, b


@pytest.mark.parametrize("number", LOST)
def test_the_other_order_skips_what_one_proved_lost(number: int) -> None:
    state = deal(number, THREE)
    alone = Search(state, order=core.ORDER_REVEALS)
    assert run(alone) == core.R_EXHAUSTED and not alone.overflowed
    a, b = pair(state)
    assert run(a) == core.R_EXHAUSTED
    assert a.ctl[core.C_LOST] > 0
    assert run(b) == core.R_EXHAUSTED and not b.overflowed  # still a proof: the deal is lost
    assert b.nodes < alone.nodes // 4, (b.nodes, alone.nodes)


@pytest.mark.parametrize("first_order", [core.ORDER_DEFAULT, core.ORDER_REVEALS])
def test_what_one_order_proved_keeps_every_win_of_the_other(first_order: int) -> None:
    """One order searches 10,000 positions, half of what the first order needs to win (no win
    yet, many losses stored), then the other, skipping those, must still win: a stored
    position that can reach a win would make it skip wins. Then the first goes on, skipping
    the second's."""
    checked = 0
    for number in WON:
        state = deal(number, THREE)
        a, b = pair(state, first_order)
        if run(a, nodes=10_000) == core.R_WON:
            continue  # (the second order wins some of them at once)
        checked += 1
        assert a.ctl[core.C_LOST] > 0
        assert run(b) == core.R_WON, number
        b.line()  # replayed through the engine
        assert run(a) == core.R_WON, number
        a.line()
    assert checked >= 3


def small_draw3_positions(count: int, cards: tuple[int, int] = (14, 22)) -> list[GameState]:
    rng = random.Random(2027)
    out: list[GameState] = []
    while len(out) < count:
        out.append(random_endgame(rng, rng.randint(*cards), 3, rng.random() < 0.5))
    return out


def test_shared_losses_agree_with_brute_force() -> None:
    checked = {True: 0, False: 0}
    for state in small_draw3_positions(16):
        truth = brute_force(state, max_states=20_000)
        if truth is None:
            continue
        for first_order in (core.ORDER_DEFAULT, core.ORDER_REVEALS):
            a, b = pair(state, first_order)
            run(a)  # (a win: the losses it stored on the way; a loss: all it proved)
            result = run(b)
            assert result != core.R_GROW
            assert (result == core.R_WON) is truth, state
            if truth:
                b.line()
        checked[truth] += 1
    assert checked[True] >= 4 and checked[False] >= 1, checked


def key_of(state: GameState) -> tuple[int, int]:
    """The key a search of ``state`` stores it under (untagged)."""
    S = encode_state(state)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    a, b = core.table_key(S, H, 0)
    return int(a), int(b)


def winnable_by_key(state: GameState, max_states: int) -> dict[tuple[int, int], bool] | None:
    """Every position reachable from ``state`` over the engine's legal moves, by key: whether a
    won position is reachable from it (``None`` if there are more than ``max_states``)."""
    keys = {position_key(state): state}
    edges: dict[object, list[object]] = {}
    todo = [state]
    while todo:
        s = todo.pop()
        edges[position_key(s)] = []
        for move in generate_moves(s):
            t = apply_unchecked(s, move)
            k = position_key(t)
            edges[position_key(s)].append(k)
            if k not in keys:
                if len(keys) >= max_states:
                    return None
                keys[k] = t
                todo.append(t)
    won = {k for k, s in keys.items() if s.is_won}
    changed = True
    while changed:  # (backwards: a position is winnable if one of its moves leads to one)
        changed = False
        for k, succ in edges.items():
            if k not in won and any(t in won for t in succ):
                won.add(k)
                changed = True
    return {key_of(s): k in won for k, s in keys.items()}


def test_every_stored_loss_is_a_loss() -> None:
    """Each position a search stores as proved lost, looked up among all positions reachable
    over the engine's moves, is one from which no won position can be reached. (A version that
    stores every finished position, ``phi`` or not, passed this too on these positions and on
    129 more: positions that reach a win only through the path are rare in small endgames.)"""
    stored = 0
    for state in small_draw3_positions(30, cards=(18, 30)):
        truth = winnable_by_key(state, 15_000)
        if truth is None:
            continue
        for first_order in (core.ORDER_DEFAULT, core.ORDER_REVEALS):
            a, _ = pair(state, first_order)
            run(a)
            rows = a.arrays.lost_out
            for a_word, b_word in rows[rows[:, 1] != 0].tolist():
                if (a_word, b_word) in truth:
                    stored += 1
                    assert not truth[a_word, b_word], state
    assert stored >= 20, stored


def test_nothing_is_stored_in_draw_1() -> None:
    state = deal(4400, Rules(draw=1, foundation_to_tableau=True))
    a, b = Search(state), Search(state, order=core.ORDER_REVEALS)
    share_losses(a, b, rows=1 << 10)
    run(a, nodes=50_000)
    assert a.ctl[core.C_LOST] == 0 and not a.arrays.lost_out.any()


def test_only_searches_of_the_same_position_and_rules_share() -> None:
    state = deal(4400, THREE)
    with pytest.raises(UnsharableSearchError, match="not the same position"):
        share_losses(Search(state), Search(deal(4401, THREE)))
    with pytest.raises(UnsharableSearchError):
        share_losses(Search(state), Search(state, dominances=False))
    with pytest.raises(UnsharableSearchError):
        share_losses(Search(state), Search(state.replace(rules=Rules(3, False))))


def test_take_turns_shares_once_the_second_order_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drive, "SHARE_LOSSES", True)
    state = deal(1260, THREE)
    searches = [Search(state), Search(state.replace(rules=Rules(1, True)))]
    second = lambda: Search(state, order=core.ORDER_REVEALS)  # noqa: E731
    take_turns(searches, None, 400_000, lambda: False, None, None, second)
    main, _, other = searches
    assert main.arrays.lost_in is other.arrays.lost_out
    assert other.arrays.lost_in is main.arrays.lost_out
    assert main.ctl[core.C_LOST] > 0 and other.ctl[core.C_LOST] > 0
