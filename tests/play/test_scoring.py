"""Every Standard and Vegas scoring rule (klondike_widget.play.scoring), undo included."""

from __future__ import annotations

import pytest

from klondike_widget.engine.game import Game
from klondike_widget.play.scoring import (
    Score,
    move_points,
    score,
    standard_points,
    standard_score,
    time_bonus,
    time_penalty,
    vegas_score,
)
from tests.play_positions import position


def points(state, text: str) -> int:  # type: ignore[no-untyped-def]
    move = state.parse_move(text)
    return move_points(state, move, state.apply(move))


def test_waste_to_column_scores_5() -> None:
    s = position([["Ks"]], waste=["Qh"])
    assert points(s, "w-t1") == 5


def test_waste_to_foundation_scores_10() -> None:
    s = position([["Ks"]], waste=["Ac"])
    assert points(s, "w-f") == 10


def test_column_to_foundation_scores_10_and_5_more_when_it_turns_a_card() -> None:
    assert points(position([["Ad"]]), "t1-f") == 10
    assert points(position([["Ks", "Ad"]], face_down=[1]), "t1-f") == 15


def test_turning_a_column_card_over_scores_5_and_a_plain_column_move_nothing() -> None:
    turned = position([["Ac", "Qh"], ["Ks"]], face_down=[1, 0])
    assert points(turned, "t1-t2") == 5
    assert points(position([["Qh"], ["Ks"]]), "t1-t2") == 0
    assert points(position([["Ks", "Qh"], ["Kc"]]), "t1-t2") == 0  # nothing was face down


def test_foundation_to_column_costs_15() -> None:
    s = position([["Ks"]], foundations=(0, 0, 12, 0))
    assert points(s, "fh-t1") == -15


def test_recycle_costs_100_every_time_in_draw_1() -> None:
    g = Game(position([["Ks"]], draw=1, rest="waste"))
    for _ in range(3):
        g.play("r")
        while g.state.stock:
            g.play("s")
    assert standard_points(g) == -300


def test_recycle_in_draw_3_is_free_three_times_then_costs_20() -> None:
    g = Game(position([["Ks"]], draw=3, rest="waste"))
    seen = []
    for _ in range(5):
        g.play("r")
        seen.append(standard_points(g))
        while g.state.stock:
            g.play("s")
    assert seen == [0, 0, 0, -20, -40]


def test_time_penalty_is_2_every_full_10_seconds() -> None:
    assert [time_penalty(s) for s in (0, 9.99, 10, 19, 20, 125)] == [0, 0, 2, 2, 4, 24]


def test_time_bonus_only_after_more_than_30_seconds() -> None:
    assert time_bonus(0) == time_bonus(29) == time_bonus(30) == 0
    assert time_bonus(31) == 700_000 // 31
    assert time_bonus(100.9) == 7000  # whole seconds


@pytest.mark.parametrize("bad", [-1, float("nan"), True, "10"])
def test_bad_seconds_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="seconds"):
        time_penalty(bad)  # type: ignore[arg-type]


def _near_win() -> Game:
    return Game(position([["Ks"]], foundations=(13, 13, 13, 12)))


def test_a_win_gets_the_bonus_on_top_of_the_floored_points() -> None:
    g = _near_win()
    g.play("t1-f")
    assert g.is_won
    assert standard_score(g, 100) == 0 + 7000  # 10 points - 20 penalty shows as 0
    assert standard_score(g, 30) == 10 - 6  # no bonus at 30 s
    assert standard_score(g, 31) == 10 - 6 + 700_000 // 31


def test_the_total_never_shows_below_zero() -> None:
    g = Game(position([["Ks"]], draw=1, rest="waste"))
    g.play("r")
    assert standard_points(g) == -100
    assert standard_score(g, 0) == 0


def test_no_bonus_before_the_win() -> None:
    g = _near_win()
    assert standard_score(g, 100) == 0


def test_undo_gives_back_exactly_what_the_move_scored_and_redo_scores_it_again() -> None:
    g = Game(position([["Ks", "Ad"]], face_down=[1], waste=["Qh"]))
    g.play("t1-f")
    assert standard_points(g) == 15
    g.undo()
    assert standard_points(g) == 0
    g.redo()
    assert standard_points(g) == 15


def test_vegas_antes_52_and_pays_5_per_card_net() -> None:
    g = Game(position([["Ks", "Ad"]], face_down=[1], waste=["Ac"]))
    assert vegas_score(g) == -52
    g.play("w-f")
    g.play("t1-f")
    assert vegas_score(g) == -52 + 10
    g.undo()
    assert vegas_score(g) == -52 + 5


def test_vegas_takes_back_5_for_a_card_brought_down_and_counts_only_this_games_cards() -> None:
    g = Game(position([["Ks"]], foundations=(0, 0, 12, 0)))
    assert vegas_score(g) == -52  # the 12 hearts were there before this game
    g.play("fh-t1")
    assert vegas_score(g) == -57


def test_vegas_never_charges_for_recycling() -> None:
    g = Game(position([["Ks"]], draw=1, rest="waste"))
    for _ in range(4):
        g.play("r")
        while g.state.stock:
            g.play("s")
    assert vegas_score(g) == -52


def test_score_gives_both_scores() -> None:
    g = _near_win()
    g.play("t1-f")
    assert score(g, 40) == Score(standard_score(g, 40), vegas_score(g))
    assert (score(g, 40).standard, score(g, 40).vegas) == (10 - 8 + 700_000 // 40, -52 + 5)
