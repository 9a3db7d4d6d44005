"""Property tests over random legal play in both draw modes (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from klondike_widget import Game, IllegalMoveError, Move, MoveKind, Rules
from klondike_widget.engine.cards import STACKS_ON
from klondike_widget.engine.deals import deal
from klondike_widget.engine.moves import ALL_MOVES, apply_move, apply_moves, why_illegal
from klondike_widget.engine.packed import decode, encode
from klondike_widget.engine.state import GameState

games = st.builds(
    lambda number, draw, f2t, choices: (
        number,
        Rules(draw=draw, foundation_to_tableau=f2t),
        choices,
    ),
    st.integers(0, 2**64 - 1),
    st.sampled_from([1, 3]),
    st.booleans(),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=120),
)


def random_play(number: int, rules: Rules, choices: list[int]) -> Game:
    g = Game.new(deal=number, rules=rules)
    for choice in choices:
        moves = list(g.legal_moves)
        if not moves:
            break
        g.play(moves[choice % len(moves)])
    return g


@settings(max_examples=120, deadline=None)
@given(games)
def test_cards_are_conserved_and_invariants_hold(args: tuple[int, Rules, list[int]]) -> None:
    g = random_play(*args)
    for s in g.states:
        s.validate()
        cards = [c for col in s.columns for c in col] + list(s.stock) + list(s.waste)
        assert len(cards) + sum(s.foundations) == 52
        for col, down in zip(s.columns, s.face_down, strict=False):
            up = col[down:]
            assert all(up[i] in STACKS_ON[up[i + 1]] for i in range(len(up) - 1))


@settings(max_examples=80, deadline=None)
@given(games)
def test_generated_moves_are_exactly_the_legal_ones(args: tuple[int, Rules, list[int]]) -> None:
    g = random_play(*args)
    for s in g.states[-5:]:
        generated = list(s.legal_moves)
        assert len(generated) == len(set(generated))
        assert set(generated) == {m for m in ALL_MOVES if why_illegal(s, m) is None}
        if s.rules.foundation_to_tableau is False:
            assert all(m.kind is not MoveKind.FOUNDATION_TO_COLUMN for m in generated)


@settings(max_examples=80, deadline=None)
@given(games)
def test_undo_redo_round_trip_exactly(args: tuple[int, Rules, list[int]]) -> None:
    g = random_play(*args)
    states = list(g.states)
    n = len(g.history)
    for _ in range(n):
        g.undo()
    assert g.state == states[0]
    for i in range(n):
        g.redo()
        assert g.state == states[i + 1]
    assert g.moves_count == 3 * n


@settings(max_examples=80, deadline=None)
@given(games, st.integers(0, 50))
def test_json_and_encoding_round_trip_exactly(
    args: tuple[int, Rules, list[int]], undos: int
) -> None:
    g = random_play(*args)
    for _ in range(min(undos, len(g.history))):
        g.undo()
    assert Game.from_json(g.to_json()) == g
    for s in g.states[::7]:
        a = encode(s)
        assert a.dtype == np.int8
        assert a.shape == (80,)
        assert decode(a) == s
        assert GameState.from_dict(s.to_dict()) == s
        assert eval(repr(s), {"GameState": GameState}) == s


@settings(max_examples=50, deadline=None)
@given(games)
def test_move_text_round_trips(args: tuple[int, Rules, list[int]]) -> None:
    g = random_play(*args)
    for move in g.history:
        assert Move.parse(str(move)) == move
        assert eval(repr(move), {"Move": Move}) == move


def _one_by_one(state: GameState, moves: list[Move]) -> GameState | str:
    """Where ``apply_move`` move by move ends, or the reason of the first illegal move."""
    try:
        for move in moves:
            state = apply_move(state, move)
    except IllegalMoveError as error:
        return str(error)
    return state


def _at_once(state: GameState, moves: list[Move]) -> GameState | str:
    try:
        return apply_moves(state, moves)
    except IllegalMoveError as error:
        return str(error)


TURNS = [Move.draw(), Move.recycle()]


@settings(max_examples=120, deadline=None)
@given(
    games,
    st.lists(st.sampled_from(TURNS) | st.sampled_from(ALL_MOVES), max_size=30),
    st.integers(0, 200),
)
def test_apply_moves_is_apply_move_in_turn(
    args: tuple[int, Rules, list[int]], inserted: list[Move], at: int
) -> None:
    """A line played at once (``apply_moves``, which turns runs of taps and recycles without a
    position each) ends where ``apply_move`` move by move ends, or fails at the same move for
    the same reason: on random lines with random moves (half of them taps and recycles, legal
    or not) put in."""
    g = random_play(*args)
    line = list(g.history)
    line[at:at] = inserted
    start = g.states[0]
    assert _at_once(start, line) == _one_by_one(start, line)
    assert _at_once(start, list(g.history)) == g.state


def test_apply_moves_runs_of_turns() -> None:
    """Every tap and recycle of two rounds of the stock in each draw mode, and the reasons
    for an illegal one inside a run."""
    for draw in (1, 3):
        start = deal(7, Rules(draw=draw))
        rounds = ([Move.draw()] * -(-24 // draw) + [Move.recycle()]) * 2
        for n in range(len(rounds) + 1):
            assert _at_once(start, rounds[:n]) == _one_by_one(start, rounds[:n])
        assert _at_once(start, [Move.draw(), Move.recycle()]) == (
            "the stock is not empty: tap it instead of recycling"
        )
        too_many = [Move.draw()] * (-(-24 // draw) + 1)
        assert _at_once(start, too_many) == "the stock is empty: turn the waste over instead"


def test_all_move_texts_round_trip() -> None:
    for move in ALL_MOVES:
        assert Move.parse(str(move)) == move


def test_state_is_hashable_and_immutable() -> None:
    s = deal(3)
    assert len({s, deal(3), s.apply("s")}) == 2
    try:
        s.stock = ()  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("GameState must be immutable")
