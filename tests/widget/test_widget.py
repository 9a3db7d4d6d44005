"""KlondikeWidget without a browser: intents in, traits and replies out.

Intents go through ipywidgets' own custom-message path (``_handle_custom_msg``), so these tests
also prove the dispatch is registered with ``on_msg``. The solver is replaced by small
stand-ins where a test needs a verdict at a chosen moment; one test uses the real solver.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from klondike_widget import Game, KlondikeWidget, Move
from klondike_widget import widget as widget_module
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import strings_for
from klondike_widget.widget.protocol import MAX_INTENT_BYTES, REASONS

WIN3 = Game.new(deal=3)  # deal 3 (draw 1) is won by the real solver in well under a second


class Recorder:
    """Stands in for ``widget.send``: keeps every message sent to the front end."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def __call__(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)

    @property
    def last(self) -> dict[str, Any]:
        return self.sent[-1]


def _line_of(deal: int) -> tuple[Move, ...]:
    from klondike_widget.solver import Limit, Status, solve

    result = solve(Game.new(deal=deal).state, Limit(seconds=30))
    assert result.status is Status.WON
    return tuple(result.moves)


@pytest.fixture(scope="module")
def line3() -> tuple[Move, ...]:
    return _line_of(3)


def _known(verdicts: dict[GameState, tuple[str, Sequence[Move]]]) -> Callable[..., Any]:
    """A stand-in solver answering from a table (``unknown`` for anything else)."""

    def solve(state: GameState, seconds: float, cancel: threading.Event) -> Any:
        return verdicts.get(state, ("unknown", ()))

    return solve


@pytest.fixture
def w() -> Iterator[KlondikeWidget]:
    widget = KlondikeWidget(deal=2, analyse=False)
    widget.send = Recorder()  # type: ignore[method-assign]
    yield widget
    widget.close()


def intent(w: KlondikeWidget, kind: str, **fields: Any) -> None:
    """Send an intent the way the front end does, against the current seq unless given."""
    content = {"kind": kind, "seq": w.view["seq"], **fields}
    w._handle_custom_msg(content, [])


def snapshot(w: KlondikeWidget) -> tuple[str, dict[str, Any]]:
    view = dict(w.view)
    view.pop("clock")
    return w.game.to_json(), view


def last_reply(w: KlondikeWidget) -> dict[str, Any]:
    sender = w.send
    assert isinstance(sender, Recorder)
    return sender.last


# -- construction and traits -------------------------------------------------------------------


def test_traits_after_construction(w: KlondikeWidget) -> None:
    assert w.game.deal_number == 2
    view = w.view
    assert view["deal"] == "2" and view["draw"] == 1 and view["moves"] == 0
    assert view["stock"] == 24 and view["wn"] == 0 and view["waste"] == []
    assert [c[0] for c in view["cols"]] == list(range(7))
    assert all(len(c[1]) == 1 for c in view["cols"])
    assert view["legal"]["s"] == [[0, "w", "s"]]
    assert view["status"] == "playing" and view["analysis"] is None
    assert w.strings == strings_for("en")
    assert len(w.deck) == 52 and w.deck[34] == ["9", "♥", 1]
    assert w.locale == "en" and w.draw == 1 and w.mirror == "auto"


def test_constructor_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="unknown locale"):
        KlondikeWidget(deal=1, locale="xx", analyse=False)
    with pytest.raises(TypeError):
        KlondikeWidget(game="t3-t2", analyse=False)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="either"):
        KlondikeWidget(Game.new(deal=1), deal=1, analyse=False)
    g = Game.new(deal=9, draw=3)
    w = KlondikeWidget(g, analyse=False)
    assert w.game is g and w.draw == 3 and w.view["draw"] == 3
    w.close()


def test_python_api_drives_the_view(w: KlondikeWidget) -> None:
    seq = w.view["seq"]
    w.play("t3-t2")
    assert w.view["seq"] == seq + 1 and w.view["moves"] == 1
    assert w.view["announce"]["text"].startswith("Eight of diamonds")
    w.undo()
    assert w.view["moves"] == 2 and w.view["redo"] is True
    assert w.view["announce"]["text"].startswith("Undone:")
    w.redo()
    assert w.game.moves_count == 3 and str(w.game.history[-1]) == "t3-t2"
    w.new_deal(7, draw=3)
    assert w.game.deal_number == 7 and w.game.rules.draw == 3 and w.draw == 3
    assert w.view["deal"] == "7" and w.view["moves"] == 0
    w.play("s")
    assert len(w.view["waste"]) == 3 and w.view["wn"] == 3
    w.restart()
    assert w.game.moves_count == 0 and w.view["wn"] == 0
    big = 2**64 - 1
    w.new_deal(big)
    assert w.view["deal"] == str(big)  # as text: JavaScript numbers would lose digits


# -- intents that work -------------------------------------------------------------------------


def test_move_undo_redo_intents(w: KlondikeWidget) -> None:
    intent(w, "move", move="t3-t2")
    assert str(w.game.history[-1]) == "t3-t2"
    intent(w, "undo")
    assert w.game.history == () and w.game.moves_count == 2
    intent(w, "redo")
    assert [str(m) for m in w.game.history] == ["t3-t2"]
    intent(w, "move", move="s")
    assert w.view["wn"] == 1


def test_settings_intents(w: KlondikeWidget) -> None:
    intent(w, "move", move="s")
    intent(w, "set_draw", draw=3)
    assert w.draw == 3 and w.game.rules.draw == 1  # a game under way: from the next deal
    intent(w, "new_deal", deal="123")
    assert w.game.deal_number == 123 and w.game.rules.draw == 3
    intent(w, "new_deal")
    assert w.game.deal_number != 123
    intent(w, "set_locale", locale="ar")
    assert w.locale == "ar" and w.strings["meta"]["dir"] == "rtl"
    intent(w, "set_mirror", mirror="off")
    assert w.mirror == "off"
    intent(w, "set_pace", pace=40)
    assert w.pace == 40
    intent(w, "restart")
    assert w.game.moves_count == 0


def test_locale_switch_translates_announcements_and_hint(line3: tuple[Move, ...]) -> None:
    w = KlondikeWidget(deal=3, solve=_known({WIN3.state: ("winnable", line3)}))
    w.wait()
    w.hint()
    english = w.view["hint"]["text"]
    w.locale = "pl"
    assert w.view["hint"]["text"] != english
    w.play(line3[0])
    assert w.view["announce"]["text"] != ""
    assert w.strings["meta"]["code"] == "pl"
    w.close()


# -- intents that are refused ------------------------------------------------------------------


def _nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep (too deep for ``json.dumps``)."""
    out: list[Any] = []
    for _ in range(depth):
        out = [out]
    return out


BAD_INTENTS: list[tuple[Any, str]] = [
    ("not a dict", "malformed"),
    (["move", "t3-t2"], "malformed"),
    ({}, "malformed"),
    ({"kind": 5, "seq": 1}, "malformed"),
    ({"kind": "fly", "seq": 1}, "unknown_intent"),
    ({"kind": "__init__", "seq": 1}, "unknown_intent"),
    ({"kind": "move", "move": "t3-t2"}, "malformed"),  # no seq
    ({"kind": "move", "seq": "1", "move": "t3-t2"}, "malformed"),
    ({"kind": "move", "seq": True, "move": "t3-t2"}, "malformed"),
    ({"kind": "move", "seq": -1, "move": "t3-t2"}, "malformed"),
    ({"kind": "move", "seq": 1.5, "move": "t3-t2"}, "malformed"),
    ({"kind": "move", "seq": 1}, "malformed"),
    ({"kind": "move", "seq": 1, "move": 32}, "malformed"),
    ({"kind": "move", "seq": 1, "move": ""}, "malformed"),
    ({"kind": "move", "seq": 1, "move": "t3-t2", "extra": 1}, "malformed"),
    ({"kind": "move", "seq": 1, "move": "x" * 5000}, "malformed"),
    ({"kind": "move", "seq": 1, "move": "t3-t2", "cid": "c" * 500}, "malformed"),
    ({"kind": "undo", "seq": 1, "pad": ["x"] * MAX_INTENT_BYTES}, "malformed"),
    ({"kind": "undo", "seq": 1, "pad": _nested(100_000)}, "malformed"),
    ({"kind": "undo", "seq": 1, "pad": float("nan")}, "malformed"),
    ({"kind": "set_draw", "seq": 1, "draw": True}, "malformed"),
    ({"kind": "set_draw", "seq": 1, "draw": 2}, "malformed"),
    ({"kind": "set_draw", "seq": 1, "draw": "3"}, "malformed"),
    ({"kind": "set_draw", "seq": 1, "draw": 3.0}, "malformed"),  # 3.0 == 3, but not a draw mode
    ({"kind": "set_draw", "seq": 1, "draw": 1.0}, "malformed"),
    ({"kind": "set_pace", "seq": 1, "pace": 100.0}, "malformed"),
    ({"kind": "undo", "seq": 1, 7: 1, "x": 2}, "malformed"),  # keys of mixed types
    ({"kind": "set_locale", "seq": 1, "locale": "fr"}, "unknown_locale"),
    ({"kind": "set_locale", "seq": 1, "locale": None}, "malformed"),
    ({"kind": "set_mirror", "seq": 1, "mirror": "sideways"}, "malformed"),
    ({"kind": "set_pace", "seq": 1, "pace": -5}, "malformed"),
    ({"kind": "set_pace", "seq": 1, "pace": 10**9}, "malformed"),
    ({"kind": "new_deal", "seq": 1, "deal": "abc"}, "invalid_deal_number"),
    ({"kind": "new_deal", "seq": 1, "deal": -1}, "invalid_deal_number"),
    ({"kind": "new_deal", "seq": 1, "deal": 2**64}, "invalid_deal_number"),
    ({"kind": "new_deal", "seq": 1, "deal": "1" * 30}, "invalid_deal_number"),
    ({"kind": "new_deal", "seq": 1, "deal": 3.0}, "invalid_deal_number"),
    ({"kind": "move", "seq": 1, "move": "t9-t2"}, "illegal_move"),
    ({"kind": "move", "seq": 1, "move": "t1-t2"}, "illegal_move"),
    ({"kind": "move", "seq": 1, "move": "r"}, "illegal_move"),
    ({"kind": "move", "seq": 1, "move": "w-f"}, "illegal_move"),
    ({"kind": "undo", "seq": 1}, "nothing_to_undo"),
    ({"kind": "redo", "seq": 1}, "nothing_to_redo"),
]


@pytest.mark.parametrize(("content", "reason"), BAD_INTENTS)
def test_bad_intents_are_refused_with_a_reason(
    w: KlondikeWidget, content: Any, reason: str
) -> None:
    before = snapshot(w)
    settings = (w.locale, w.draw, w.mirror, w.pace)
    w._handle_custom_msg(content, [])
    reply = last_reply(w)
    assert reply["kind"] == "notice" and reply["key"] == f"reject.{reason}"
    assert reason in REASONS
    assert reply["key"] in w.strings["strings"]  # the front end can say it in every language
    assert snapshot(w) == before
    assert (w.locale, w.draw, w.mirror, w.pace) == settings


def test_binary_buffers_are_refused(w: KlondikeWidget) -> None:
    before = snapshot(w)
    w._handle_custom_msg({"kind": "undo", "seq": 1}, [b"\x00" * 10])
    assert last_reply(w)["key"] == "reject.malformed"
    assert snapshot(w) == before


def test_stale_intents_are_refused(w: KlondikeWidget) -> None:
    old = w.view["seq"]
    w.play("s")  # the state moved on (e.g. from Python or another view)
    before = snapshot(w)
    for content in (
        {"kind": "move", "seq": old, "move": "t3-t4"},  # never legal
        {"kind": "hint", "seq": old},
        {"kind": "finish", "seq": old},
        {"kind": "restart", "seq": old},
        {"kind": "move", "seq": old + 100, "move": "t3-t2"},
    ):
        w._handle_custom_msg(content, [])
        assert last_reply(w)["key"] == "reject.stale"
        assert snapshot(w) == before
    # Settings do not depend on the position: an older seq is fine for them.
    w._handle_custom_msg({"kind": "set_pace", "seq": old, "pace": 10}, [])
    assert w.pace == 10


def test_fast_clicks_made_on_an_older_view_all_count(w: KlondikeWidget) -> None:
    old = w.view["seq"]
    # Thirty stock taps sent on the same view (a slow kernel): each one counts, in order, and
    # the 25th, made when the view still showed cards on the stock, turns the waste over.
    for _ in range(30):
        w._handle_custom_msg({"kind": "move", "seq": old, "move": "s"}, [])
    assert w.game.moves_count == 30 and w.last_notice is None
    assert [str(m) for m in w.game.history] == ["s"] * 24 + ["r"] + ["s"] * 5
    # A move that still takes the same cards onto the same card counts too...
    seen = w.view["seq"]
    w._handle_custom_msg({"kind": "move", "seq": seen, "move": "s"}, [])
    w._handle_custom_msg({"kind": "move", "seq": seen, "move": "t3-t2"}, [])
    assert str(w.game.history[-1]) == "t3-t2" and w.game.moves_count == 32
    # ...but not one that was played already, or whose cards changed since.
    w._handle_custom_msg({"kind": "move", "seq": seen, "move": "t3-t2"}, [])
    assert w.game.moves_count == 32 and last_reply(w)["key"] == "reject.stale"
    w.restart()
    for _ in range(5):
        w.play("s")
    seen = w.view["seq"]  # the view shows the waste card that can go onto column 3
    assert "w-t3" in [str(m) for m in w.game.legal_moves]
    w._handle_custom_msg({"kind": "move", "seq": seen, "move": "s"}, [])
    w._handle_custom_msg({"kind": "move", "seq": seen, "move": "w-t3"}, [])
    assert last_reply(w)["key"] == "reject.stale" and w.game.moves_count == 6
    # Undo twice on the same view: both count.
    seq = w.view["seq"]
    w._handle_custom_msg({"kind": "undo", "seq": seq}, [])
    w._handle_custom_msg({"kind": "undo", "seq": seq}, [])
    assert w.game.moves_count == 8 and len(w.game.history) == 4


def test_draw_change_applies_at_once_before_the_first_move(w: KlondikeWidget) -> None:
    intent(w, "set_draw", draw=3)
    assert w.game.rules.draw == 3 and w.game.deal_number == 2 and w.game.moves_count == 0
    intent(w, "move", move="s")
    intent(w, "set_draw", draw=1)
    assert w.game.rules.draw == 3 and w.draw == 1  # a game under way keeps its draw...
    reply = last_reply(w)
    assert reply["key"] == "notice.draw_next_deal"  # ...and says so
    assert reply["args"]["mode"] == strings_for("en")["strings"]["option.draw.one"]


def test_draw3_fan_shows_what_is_left_of_the_last_group() -> None:
    w = KlondikeWidget(deal=8, draw=3, analyse=False)
    w.play("s")
    w.play("s")
    assert len(w.view["waste"]) == 3 and w.view["wn"] == 6
    top = w.view["waste"][-1]
    w.play("w-t5")
    assert w.view["wn"] == 5 and top not in w.view["waste"]
    assert w.view["waste"] == list(w.game.state.waste[3:5])  # the two under it, not three
    w.undo()
    assert w.view["waste"][-1] == top and len(w.view["waste"]) == 3
    w.close()


def test_hint_asked_while_solving_shows_when_the_line_arrives(line3: tuple[Move, ...]) -> None:
    gate = threading.Event()

    def slow(state: Any, seconds: float, cancel: Any) -> tuple[str, tuple[Move, ...]]:
        gate.wait(10)
        return ("winnable", line3)

    w = KlondikeWidget(deal=3, solve=slow)
    w.send = Recorder()  # type: ignore[method-assign]
    intent(w, "hint")
    assert last_reply(w)["key"] == "hint.unavailable.pending" and w.view["hint"] is None
    gate.set()
    w.wait()
    assert w.view["hint"] is not None and w.view["hint"]["src"]
    w.close()


def test_rejections_echo_the_sender_id(w: KlondikeWidget) -> None:
    w._handle_custom_msg({"kind": "fly", "seq": 0, "cid": "view-1"}, [])
    assert last_reply(w)["cid"] == "view-1"
    # A malformed cid is not echoed.
    w._handle_custom_msg({"kind": "fly", "seq": 0, "cid": 7}, [])
    assert last_reply(w)["cid"] is None


def test_a_crash_in_a_handler_reaches_nobody_as_a_traceback(
    w: KlondikeWidget, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(_self: KlondikeWidget, **_: Any) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setitem(widget_module._HANDLERS, "undo", boom)  # type: ignore[index]
    before = snapshot(w)
    intent(w, "undo")
    assert last_reply(w)["key"] == "error.generic"
    assert snapshot(w) == before


def test_game_over_and_busy(line3: tuple[Move, ...]) -> None:
    w = KlondikeWidget(deal=3, pace=5000, solve=_known({WIN3.state: ("winnable", line3)}))
    w.send = Recorder()  # type: ignore[method-assign]
    assert w.wait() == "winnable"
    intent(w, "finish")
    assert w.finishing and w.view["status"] == "finishing" and w.view["legal"] == {}
    before = snapshot(w)
    for kind, fields in (("move", {"move": "s"}), ("undo", {}), ("hint", {}), ("finish", {})):
        intent(w, kind, **fields)
        assert last_reply(w)["key"] == "reject.busy"
    assert snapshot(w) == before
    intent(w, "stop")
    assert not w.finishing and w.view["status"] == "playing"
    w.finish(animate=False)
    assert w.game.is_won and w.view["status"] == "won" and w.view["legal"] == {}
    intent(w, "move", move="s")
    assert last_reply(w)["key"] == "reject.game_over"
    w.close()


# -- analysis in the background ----------------------------------------------------------------


def test_status_hint_and_finish_unavailable_reasons(w: KlondikeWidget) -> None:
    intent(w, "hint")
    assert last_reply(w)["key"] == "hint.unavailable.not_solved"
    assert w.view["finish"] == "finish.unavailable.not_solved"
    intent(w, "finish")
    assert last_reply(w)["key"] == "finish.unavailable.not_solved"

    lost = KlondikeWidget(deal=2, solve=_known({Game.new(deal=2).state: ("unwinnable", ())}))
    lost.send = Recorder()  # type: ignore[method-assign]
    assert lost.wait() == "unwinnable"
    assert lost.view["analysis"] == "unwinnable"
    assert lost.view["finish"] == "finish.unavailable.no_win"
    intent(lost, "hint")
    assert last_reply(lost)["key"] == "hint.unavailable.no_win"
    with pytest.raises(ValueError, match="no winning line"):
        lost.finish()
    lost.play("s")  # unknown to the stand-in
    assert lost.wait() == "unknown"
    assert lost.view["finish"] == "finish.unavailable.unknown"
    lost.close()


def test_hint_and_finish_follow_the_solver_line(line3: tuple[Move, ...]) -> None:
    w = KlondikeWidget(deal=3, pace=0, solve=_known({WIN3.state: ("winnable", line3)}))
    w.send = Recorder()  # type: ignore[method-assign]
    assert w.wait() == "winnable" and w.view["finish"] is None
    intent(w, "hint")
    hint = w.view["hint"]
    assert hint is not None and hint["text"]
    # Following the hint keeps a known verdict: no new search is needed.
    w.play(line3[0])
    assert w.analysis == "winnable" and w.view["hint"] is None
    n = w.finish()  # animated, on timer threads (no kernel here)
    assert n == len(line3) - 1
    deadline = time.monotonic() + 30
    # The last move lands before Finish publishes it and stops: wait for both.
    while (w.finishing or w.view["status"] != "won") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert w.game.is_won and not w.finishing
    assert w.game.moves_count == len(line3)  # every move of Finish counts
    assert w.view["status"] == "won" and w.view["clock"]["run"] is False
    w.close()


def test_a_late_verdict_never_lands_on_a_newer_position() -> None:
    release = threading.Event()
    start = Game.new(deal=2).state

    def slow(state: GameState, seconds: float, cancel: threading.Event) -> Any:
        if state == start:
            release.wait(10)
            return ("unwinnable", ())
        return ("unknown", ())

    w = KlondikeWidget(deal=2, solve=slow)
    assert w.analysis == "solving"
    w.play("s")  # cancels the search of the start position
    release.set()
    assert w.wait() == "unknown"
    time.sleep(0.1)
    assert w.view["analysis"] == "unknown"
    w.close()


def test_real_solver_finishes_a_deal() -> None:
    w = KlondikeWidget(deal=3, solve_seconds=20)
    assert w.wait(60) == "winnable"
    moves = w.finish(animate=False)
    assert w.game.is_won and w.game.moves_count == moves
    w.close()


# -- size of the published view ----------------------------------------------------------------


def test_view_stays_small_over_a_whole_game(line3: tuple[Move, ...]) -> None:
    w = KlondikeWidget(deal=3, analyse=False)
    sizes = []
    for move in line3:
        w.play(move)
        sizes.append(len(json.dumps(w.view, ensure_ascii=False).encode("utf-8")))
    assert max(sizes) < 8 * 1024
    w.close()
