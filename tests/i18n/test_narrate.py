"""Narration of line steps: purposes, tap runs and their texts in the four locales."""

from __future__ import annotations

import pytest

from klondike_widget.engine.cards import parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.i18n.narrate import purpose, run_text, tap_runs, why
from klondike_widget.solver import Limit, solve

LOCALES = ("en", "pl", "tr", "ar")


def _state(columns: list[list[str]], face_down: list[int]) -> GameState:
    """A position with these columns; every other card in the stock, foundations empty."""
    cols = [[parse_card(c) for c in col] for col in columns]
    used = {c for col in cols for c in col}
    return GameState(cols, face_down, [c for c in range(52) if c not in used])


def test_reveal_on_a_deal() -> None:
    s = deal(2)
    after = s.apply("t4-f")
    assert purpose(s, Move.parse("t4-f"), after, None) == (
        "narrate.reveal",
        {"card": after.columns[3][-1]},
    )
    assert purpose(s, Move.draw(), s.apply("s"), None) is None


def test_foundation_and_nothing_to_say() -> None:
    state = _state([["Qh", "Ac"], ["Ks"], ["9d"], [], [], [], []], [1, 0, 0, 0, 0, 0, 0])
    up = Move.parse("t1-f")
    assert purpose(state, up, state.apply(up), None) == (
        "narrate.reveal",
        {"card": parse_card("Qh")},
    )
    state2 = _state([["Qh", "Ac"], ["Ks"], ["9d"], [], [], [], []], [0, 0, 0, 0, 0, 0, 0])
    assert purpose(state2, up, state2.apply(up), None) == (
        "narrate.foundation",
        {"card": parse_card("Ac")},
    )


def test_king_to_an_empty_column_and_foundation() -> None:
    state = _state([["Kh", "Qs"], ["5d", "Kc"], [], [], [], [], []], [0, 1, 0, 0, 0, 0, 0])
    move = Move.parse("t2-t3")
    assert purpose(state, move, state.apply(move), None) == (
        "narrate.reveal",
        {"card": parse_card("5d")},
    )
    state2 = _state([["Kh", "Qs"], ["Kc"], [], [], [], [], []], [0, 0, 0, 0, 0, 0, 0])
    move2 = Move.parse("t2-t3")
    # a King alone moving to an empty column empties its own: that comes first
    assert purpose(state2, move2, state2.apply(move2), None)[0] == "narrate.empty"
    run = Move.parse("t1:2-t3")
    assert purpose(state2, run, state2.apply(run), None)[0] == "narrate.empty"


def test_frees_the_card_the_next_move_plays() -> None:
    state = _state([["Ac", "Qh"], ["Ks"], [], [], [], [], []], [0, 0, 0, 0, 0, 0, 0])
    move, nxt = Move.parse("t1-t2"), Move.parse("t1-f")
    after = state.apply(move)
    assert purpose(state, move, after, nxt) == ("narrate.frees", {"card": parse_card("Ac")})
    assert purpose(after, nxt, after.apply(nxt), None)[0] == "narrate.empty"


def test_tap_runs_and_their_words_in_every_locale() -> None:
    start = deal(7)
    line = Line(start, ["s", "s", "s"])
    assert tap_runs(line.moves) == [(0, 3)]
    card = line.end.waste[-1]
    from klondike_widget.engine.cards import card_symbol

    for code in LOCALES:
        text = run_text(line, 0, 3, code)
        assert card_symbol(card) in text and "3" in text and "{" not in text
    assert tap_runs([Move.draw()]) == []  # a single tap is its own step


def test_why_in_every_locale_fills_every_placeholder() -> None:
    start = deal(2)
    result = solve(start, Limit(seconds=30), shorten=0.3)
    line = Line(start, result.moves)
    for code in LOCALES:
        texts = [why(line, k, code) for k in range(len(line.moves))]
        assert all("{" not in t for t in texts)
        assert sum(bool(t) for t in texts) > len(texts) // 3
    with pytest.raises(IndexError):
        why(line, len(line.moves), "en")


def test_a_king_to_an_empty_column() -> None:
    state = _state([["Kh", "Qs"], ["5d", "Kc"], [], [], [], [], []], [0, 0, 0, 0, 0, 0, 0])
    move = Move.parse("t2-t3")
    assert purpose(state, move, state.apply(move), None) == (
        "narrate.king",
        {"card": parse_card("Kc"), "column": 3},
    )
