"""Lines reordered play by play (reorder): always a win, never longer, shorter where it can be."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from solver_helpers import klondike_solver_lines, mixed_positions, reference_deals, reference_state

from klondike_widget.engine.cards import parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, Status, solve
from klondike_widget.solver.reorder import EMPTY, FOUNDATION, Play, plays_of, realize, reordered


def _line(start: GameState, plays: list[Play]) -> tuple[Move, ...]:
    """The engine moves of ``plays`` from ``start`` (each must be playable)."""
    moves: list[Move] = []
    state: GameState | None = start
    for play in plays:
        assert state is not None
        state = realize(state, play, moves)
    assert state is not None
    return tuple(moves)


def _seed_17_draw_1() -> tuple[GameState, tuple[Move, ...]]:
    """Reference deal of seed 17 in draw 1 and Klondike-Solver's minimal line of it."""
    record = next(r for r in reference_deals() if (r["seed"], r["draw"]) == (17, 1))
    start = reference_state(record)
    return start, Line.parse(klondike_solver_lines()[(17, 1)], start).moves


def _won_lines(
    draw: int, seed: int, fresh: range, middle: int
) -> Iterator[tuple[GameState, tuple[Move, ...]]]:
    """``(position, the search's winning line)`` of the won ones of deals ``fresh``, ``middle``
    positions of random play and as many endgames (:func:`mixed_positions` of ``seed``)."""
    for start in mixed_positions(draw, seed, fresh, middle, middle // 2, 60):
        result = solve(start, Limit(seconds=10), shorten=False)
        if result.status is Status.WON:
            yield start, result.moves


def test_the_plays_of_a_line_played_again_win_in_no_more_moves() -> None:
    # in draw 1 a talon card is on top once a pass, at one split of the stock and the waste:
    # taking it at its first chance leaves the same talon as taking it later
    for start, moves in _won_lines(1, 23, range(1, 6), 10):
        line = _line(start, plays_of(start, moves))
        assert Line(start, line).is_winning
        assert len(line) <= len(moves)
        kinds = [m.kind for m in line if m.kind not in (MoveKind.DRAW, MoveKind.RECYCLE)]
        assert len(kinds) == len(plays_of(start, moves))


def test_plays_name_the_card_and_where_it_goes() -> None:
    start = deal(2)
    assert plays_of(start, [Move.parse("t3-t2")]) == [(start.columns[2][-1], start.columns[1][-1])]
    line = solve(start, Limit(seconds=10), shorten=False).moves
    states = Line(start, line).states()
    plays = plays_of(start, line)
    to_foundation = [m for m in line if m.kind.name.endswith("TO_FOUNDATION")]
    to_empty = [
        m
        for s, m in zip(states, line, strict=False)
        if m.kind.name.endswith("TO_COLUMN") and not s.columns[m.target]
    ]
    assert (
        sum(onto == FOUNDATION for _, onto in plays)
        == len(to_foundation)
        == 52 + sum(m.kind is MoveKind.FOUNDATION_TO_COLUMN for m in line)
    )
    assert sum(onto == EMPTY for _, onto in plays) == len(to_empty) > 0


def test_a_play_that_cannot_be_played_adds_no_move() -> None:
    start = deal(2)
    moves: list[Move] = [Move.draw()]
    # a stock card onto a card it does not fit: the taps to it are not kept either
    card = start.stock[0]
    assert realize(start, (card, FOUNDATION), moves) is None
    assert moves == [Move.draw()]
    assert realize(start, (start.columns[0][-1], parse_card("2c")), moves) is None
    assert moves == [Move.draw()]


def test_a_waste_card_played_a_pass_later_comes_back_to_its_first_pass() -> None:
    # Klondike-Solver's line plays 7h onto 8s in the first pass of the stock; the same plays
    # with 7h later, after the recycle, make a line one tap longer (as our beams' was)
    start, minimal = _seed_17_draw_1()
    plays = plays_of(start, minimal)
    seven = plays.index((parse_card("7h"), parse_card("8s")))
    recycle = [m.kind for m in minimal].index(MoveKind.RECYCLE)
    rest = [*plays[:seven], *plays[seven + 1 :]]
    longer = next(
        line
        for at in range(len(plays_of(start, minimal[:recycle])), len(rest))
        if len(line := _line(start, [*rest[:at], plays[seven], *rest[at:]])) == len(minimal) + 1
    )
    assert Line(start, longer).is_winning
    line = reordered(start, longer, work=20_000)
    assert Line(start, line).is_winning and len(line) == len(minimal)
    # without work, the line given
    assert reordered(start, longer, work=0) == longer


@pytest.mark.parametrize("draw", [1, 3])
def test_reordered_lines_win_and_are_never_longer(draw: int) -> None:
    for start, moves in _won_lines(draw, 29, range(6, 9), 8):
        line = reordered(start, moves, work=3_000)
        assert Line(start, line).is_winning
        assert len(line) <= len(moves)


def test_the_same_line_and_work_give_the_same_result() -> None:
    start = deal(4, Rules(draw=1))
    found = solve(start, Limit(seconds=10), shorten=False).moves
    assert reordered(start, found, work=5_000) == reordered(start, found, work=5_000)
