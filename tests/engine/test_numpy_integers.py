"""Whole numbers from numpy (``np.arange``, a pandas column) are whole numbers to the Python API.

An analyst writes ``for n in np.arange(1, 101): Game.new(deal=n)`` or studies
``df["deal"]``; those are ``np.int64``, not ``int``. They are accepted everywhere a deal number,
a draw mode or a count is, and stored as plain ints (so that a game saves as JSON). A bool, a
float (even ``3.0``, even numpy's) or a text is still refused with a ``ValueError``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from klondike_widget import Game, Limit, Rules
from klondike_widget.engine.deals import deal
from klondike_widget.engine.errors import as_whole
from klondike_widget.engine.ratings import rating
from klondike_widget.engine.shuffle import check_deal_number, shuffled_deck
from klondike_widget.study import StudySettings, run_study

INTEGERS = [np.int64(5), np.int32(5), np.uint16(5), np.array(5)]
NOT_INTEGERS = [True, np.True_, 5.0, np.float64(5.0), "5", None, [5]]


@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_numpy_integers_are_whole_numbers_stored_as_ints(value: Any) -> None:
    assert as_whole(value) == 5 and type(as_whole(value)) is int
    assert type(check_deal_number(value)) is int
    assert shuffled_deck(value) == shuffled_deck(5)
    assert deal(value) == deal(5)
    assert rating(value) == rating(5)


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_other_values_are_refused(value: object) -> None:
    assert as_whole(value) is None
    with pytest.raises(ValueError, match="whole number"):
        check_deal_number(value)
    with pytest.raises(ValueError, match="whole number"):
        rating(value)  # type: ignore[arg-type]


def test_a_game_of_a_numpy_deal_number_saves_and_loads() -> None:
    game = Game.new(deal=np.int64(42), draw=np.int64(3))
    assert type(game.deal_number) is int and type(game.rules.draw) is int
    text = game.to_json()
    assert json.loads(text)["deal"] == 42
    assert Game.from_json(text) == game == Game.new(deal=42, draw=3)


@pytest.mark.parametrize("number", [2.5, True, "7", -1, 2**64])
def test_a_game_refuses_a_deal_number_it_could_not_save(number: object) -> None:
    # before, Game(start, deal_number=2.5) was accepted and saved a file that did not load
    with pytest.raises(ValueError, match="deal number"):
        Game(deal(7), deal_number=number)  # type: ignore[arg-type]


def test_rules_limit_and_study_settings_take_numpy_integers() -> None:
    assert Rules(draw=np.int64(3)) == Rules(draw=3)
    assert type(Rules(draw=np.int64(3)).draw) is int
    limit = Limit(nodes=np.int64(1000))
    assert limit.nodes == 1000 and type(limit.nodes) is int
    settings = StudySettings(draw=np.int64(3), seconds=1.0, nodes=np.int32(50))
    assert (settings.draw, settings.nodes) == (3, 50)
    assert type(settings.draw) is int and type(settings.nodes) is int
    for bad in (np.float64(3.0), True):
        with pytest.raises(ValueError, match="draw must be 1 or 3"):
            Rules(draw=bad)
        with pytest.raises(ValueError, match="nodes must be a positive int"):
            Limit(nodes=bad)
        with pytest.raises(ValueError, match="draw must be 1 or 3"):
            StudySettings(draw=bad, seconds=1.0)


def test_a_study_of_np_arange_deals() -> None:
    results = run_study(
        np.arange(1, 3),
        draw=1,
        seconds=5.0,
        nodes=np.int64(200_000),
        check_without_f2t=False,
        workers=np.int64(0),
        progress=False,
    )
    assert sorted(row.deal for row in results.results) == [1, 2]
    assert all(type(row.deal) is int for row in results.results)
    with pytest.raises(ValueError, match="deal numbers"):
        run_study([1, np.float64(2.0)], draw=1, seconds=5.0, workers=0, progress=False)
    with pytest.raises(ValueError, match="workers"):
        run_study([1], draw=1, seconds=5.0, workers=np.float64(0), progress=False)
