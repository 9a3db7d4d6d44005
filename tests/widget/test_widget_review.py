"""The widget's game review (no browser): the game's history opens in the panel, the losing move
is marked in every language, "Try from here" starts a new game; intents as the front end sends.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from klondike_widget import Game, KlondikeWidget
from klondike_widget.i18n import describe_move, text
from klondike_widget.solver import Limit, Status, solve
from tests.test_review import slip_game


class Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def __call__(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)


@pytest.fixture(scope="module")
def slip() -> tuple[Game, int]:
    return slip_game(8, 1)


@pytest.fixture
def w(slip: tuple[Game, int]) -> Iterator[KlondikeWidget]:
    game = Game.from_json(slip[0].to_json())
    widget = KlondikeWidget(game=game, analyse=False)
    widget.send = Recorder()  # type: ignore[method-assign]
    yield widget
    widget.close()


def intent(w: KlondikeWidget, kind: str, **fields: Any) -> None:
    w._handle_custom_msg({"kind": kind, "seq": w.view["seq"], **fields}, [])


def test_review_opens_the_history_at_the_position_before_the_losing_move(
    w: KlondikeWidget, slip: tuple[Game, int]
) -> None:
    game, k = slip
    before = w.game.to_json()
    r = w.review(Limit(seconds=5))
    assert r.losing_move is not None and r.losing_move.index == k
    assert w.game.to_json() == before  # reviewing changes nothing
    assert w.line is not None and list(w.line.moves) == list(game.history)
    assert w.line.start == game.start
    assert w.line_index == k and w.view["line"]["k"] == k
    assert w.view["line"]["playable"] is True
    lv = w.line_view
    assert lv["title"] == "review.title" and lv["play"] == "review.try_from_here.label"
    assert lv["marks"] == [[k, text("review.losing", "en")]]  # one mark: the losing move
    better = describe_move(game.states[k], r.losing_move.alternative[0], "en")
    assert lv["summary"] == text("review.summary.losing", "en", index=k + 1, move=better)


@pytest.mark.parametrize("lang", ["pl", "tr", "ar"])
def test_the_mark_follows_the_language(w: KlondikeWidget, lang: str) -> None:
    r = w.review(Limit(seconds=5))
    w.locale = lang
    k = r.losing_move.index  # type: ignore[union-attr]
    lv = w.line_view
    mark = text("review.losing", lang)
    assert mark != text("review.losing", "en")
    assert lv["marks"] == [[k, mark]]
    state = w.game.states[k]
    better = describe_move(state, r.losing_move.alternative[0], lang)  # type: ignore[union-attr]
    assert lv["summary"] == text("review.summary.losing", lang, index=k + 1, move=better)


def test_try_from_here_starts_a_new_game_from_the_step(
    w: KlondikeWidget, slip: tuple[Game, int]
) -> None:
    game, k = slip
    w.review(Limit(seconds=5))
    intent(w, "step", line=w.view["line"]["id"], index=k)
    intent(w, "play_from_here", line=w.view["line"]["id"], index=k)
    assert w.line is None and w.view["status"] == "playing"
    assert list(w.game.history) == list(game.history[:k])
    assert w.game.moves_count == k and not w.game.can_redo
    assert w.game.deal_number == game.deal_number
    # and the position before the mistake can indeed still be won
    assert solve(w.game.state, Limit(seconds=10)).status is Status.WON


def test_review_uses_and_fills_the_widgets_verdicts(w: KlondikeWidget) -> None:
    first = w.review(Limit(seconds=5))
    assert first.searches > 0
    assert w._verdicts.get(w.game.state) is not None
    again = w.review(Limit(seconds=5))
    assert again.searches == 0
    assert again.losing_move is not None and first.losing_move is not None
    assert again.losing_move.index == first.losing_move.index


def test_an_empty_game_opens_nothing() -> None:
    widget = KlondikeWidget(deal=2, analyse=False)
    try:
        r = widget.review(Limit(seconds=5))
        assert len(r) == 0 and widget.line is None
    finally:
        widget.close()


@pytest.mark.parametrize("level", ["winnable", "easy", "medium", "hard"])
def test_new_deal_follows_the_deal_level_setting(level: str) -> None:
    from klondike_widget.engine.ratings import rating

    widget = KlondikeWidget(deal=2, draw=3, analyse=False)
    widget.send = Recorder()  # type: ignore[method-assign]
    try:
        widget.deal_level = level
        intent(widget, "new_deal")  # the New deal button
        shown = rating(widget.game.deal_number, draw=3)  # type: ignore[arg-type]
        assert shown == level if level != "winnable" else shown in {"easy", "medium", "hard"}
        intent(widget, "new_deal", deal="29")  # a deal number is dealt whatever its level
        assert widget.game.deal_number == 29
    finally:
        widget.close()


def test_a_bad_deal_level_changes_nothing() -> None:
    import traitlets

    widget = KlondikeWidget(deal=2, analyse=False)
    try:
        with pytest.raises(traitlets.TraitError):
            widget.deal_level = "impossible"
        with pytest.raises(traitlets.TraitError):
            widget.new_deal(level="impossible")
        assert widget.deal_level == "any" and widget.game.deal_number == 2
    finally:
        widget.close()


def _wait_review(widget: KlondikeWidget, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while widget.view["review"] is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert widget.view["review"] is None, "the review did not finish"


def test_the_review_button_runs_in_the_background_and_reports_progress(
    w: KlondikeWidget, slip: tuple[Game, int]
) -> None:
    game, k = slip
    seen: list[Any] = []
    w.observe(lambda change: seen.append(change["new"].get("review")), names="view")
    assert w.view["reviewable"] is True and w.view["review"] is None
    intent(w, "review")  # returns at once: the review runs in its own thread
    first = w.view["review"]
    assert first == {"running": True, "decided": 0, "total": len(game.history) + 1}
    _wait_review(w)
    progress = [p["decided"] for p in seen if p is not None]
    assert progress == sorted(progress) and progress[-1] > 0  # progress was published
    assert w.line is not None and w.line_index == k
    assert w.line_view["marks"] == [[k, text("review.losing", "en")]]
    assert w.game.to_json() == game.to_json()  # reviewing changes nothing


def test_a_move_during_the_review_cancels_it(w: KlondikeWidget) -> None:
    assert w.table.verdicts.get(w.game.state) is None  # nothing known: the review searches
    intent(w, "review")
    w.undo()  # the game changed: the review of the old history is dropped
    assert w.view["review"] is None
    time.sleep(1.5)
    assert w.line is None


def test_after_a_new_deal_the_review_looks_at_the_game_left(
    w: KlondikeWidget, slip: tuple[Game, int]
) -> None:
    game, k = slip
    w.new_deal(5)
    assert w.game.moves_count == 0 and w.view["reviewable"] is True
    intent(w, "review")
    _wait_review(w)
    assert w.line is not None and list(w.line.moves) == list(game.history)
    intent(w, "play_from_here", line=w.view["line"]["id"], index=w.line_index)
    assert w.game.deal_number == game.deal_number and list(w.game.history) == list(game.history[:k])


def test_nothing_to_review_is_refused_in_words() -> None:
    widget = KlondikeWidget(deal=2, analyse=False, stats=False)
    widget.send = Recorder()  # type: ignore[method-assign]
    try:
        assert widget.view["reviewable"] is False
        intent(widget, "review")
        assert widget.last_notice == ("reject.nothing_to_review", "")
        assert widget.view["review"] is None and widget.line is None
    finally:
        widget.close()


def test_the_deal_level_setting_from_the_front_end() -> None:
    widget = KlondikeWidget(deal=2, draw=3, analyse=False, stats=False)
    widget.send = Recorder()  # type: ignore[method-assign]
    try:
        intent(widget, "set_deal_level", level="easy")
        assert widget.deal_level == "easy"
        intent(widget, "set_deal_level", level="trivial")
        assert widget.last_notice is not None and widget.last_notice[0] == "reject.malformed"
        assert widget.deal_level == "easy"
    finally:
        widget.close()


def test_try_from_here_is_a_new_game_in_the_statistics(
    slip: tuple[Game, int], tmp_path: Any
) -> None:
    from klondike_widget.play.stats import Statistics

    game, k = slip
    widget = KlondikeWidget(
        game=Game.from_json(game.to_json()),
        analyse=False,
        stats=Statistics(tmp_path / "statistics.jsonl"),
    )
    widget.send = Recorder()  # type: ignore[method-assign]
    try:
        widget.play(next(iter(widget.game.legal_moves)))  # a move: the game is in the file
        intent(widget, "review")
        _wait_review(widget)
        intent(widget, "play_from_here", line=widget.view["line"]["id"], index=widget.line_index)
        assert widget.game.moves_count == k
        widget.play(next(iter(widget.game.legal_moves)))  # the new game counts once it is played
        rows = {row["draw"]: row for row in widget.statistics}
        assert rows[1]["lost"] == 1  # the reviewed game, left for the new one
        widget.new_deal(3)  # the tried game is left in turn: a second game
        rows = {row["draw"]: row for row in widget.statistics}
        assert rows[1]["played"] == 2 and rows[1]["lost"] == 2
    finally:
        widget.close()
