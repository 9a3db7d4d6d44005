"""Solver lines: Line round-trips, GameState inline, and the widget's analysis panel (no browser).

Intents go through ipywidgets' custom-message path, as in ``tests/test_widget.py``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import traitlets

from klondike_widget import Game, KlondikeWidget, Move
from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import BrokenLineError, Line
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import describe_move
from klondike_widget.solver import Limit, Status, solve
from klondike_widget.widget.line_panel import WINDOW
from klondike_widget.widget.view import move_target

VIEW_LIMIT = 8 * 1024


class Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def __call__(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)


def _solved(deal_number: int, draw: int = 1) -> Line:
    start = Game.new(deal=deal_number, draw=draw).state
    result = solve(start, Limit(seconds=30))
    assert result.status is Status.WON
    return Line(start, result.moves)


@pytest.fixture(scope="module")
def line3() -> Line:
    return _solved(3)


@pytest.fixture(scope="module")
def line5d3() -> Line:
    return _solved(5, draw=3)


def _known(line: Line) -> Any:
    """A stand-in solver that knows one winning line."""

    def solve_fn(state: GameState, seconds: float, cancel: threading.Event) -> Any:
        if state == line.start:
            return ("winnable", line.moves)
        return ("unknown", ())

    return solve_fn


@pytest.fixture
def w(line3: Line) -> Iterator[KlondikeWidget]:
    widget = KlondikeWidget(deal=3, solve=_known(line3))
    widget.send = Recorder()  # type: ignore[method-assign]
    assert widget.wait() == "winnable"
    yield widget
    widget.close()


def intent(w: KlondikeWidget, kind: str, **fields: Any) -> None:
    w._handle_custom_msg({"kind": kind, "seq": w.view["seq"], **fields}, [])


def reply(w: KlondikeWidget) -> str:
    sender = w.send
    assert isinstance(sender, Recorder) and sender.sent
    key: str = sender.sent[-1]["key"]
    return key


def game_snapshot(w: KlondikeWidget) -> str:
    return w.game.to_json()


def everything(w: KlondikeWidget) -> tuple[Any, ...]:
    view = dict(w.view)
    view.pop("clock")
    return (w.game.to_json(), view, dict(w.line_view), w.line_index, w.line)


def shown_board(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["cols"], view["stock"], view["wn"], view["waste"], view["found"])


def board_of(state: GameState) -> tuple[Any, ...]:
    fan = 3 if state.rules.draw == 3 else 1
    cols = [
        [down, list(col[down:])] for col, down in zip(state.columns, state.face_down, strict=True)
    ]
    found = [state.foundation_top(s) for s in range(4)]
    return (cols, len(state.stock), len(state.waste), list(state.waste[-fan:]), found)


def size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


# -- Line: solver lines round-trip, replay, index; broken lines -------------------------------


@pytest.mark.parametrize("which", ["line3", "line5d3"])
def test_solver_lines_round_trip_replay_and_index(which: str, request: Any) -> None:
    line: Line = request.getfixturevalue(which)
    assert line.is_winning and len(line) == len(line.moves) + 1
    assert Line.parse(line.text(), line.start) == line
    assert Line.parse(line.text().replace(" ", ","), line.start) == line
    assert line.replay() == line.end == line[-1]
    state = line.start
    for k, move in enumerate(line.moves):
        assert line[k] == state
        assert move in state.legal_moves
        state = state.apply(move)
    assert line[len(line.moves)] == state and state.is_won
    assert list(line) == list(line.states())


def test_a_broken_line_names_its_first_bad_move(line3: Line) -> None:
    texts = line3.text().split()
    for bad_at in (0, 7, len(texts) - 1):
        broken = texts.copy()
        broken[bad_at] = "t1-t1" if bad_at else "w-f"
        with pytest.raises(BrokenLineError) as err:
            Line.parse(" ".join(broken), line3.start)
        assert err.value.index == bad_at + 1
        assert err.value.move == broken[bad_at]
    # A move legal elsewhere but not here: the first one that does not play is named.
    with pytest.raises(BrokenLineError) as err:
        Line(line3.start, [*line3.moves[:5], Move.recycle()])
    assert err.value.index == 6


def test_a_state_shows_inline_with_its_legal_moves() -> None:
    state = deal(2)
    html = state._repr_html_()
    assert '<img src="data:image/svg+xml;base64,' in html  # shows in untrusted notebooks too
    for move in state.legal_moves:
        assert f">{move}</code>" in html
    assert state._repr_svg_().startswith("<svg")


# -- opening a line ----------------------------------------------------------------------------


def test_open_line_after_hint_shows_the_panel_without_changing_the_game(
    w: KlondikeWidget, line3: Line
) -> None:
    assert w.view["lines"] is True
    intent(w, "hint")
    before = game_snapshot(w)
    intent(w, "open_line")
    assert w.line == line3 and w.line_index == 0
    assert w.view["status"] == "analysis" and w.view["legal"] == {} and w.view["hint"] is None
    assert w.view["line"]["total"] == len(line3.moves) and w.view["line"]["playable"] is True
    published = w.line_view
    assert published["moves"] == line3.text() and published["first"] == 0
    assert len(published["words"]) == min(WINDOW, len(line3.moves))
    for i, words in enumerate(published["words"]):
        assert words == describe_move(line3[i], line3.moves[i], "en")
    assert published["words"][0] == "tap the stock"
    assert game_snapshot(w) == before and w.view["moves"] == 0


def test_show_line_takes_a_line_a_solver_result_or_moves(w: KlondikeWidget, line3: Line) -> None:
    result = solve(w.game.state, Limit(seconds=30))
    assert w.show_line(result) == line3
    assert w.show_line([str(m) for m in line3.moves[:4]]).moves == line3.moves[:4]
    assert w.show_line(line3, index=5) is line3 and w.line_index == 5
    with pytest.raises(TypeError):
        w.show_line(42)
    before = everything(w)
    with pytest.raises(BrokenLineError) as err:
        w.show_line(["s", "t1-t1"])
    assert err.value.index == 2
    with pytest.raises(ValueError, match="at least one move"):
        w.show_line([])
    with pytest.raises(IndexError):
        w.show_line(line3, index=len(line3))
    assert everything(w) == before


# -- stepping ----------------------------------------------------------------------------------


def test_stepping_shows_the_line_and_never_counts(w: KlondikeWidget, line3: Line) -> None:
    w.play(line3.moves[0])
    w.undo()  # two actions on the counter, back at the start
    intent(w, "open_line")
    game = game_snapshot(w)
    ident = w.view["line"]["id"]
    total = len(line3.moves)
    for k in (1, 2, 3, 2, 1, 0, total, total - 1, 60, 17, 0):
        seq = w.view["seq"]
        intent(w, "step", line=ident, index=k)
        assert w.line_index == k and w.view["line"]["k"] == k and w.view["seq"] > seq
        assert shown_board(w.view) == board_of(line3[k])
        nxt = w.view["line"]["next"]
        if k < total:
            src, count, dst = move_target(line3.moves[k], line3[k])
            assert nxt == {"src": src, "n": count, "dst": dst}
        else:
            assert nxt is None
        first = w.line_view["first"]
        assert first <= k <= first + len(w.line_view["words"]) or k == total
        assert w.view["moves"] == 2 and game_snapshot(w) == game
    assert w.game.moves_count == 2


def test_python_drives_the_panel(w: KlondikeWidget, line3: Line) -> None:
    w.line = line3
    assert w.step(-1) == line3.end and w.line_index == len(line3.moves)
    w.line_index = 4
    assert w.view["line"]["k"] == 4 and shown_board(w.view) == board_of(line3[4])
    with pytest.raises(traitlets.TraitError):
        w.line_index = len(line3)
    with pytest.raises(IndexError):
        w.step(len(line3))
    with pytest.raises(TypeError):
        w.step("3")  # type: ignore[arg-type]
    assert w.line_index == 4
    w.line = None
    assert w.line is None and w.view["status"] == "playing" and w.line_view == {}
    with pytest.raises(ValueError, match="no line"):
        w.step(1)
    with pytest.raises(traitlets.TraitError):
        w.line_index = 1


def test_a_game_change_from_python_closes_the_panel(w: KlondikeWidget, line3: Line) -> None:
    w.show_line(line3, index=3)
    w.play(line3.moves[0])
    assert w.line is None and w.view["status"] == "playing" and w.game.moves_count == 1
    for change in (w.undo, lambda: w.finish(animate=False), w.restart, lambda: w.new_deal(5)):
        w.show_line(Line(line3.start, ["s"]))  # from the start: it opens on a won game too
        change()
        assert w.line is None and w.line_view == {} and w.view["line"] is None


def test_words_follow_the_language_and_the_window_follows_the_step(
    w: KlondikeWidget, line3: Line
) -> None:
    w.show_line(line3)
    w.locale = "ar"
    assert w.line_view["words"][0] == describe_move(line3[0], line3.moves[0], "ar")
    w.step(120)
    first = w.line_view["first"]
    assert 0 < first <= 120 < first + WINDOW
    for i, words in enumerate(w.line_view["words"]):
        assert words == describe_move(line3[first + i], line3.moves[first + i], "ar")


def test_published_updates_stay_small(line3: Line, line5d3: Line) -> None:
    for line in (line3, line5d3):
        w = KlondikeWidget(Game(line.start), analyse=False, locale="ar")
        w.show_line(line)
        sizes = [size(w.view), size(w.line_view)]
        for k in range(len(line)):
            w.step(k)
            sizes += [size(w.view), size(w.line_view)]
        for k in range(len(line) - 1, -1, -7):
            w.step(k)
            sizes += [size(w.view), size(w.line_view)]
        assert max(sizes) < VIEW_LIMIT, max(sizes)
        w.close()


# -- play from here, back to the game ----------------------------------------------------------


def test_play_from_here_plays_the_moves_into_the_game(w: KlondikeWidget, line3: Line) -> None:
    w.play("s")
    w.undo()  # history: empty; counter: 2
    intent(w, "open_line")
    ident = w.view["line"]["id"]
    intent(w, "step", line=ident, index=9)
    intent(w, "play_from_here", line=ident, index=9)
    assert w.line is None and w.view["status"] == "playing"
    assert w.game.history == line3.moves[:9] and w.game.state == line3[9]
    assert w.game.moves_count == 2 + 9 and w.view["moves"] == 11
    assert shown_board(w.view) == board_of(line3[9])
    assert w.analysis == "winnable"  # the rest of the line is known
    w.undo()  # undo takes a played move back
    assert w.game.state == line3[8] and w.game.moves_count == 12


def test_play_from_here_keeps_the_earlier_history(w: KlondikeWidget, line3: Line) -> None:
    w.play(line3.moves[0])
    w.play(line3.moves[1])
    w.show_line(line3.moves[2:6])
    w.step(3)
    assert w.play_from_here() == 3
    assert w.game.history == line3.moves[:5] and w.game.moves_count == 5


def test_back_to_game_changes_nothing(w: KlondikeWidget, line3: Line) -> None:
    w.play(line3.moves[0])
    game = game_snapshot(w)
    board = shown_board(w.view)
    intent(w, "open_line")
    intent(w, "step", line=w.view["line"]["id"], index=7)
    intent(w, "back_to_game")
    assert w.line is None and game_snapshot(w) == game and shown_board(w.view) == board
    assert w.view["status"] == "playing" and w.view["legal"] and w.line_view == {}


def test_an_old_line_cannot_be_played_from_here(w: KlondikeWidget, line3: Line) -> None:
    w.play(line3.moves[0])
    w.show_line(line3, index=4)  # starts one move back
    assert w.view["line"]["playable"] is False
    before = everything(w)
    intent(w, "play_from_here", line=w.view["line"]["id"], index=4)
    assert reply(w) == "reject.line_not_current"
    assert everything(w) == before
    with pytest.raises(ValueError, match="does not start"):
        w.play_from_here()
    assert everything(w) == before


def test_after_finish_the_played_line_can_be_stepped(w: KlondikeWidget, line3: Line) -> None:
    w.finish(animate=False)
    assert w.game.is_won and w.view["lines"] is True
    moves = w.game.moves_count
    intent(w, "open_line")
    assert w.line == line3 and w.view["status"] == "analysis"
    assert w.view["line"]["playable"] is False
    intent(w, "step", line=w.view["line"]["id"], index=50)
    assert shown_board(w.view) == board_of(line3[50]) and w.game.moves_count == moves
    intent(w, "back_to_game")
    assert w.view["status"] == "won"


# -- autoplay ----------------------------------------------------------------------------------


def _wait_for(cond: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert cond()


def test_autoplay_runs_to_the_end_and_pauses(w: KlondikeWidget, line3: Line) -> None:
    w.step_pace = 50
    w.show_line(line3.moves[:6])
    ident = w.view["line"]["id"]
    intent(w, "autoplay", line=ident, on=True)
    assert w.view["line"]["auto"] is True
    _wait_for(lambda: w.line_index == 6 and not w.view["line"]["auto"])
    assert shown_board(w.view) == board_of(line3[6]) and w.game.moves_count == 0
    # Started at the end it begins again; pause stops it where it is.
    w.step_pace = 400
    intent(w, "autoplay", line=ident, on=True)
    assert w.line_index == 0
    _wait_for(lambda: w.line_index >= 1)
    intent(w, "autoplay", line=ident, on=False)
    stopped = w.line_index
    time.sleep(0.9)
    assert w.line_index == stopped and w.view["line"]["auto"] is False
    # A manual step pauses it too.
    intent(w, "autoplay", line=ident, on=True)
    intent(w, "step", line=ident, index=0)
    time.sleep(0.9)
    assert w.line_index == 0


# -- refused intents ---------------------------------------------------------------------------


def test_open_line_says_why_when_no_line_is_known(line3: Line) -> None:
    w = KlondikeWidget(deal=3, analyse=False)
    w.send = Recorder()  # type: ignore[method-assign]
    assert w.view["lines"] is False
    intent(w, "open_line")
    assert reply(w) == "hint.unavailable.not_solved" and w.line is None
    for move in line3.moves:  # won by hand: no Finish line to show
        w.play(move)
    intent(w, "open_line")
    assert reply(w) == "hint.unavailable.game_over" and w.line is None
    w.close()


def test_analysis_intents_without_a_line_are_refused(w: KlondikeWidget) -> None:
    before = everything(w)
    for kind, fields in (
        ("step", {"line": 1, "index": 0}),
        ("autoplay", {"line": 1, "on": True}),
        ("play_from_here", {"line": 1, "index": 0}),
        ("back_to_game", {}),
    ):
        intent(w, kind, **fields)
        assert reply(w) == "reject.no_line", kind
        assert everything(w) == before


BAD_STEPS: list[tuple[dict[str, Any], str]] = [
    ({"kind": "step", "index": 1}, "malformed"),
    ({"kind": "step", "line": "{id}"}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": -1}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": "3"}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": True}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": 2.5}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": 1, "by": 1}, "malformed"),
    ({"kind": "step", "line": "{id}", "index": 10**6}, "step_out_of_range"),
    ({"kind": "step", "line": "{id}", "index": "{total+1}"}, "step_out_of_range"),
    ({"kind": "step", "line": "{old}", "index": 1}, "stale"),
    ({"kind": "autoplay", "line": "{id}", "on": "yes"}, "malformed"),
    ({"kind": "autoplay", "line": "{id}", "on": 1}, "malformed"),
    ({"kind": "autoplay", "line": "{old}", "on": True}, "stale"),
    ({"kind": "play_from_here", "line": "{id}"}, "malformed"),
    ({"kind": "play_from_here", "line": "{id}", "index": 4}, "stale"),  # shown is 2
    ({"kind": "play_from_here", "line": "{old}", "index": 2}, "stale"),
    ({"kind": "play_from_here", "line": "{id}", "index": 2, "seq": "{oldseq}"}, "stale"),
    ({"kind": "back_to_game", "line": "{id}"}, "malformed"),
    ({"kind": "set_step_pace", "pace": 10}, "malformed"),
    ({"kind": "move", "move": "s"}, "in_analysis"),
    ({"kind": "undo"}, "in_analysis"),
    ({"kind": "redo"}, "in_analysis"),
    ({"kind": "hint"}, "in_analysis"),
    ({"kind": "finish"}, "in_analysis"),
]


@pytest.mark.parametrize(("fields", "reason"), BAD_STEPS)
def test_bad_analysis_intents_are_refused_and_change_nothing(
    w: KlondikeWidget, line3: Line, fields: dict[str, Any], reason: str
) -> None:
    w.play(line3.moves[0])
    w.undo()
    w.show_line(line3.moves[:3])  # an older line
    old, oldseq = w.view["line"]["id"], w.view["seq"]
    w.show_line(line3, index=1)
    w.step(2)
    marks = {
        "{id}": w.view["line"]["id"],
        "{old}": old,
        "{oldseq}": oldseq,
        "{total+1}": len(line3.moves) + 1,
    }
    content = {"seq": w.view["seq"]}
    content.update({k: marks.get(v, v) if isinstance(v, str) else v for k, v in fields.items()})
    before = everything(w)
    w._handle_custom_msg(content, [])
    assert reply(w) == f"reject.{reason}"
    assert reply(w) in w.strings["strings"]
    assert everything(w) == before


def test_step_intents_of_every_language_have_words() -> None:
    from klondike_widget.i18n import available_locales, strings_for
    from klondike_widget.widget.protocol import REASONS

    for code in available_locales():
        table = strings_for(code)["strings"]
        for reason in REASONS:
            assert f"reject.{reason}" in table, (code, reason)


def test_line_view_narrates_steps_and_groups_tap_runs(w: KlondikeWidget, line3: Line) -> None:
    w.show_line(line3)
    lv = w.line_view
    assert len(lv["why"]) == len(lv["words"])
    assert any(lv["why"]) and all("{" not in t for t in lv["why"])
    runs = lv["runs"]
    assert runs, "a line found by the search has runs of taps"
    for start, length, text in runs:
        assert length >= 2 and all(
            m in ("s", "r") for m in line3.text().split()[start : start + length]
        )
        assert "{" not in text
    w.locale = "ar"
    assert len(json.dumps(w.line_view, ensure_ascii=False).encode()) < 3 * VIEW_LIMIT


def test_finish_waits_adapt_and_stay_within_ten_seconds(line3: Line) -> None:
    from klondike_widget.widget.pace import FINISH_SECONDS

    widget = KlondikeWidget(deal=3, solve=_known(line3))
    try:
        assert widget.wait() == "winnable"
        widget.finish()
        waits = list(widget._finish_waits)
        assert len(waits) == len(line3.moves) - 1  # the first wait is already scheduled
        assert sum(waits) <= FINISH_SECONDS
        assert min(waits) < max(waits)  # not one pace for every move
        widget.stop()
        assert not widget.finishing and widget._finish_waits == []
    finally:
        widget.close()
