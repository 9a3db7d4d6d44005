"""Lines joined where they meet (LinePool): always legal, a win, never longer than its lines."""

from __future__ import annotations

import pytest
from solver_helpers import mixed_positions

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, Status, solve
from klondike_widget.solver.beam_run import checked_line, run_beam
from klondike_widget.solver.shorten import WEIGHTS
from klondike_widget.solver.splice import LinePool


def _turn_round(state: GameState) -> tuple[Move, ...]:
    """Taps through the whole stock and a recycle: back to the same position (``state`` has
    an empty waste)."""
    assert not state.waste and state.stock
    taps = -(-len(state.stock) // state.rules.draw)
    return (Move.draw(),) * taps + (Move.recycle(),)


@pytest.mark.parametrize("draw", [1, 3])
def test_a_splice_is_shorter_than_every_line_it_joins(draw: int) -> None:
    start = deal(2, Rules(draw=draw))
    line = solve(start, Limit(seconds=30)).moves
    states = Line(start, line).states()
    # the last position with an empty waste and cards in the stock, past the start
    cut = max(i for i, s in enumerate(states) if i > 0 and not s.waste and s.stock)
    middle = states[cut]
    # one line turns the stock round at the start, the other later
    early = _turn_round(start) + line
    late = line[:cut] + _turn_round(middle) + line[cut:]
    assert Line(start, early).is_winning and Line(start, late).is_winning
    pool = LinePool(start)
    pool.add(start, early)
    pool.add(start, late)
    best = pool.shortest()
    assert best is not None and Line(start, best).is_winning
    assert len(best) < min(len(early), len(late))
    assert len(best) <= len(line)


def test_a_pool_without_a_win_has_no_shortest_line() -> None:
    start = deal(3)
    pool = LinePool(start)
    assert pool.shortest() is None
    pool.add(start, [Move.draw(), Move.draw()])
    assert pool.shortest() is None
    # a line from a position no line reaches is never part of a splice
    line = solve(start, Limit(seconds=30)).moves
    elsewhere = Line(start, line).states()[5]
    pool.add(elsewhere, line[5:])
    assert pool.shortest() is None
    pool.add(start, line[:5])
    spliced = pool.shortest()
    assert spliced is not None and Line(start, spliced).is_winning


@pytest.mark.slow
@pytest.mark.parametrize("draw", [1, 3])
def test_pooled_beam_lines_splice_into_a_win_no_longer(draw: int) -> None:
    """The lines of several beams from the start and from a position along the first line,
    pooled: the splice wins through the engine and is no longer than any of them."""
    won = 0
    for state in mixed_positions(draw, 29, range(101, 121), middle=20, ends=20, steps=40):
        result = solve(state, Limit(seconds=2))
        if result.status is not Status.WON:
            continue
        won += 1
        pool = LinePool(state)
        pool.add(state, result.moves)
        lengths = [len(result.moves)]
        cut = len(result.moves) // 3
        middle = Line(state, result.moves).states()[cut]
        for k, weights in enumerate(WEIGHTS[:4]):
            origin, bound = (
                (state, len(result.moves)) if k % 2 else (middle, len(result.moves) - cut)
            )
            codes = run_beam(origin, bound, 24, float("inf"), None, weights=weights)
            line = None if codes is None else checked_line(origin, codes)
            if line is not None:
                pool.add(origin, line)
                lengths.append(len(line) + (cut if origin is middle else 0))
        best = pool.shortest()
        assert best is not None and Line(state, best).is_winning
        assert len(best) <= min(lengths)
    assert won >= 40
