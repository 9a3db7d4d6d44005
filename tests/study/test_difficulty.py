"""Deal difficulty: the rating rule, the shipped table (reproducible), the new-deal options."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from klondike_widget.__main__ import main
from klondike_widget.engine import ratings
from klondike_widget.engine.deals import deal
from klondike_widget.engine.game import Game
from klondike_widget.engine.ratings import DealLevelError, pick_deal, rated_deals, rating
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, solve
from klondike_widget.study import run_study
from klondike_widget.study.difficulty import (
    EASY_MAX_DEAD_ENDS,
    HARD_MIN_DEAD_ENDS,
    DealFacts,
    Level,
    measure_deal,
    rate,
)


def facts(dead_ends: int) -> DealFacts:
    return DealFacts(deal=1, draw=1, nodes=40 + dead_ends, depth=40, line_length=200)


@pytest.mark.parametrize(
    ("dead_ends", "needs", "level"),
    [
        (0, False, Level.EASY),
        (EASY_MAX_DEAD_ENDS, False, Level.EASY),
        (EASY_MAX_DEAD_ENDS + 1, False, Level.MEDIUM),
        (HARD_MIN_DEAD_ENDS - 1, False, Level.MEDIUM),
        (HARD_MIN_DEAD_ENDS, False, Level.HARD),
        (0, True, Level.HARD),
    ],
)
def test_the_rule(dead_ends: int, needs: bool, level: Level) -> None:
    assert facts(dead_ends).dead_ends == dead_ends
    assert rate(facts(dead_ends), needs_f2t=needs) is level


def test_a_measurement_is_the_same_every_time() -> None:
    first = measure_deal(6, draw=1)
    assert first is not None and first == measure_deal(6, draw=1)
    assert first.nodes >= first.depth > 0 and first.line_length > 0


@pytest.mark.parametrize("draw", [1, 3])
def test_the_shipped_table_is_reproducible(draw: int) -> None:
    """A few deals of each level, measured again, get the level the table gives them."""
    rng = random.Random(draw)
    without_f2t = set(rated_deals("hard", draw, foundation_to_tableau=False))
    for level in Level:
        for n in rng.sample(rated_deals(level.value, draw), 4):
            measured = measure_deal(n, draw)
            assert measured is not None
            needs = level is Level.HARD and n not in without_f2t
            assert rate(measured, needs) is level, (n, measured)


@pytest.mark.parametrize("draw", [1, 3])
def test_rated_winnable_deals_are_won_and_lost_ones_lost(draw: int) -> None:
    rng = random.Random(10 + draw)
    for n in rng.sample(rated_deals("winnable", draw), 5):
        result = solve(deal(n, Rules(draw=draw)), Limit(seconds=20))
        assert result.status is Status.WON
    lost = [n for n in range(1, 60) if rating(n, draw) == "lost"]
    assert lost
    for n in lost[:2]:  # each was proved lost by the study in at most 2 s
        assert solve(deal(n, Rules(draw=draw)), Limit(seconds=30)).status is Status.LOST


@pytest.mark.parametrize("draw", [1, 3])
def test_the_levels_split_the_winnable_deals(draw: int) -> None:
    levels = [set(rated_deals(v, draw)) for v in ("easy", "medium", "hard")]
    assert all(levels)
    assert set.union(*levels) == set(rated_deals("winnable", draw))
    assert sum(map(len, levels)) == len(rated_deals("winnable", draw))
    assert rated_deals("easy", draw) == tuple(sorted(levels[0]))
    # without foundation-to-column moves, only the deals that need them are left out
    strict = set(rated_deals("winnable", draw, foundation_to_tableau=False))
    assert strict < set(rated_deals("winnable", draw))
    assert strict - set(rated_deals("hard", draw, foundation_to_tableau=False)) == (
        levels[0] | levels[1]
    )


def test_pick_deal() -> None:
    assert pick_deal("easy", 3, random.Random(1)) == pick_deal("easy", 3, random.Random(1))
    assert rating(pick_deal("hard", 1), 1) == "hard"
    assert rating(pick_deal("winnable", 3), 3) in {"easy", "medium", "hard"}
    assert 1 <= pick_deal("any", 1) < 2**31
    assert rating(10**12, 1) is None


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: pick_deal("impossible"), "a deal level is one of"),
        (lambda: pick_deal(None), "a deal level is one of"),  # type: ignore[arg-type]
        (lambda: pick_deal("easy", draw=2), "covers draw [1, 3], not 2"),
        (lambda: rated_deals("any"), "every deal is 'any'"),
        (lambda: rating("7"), "whole number"),  # type: ignore[arg-type]
        (lambda: Game.new(level="eazy"), "a deal level is one of"),
        (
            lambda: Game.new(deal=29, level="winnable"),
            "deal 29 is not a rated winnable deal in draw 1",
        ),
    ],
)
def test_bad_levels(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call()  # type: ignore[operator]


def test_level_errors_are_value_errors() -> None:
    assert issubclass(DealLevelError, ValueError)
    with pytest.raises(DealLevelError):
        Game.new(level="eazy")


def test_game_new_levels() -> None:
    for draw in (1, 3):
        for level in ("easy", "medium", "hard"):
            game = Game.new(draw=draw, level=level)
            assert rating(game.deal_number, draw) == level  # type: ignore[arg-type]
            assert game.rules.draw == draw
    n = rated_deals("easy", 3)[16]  # "winnable easy deal #17 in draw 3"
    assert Game.new(deal=n, draw=3, level="easy").start == deal(n, Rules(draw=3))
    strict = Game.new(draw=1, foundation_to_tableau=False, level="hard")
    assert strict.deal_number in rated_deals("hard", 1, foundation_to_tableau=False)


def test_the_ratings_command_writes_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    study = tmp_path / "s.csv"
    run_study("1-6", draw=1, seconds=5.0, out=study, workers=0, progress=False)
    out = tmp_path / "ratings.json"
    assert main(["ratings", str(study), "--out", str(out), "--no-progress"]) == 0
    table = json.loads(out.read_text())
    assert table["format"] == ratings.TABLE_FORMAT and table["first"] == 1
    # the same letters as the shipped table for these deals (the same study, rated again)
    shipped = json.loads((Path(ratings.__file__).parent / "ratings.json").read_text())
    assert table["draw 1"] == shipped["draw 1"][:6]
    assert "| easy" in capsys.readouterr().out


def test_table_text_needs_consecutive_deals() -> None:
    with pytest.raises(ValueError, match="without gaps"):
        ratings.table_text(1, {1: {1: "easy", 3: "hard"}}, {})
