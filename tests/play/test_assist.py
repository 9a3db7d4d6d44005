"""One-click targets, the auto-complete offer and safe cards (klondike_widget.play.assist)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move
from klondike_widget.play.assist import (
    auto_complete_line,
    is_safe,
    one_click_moves,
    safe_foundation_move,
)
from klondike_widget.solver import core
from tests.play_positions import card, position


def test_a_card_that_can_go_up_goes_to_its_foundation_first() -> None:
    s = position([["2h", "Ac"], ["2d"]], face_down=[1, 0])  # Ac: foundation or onto 2d
    assert "t1-t2" in {str(m) for m in s.legal_moves}
    assert one_click_moves(s)["t1"] == [[1, "t1-f"]]


def test_a_column_with_cards_comes_before_an_empty_column() -> None:
    s = position([["Kc"], ["Qh"], ["Ks"]], face_down=[0, 0, 0])
    # Qh may go onto Kc (t1) or Ks (t3) or, when empty columns exist, nowhere else (not a King)
    assert one_click_moves(s)["t2"] == [[1, "t2-t1"]]
    king = position([["2c", "Kd"], ["Ac"]], face_down=[1, 0])
    assert one_click_moves(king)["t1"] == [[1, "t1-t3"]]  # the first empty column


def test_a_king_alone_in_its_column_is_not_sent_to_another_empty_column() -> None:
    s = position([["Kd", "Qs"]], face_down=[0])
    assert "t1:2-t2" in {str(m) for m in s.legal_moves}
    assert "t1" not in one_click_moves(s)


def test_runs_get_one_entry_per_length() -> None:
    s = position([["9c", "Kd", "Qs", "Jh"], ["Qc"], ["Ks"]], face_down=[1, 0, 0])
    quick = dict(one_click_moves(s)["t1"])
    assert quick[1] == "t1-t2" == str(Move.parse("t1-t2"))
    assert 2 not in quick  # Qs-Jh fits on no column, and only a King goes to an empty one
    assert quick[3] == "t1:3-t4"  # the King's run into the first empty column


def test_foundation_cards_and_the_stock_have_no_one_click_move() -> None:
    s = position([["Ks"]], foundations=(0, 0, 12, 0))
    assert "fh-t1" in {str(m) for m in s.legal_moves}
    assert set(one_click_moves(s)) <= {"w"}


def test_every_one_click_move_is_a_legal_move_from_that_card() -> None:
    rng = random.Random(16)
    for number in range(30):
        g = Game.new(deal=number, draw=1 + 2 * (number % 2))
        for _ in range(rng.randrange(60)):
            moves = list(g.legal_moves)
            if not moves:
                break
            g.play(rng.choice(moves))
        legal = {str(m): m for m in g.legal_moves}
        for pile, entries in one_click_moves(g.state).items():
            for count, text in entries:
                assert text in legal, (number, text)
                m = legal[text]
                assert m.count == count
                assert (pile == "w") == (m.kind.name.startswith("WASTE"))


def test_is_safe_is_the_solvers_rule() -> None:
    rng = random.Random(5)
    for _ in range(300):
        found = tuple(rng.randrange(14) for _ in range(4))
        s = position([], foundations=found)
        for suit in range(4):
            if found[suit] < 13:
                c = suit * 13 + found[suit]
                S = np.zeros(core.S_SIZE, dtype=np.int32)
                S[core.O_FND : core.O_FND + 4] = found
                assert is_safe(s, c) == bool(core.is_safe(S, c))
    # Aces and twos always; 5h once both black foundations reach 4, or 3 with diamonds at 2.
    assert is_safe(position([]), card("2h"))
    assert not is_safe(position([], foundations=(3, 1, 4, 3)), card("5h"))
    assert is_safe(position([], foundations=(4, 0, 4, 4)), card("5h"))
    assert is_safe(position([], foundations=(3, 2, 4, 3)), card("5h"))
    with pytest.raises(ValueError, match="not a card"):
        is_safe(position([]), 52)


def test_safe_moves_come_from_columns_then_the_waste() -> None:
    s = position([["5c", "Ah"]], face_down=[1], waste=["Ad"])
    assert safe_foundation_move(s) == Move.parse("t1-f")
    assert safe_foundation_move(s.apply("t1-f")) == Move.parse("w-f")
    unsafe = position([["9h"]], foundations=(3, 0, 8, 3))
    assert safe_foundation_move(unsafe) is None


def test_in_draw_3_the_waste_card_goes_up_only_once_the_stock_is_empty() -> None:
    with_stock = position([["Ks"]], waste=["Ad"], draw=3)
    assert with_stock.stock and Move.parse("w-f") in with_stock.legal_moves
    assert safe_foundation_move(with_stock) is None
    no_stock = position([["Ks"]], waste=["Ad"], draw=3, rest="waste")
    assert safe_foundation_move(no_stock) == Move.parse("w-f")
    draw1 = position([["Ks"]], waste=["Ad"], draw=1)
    assert safe_foundation_move(draw1) == Move.parse("w-f")


def _replays_to_a_win(state, line) -> bool:  # type: ignore[no-untyped-def]
    g = Game(state)
    g.play_line(line)
    return g.is_won


def test_auto_complete_is_not_offered_while_a_card_is_hidden_or_the_stock_holds_cards() -> None:
    assert auto_complete_line(deal(3)) is None
    assert auto_complete_line(position([["Kh", "Qs"]], face_down=[1], rest="waste")) is None
    assert auto_complete_line(position([["Ks"]], foundations=(13, 13, 13, 0))) is None  # stock


def test_auto_complete_plays_columns_and_the_waste_round_in_draw_1() -> None:
    runs = [
        ["Ks", "Qh", "Js", "Th", "9s", "8h", "7s", "6h", "5s", "4h"],
        ["Kh", "Qs", "Jh", "Ts", "9h", "8s", "7h", "6s", "5h", "4s"],
    ]
    s = position(runs, waste=["As", "2s", "3s"], foundations=(13, 13, 3, 0), draw=1)
    assert not s.stock
    line = auto_complete_line(s)
    assert line is not None and _replays_to_a_win(s, line)
    assert Move.recycle() in line


def test_auto_complete_is_not_offered_when_the_greedy_line_sticks_in_draw_3() -> None:
    runs = [
        ["Ks", "Qh", "Js", "Th", "9s", "8h", "7s", "6h", "5s", "4h"],
        ["Kh", "Qs", "Jh", "Ts", "9h", "8s", "7h", "6s", "5h", "4s"],
    ]
    s = position(runs, waste=["As", "2s", "3s"], foundations=(13, 13, 3, 0), draw=3)
    assert auto_complete_line(s) is None  # 3s stays on top of As 2s; Finish can still win


def test_auto_complete_from_a_played_out_deal_replays_to_a_win() -> None:
    s = position(
        [["Kc", "Qd"], ["Kd", "Qc"], ["Kh"], ["Ks"]],
        foundations=(11, 11, 12, 12),
        rest="waste",
    )
    line = auto_complete_line(s)
    assert line is not None and _replays_to_a_win(s, line)
    assert auto_complete_line(Game(s).state.apply(line[0])) is not None
