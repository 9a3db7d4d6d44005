"""Each rule of the rules pages, one by one, on constructed positions."""

import pytest

from klondike_widget import Game, IllegalMoveError, Move, Rules
from klondike_widget.engine.cards import parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.notation import build_position
from klondike_widget.engine.state import GameState


def moves_text(state: GameState) -> set[str]:
    return {str(m) for m in state.legal_moves}


def test_the_deal_follows_the_rules_pages() -> None:
    s = deal(123)
    assert [len(c) for c in s.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert list(s.face_down) == [0, 1, 2, 3, 4, 5, 6]
    assert sum(s.face_down) == 21
    assert len(s.stock) == 24
    assert not s.waste
    assert s.foundations == (0, 0, 0, 0)


def test_a_card_goes_on_one_rank_higher_of_the_other_colour() -> None:
    s = build_position(["Ts", "9h", "Td", "9c"])
    legal = moves_text(s)
    assert "t2-t1" in legal  # red nine on black ten
    assert "t2-t3" not in legal  # red on red
    assert "t4-t3" in legal  # black nine on red ten
    assert "t4-t1" not in legal
    with pytest.raises(IllegalMoveError, match="other colour"):
        s.apply("t2-t3")


def test_a_run_moves_whole_and_must_alternate_colours() -> None:
    s = build_position(["#2c Kh Qs Jh Ts", "Qd", "", "Kc Qh Jd"])
    # the run Jh Ts moves onto the Queen of diamonds? No: Jh is red like Qd.
    assert "t1:2-t2" not in moves_text(s)
    # Qs Jh Ts (3 cards) onto... no black-King target; the whole run with the King goes to the
    # empty column 3
    assert "t1:4-t3" in moves_text(s)
    after = s.apply("t1:4-t3")
    assert after.columns[2] == tuple(parse_card(c) for c in ["Kh", "Qs", "Jh", "Ts"])
    assert after.face_down[0] == 0  # the 2c under it turned up
    # Jd on Qh on Kc is not alternating (Qh Jd both red): only Jd moves alone.
    assert not s.is_legal(Move.column_to_column(3, 2, 2))
    assert "not form a run" in (s.apply.__self__ and _reason(s, Move.column_to_column(3, 2, 2)))


def _reason(state: GameState, move: Move) -> str:
    from klondike_widget.engine.moves import why_illegal

    reason = why_illegal(state, move)
    assert reason is not None
    return reason


def test_only_a_king_or_king_headed_run_goes_to_an_empty_column() -> None:
    s = build_position(["Qh", "", "Ks Qd", "Kd"])
    legal = moves_text(s)
    assert "t1-t2" not in legal
    assert "t3:2-t2" in legal
    assert "t4-t2" in legal
    with pytest.raises(IllegalMoveError, match="only a King"):
        s.apply("t1-t2")


def test_the_card_under_the_last_face_up_card_turns_up() -> None:
    s = build_position(["#5c #7d 9h", "Ts"])
    after = s.apply("t1-t2")
    assert after.face_down[0] == 1
    assert after.columns[0][-1] == parse_card("7d")
    assert after.face_up(0) == (parse_card("7d"),)


def test_foundations_build_ace_to_king_by_suit() -> None:
    s = build_position(["Ah", "2h", "3h", "2s"], foundations={})
    assert moves_text(s) >= {"t1-f"}
    assert "t2-f" not in moves_text(s)
    s = s.apply("t1-f").apply("t2-f").apply("t3-f")
    assert s.foundations == (0, 0, 3, 0)
    assert "t4-f" not in moves_text(s)


def test_a_foundation_top_card_may_move_back_to_a_column() -> None:
    s = build_position(["Ts"], foundations={"h": 9})
    assert "fh-t1" in moves_text(s)
    after = s.apply("fh-t1")
    assert after.foundations[2] == 8
    assert after.columns[0][-1] == parse_card("9h")
    # the rule option forbids it
    strict = build_position(["Ts"], foundations={"h": 9}, rules=Rules(foundation_to_tableau=False))
    assert "fh-t1" not in moves_text(strict)
    with pytest.raises(IllegalMoveError, match="do not allow"):
        strict.apply("fh-t1")


def test_a_king_from_a_foundation_goes_to_an_empty_column() -> None:
    s = build_position([], foundations={"c": 13})
    assert {f"fc-t{i}" for i in range(1, 8)} <= moves_text(s)


def test_draw_one_turns_one_card_and_only_the_top_plays() -> None:
    s = build_position(["Ts", "", "", "", "", "", "Kd"], stock="9h 5c Ah", rules=Rules(draw=1))
    s = s.apply("s")
    assert s.waste == (parse_card("Ah"),)
    assert len(s.stock) == 2
    assert "w-f" in moves_text(s)
    s = s.apply("s")
    assert "w-f" not in moves_text(s)  # Ah is covered by 5c now


def test_draw_three_turns_three_and_leaves_in_between_cards_out_of_reach() -> None:
    # stock bottom..top: 9h 5c Ah 4d Kc -> a tap turns Kc, 4d, Ah: Ah lands on top
    s = build_position(
        ["Ts", "", "", "", "", "", "Qd"], stock="9h 5c Ah 4d Kc", rules=Rules(draw=3)
    )
    s = s.apply("s")
    assert list(s.waste) == [parse_card(c) for c in ["Kc", "4d", "Ah"]]
    assert "w-f" in moves_text(s)
    s = s.apply("s")  # turns the last two: 5c then 9h on top
    assert s.waste[-1] == parse_card("9h")
    assert "w-t1" in moves_text(s)
    # 5c and the Ace below are out of reach until the waste changes
    assert not any(str(m).startswith("w-f") for m in s.legal_moves)
    s = s.apply("w-t1")  # the waste changes: 5c is now the top
    assert s.waste[-1] == parse_card("5c")


def test_recycling_is_unlimited_and_restores_the_order() -> None:
    s = build_position(["Ts", "", "", "", "", "", "Kd"], stock="9h 5c Ah", rules=Rules(draw=1))
    start_stock = s.stock
    for _ in range(5):  # five full passes
        while s.stock:
            assert "r" not in moves_text(s)
            s = s.apply("s")
        assert moves_text(s) >= {"r"}
        assert "s" not in moves_text(s)
        s = s.apply("r")
        assert s.stock == start_stock
        assert not s.waste


def test_recycle_needs_an_empty_stock_and_a_waste() -> None:
    s = build_position(["Ks", "", "", "", "", "", "Kd"], stock="")
    assert not s.stock
    assert not s.waste
    assert not any(str(m) in ("s", "r") for m in s.legal_moves)
    assert s.legal_moves  # the Kings can still move
    with pytest.raises(IllegalMoveError):
        s.apply("r")
    with pytest.raises(IllegalMoveError):
        s.apply("s")


def test_won_when_all_52_cards_are_on_the_foundations() -> None:
    s = build_position(["Ks"], stock="", foundations={"c": 13, "d": 13, "h": 13, "s": 12})
    assert not s.is_won
    s = s.apply("t1-f")
    assert s.is_won
    assert not s.legal_moves
    with pytest.raises(IllegalMoveError, match="won"):
        s.apply("fs-t1")


def test_the_moves_counter_counts_every_action() -> None:
    g = Game.new(deal=7)
    g.play("s")
    g.play("s")
    g.undo()
    g.redo()
    assert g.moves_count == 4  # two taps, one undo, one redo
    while g.state.stock:
        g.play("s")
    g.play("r")
    assert g.moves_count == 4 + 22 + 1
