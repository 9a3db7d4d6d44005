"""The table controller without a widget or a kernel: a PlainHost in, views and notices out."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.widget.host import PlainHost
from klondike_widget.widget.table import Table


def _solved_by_the_engine(state: GameState, seconds: float, cancel: threading.Event) -> Any:
    """The real solver behind the widget's ``solve(state, seconds, cancel)`` signature."""
    from klondike_widget.solver import Limit, solve

    result = solve(state, Limit(seconds=30))
    word = result.status.widget_word
    return word, tuple(result.moves)


def _unknown(
    state: GameState, seconds: float, cancel: threading.Event
) -> tuple[str, Sequence[Move]]:
    return "unknown", ()


@pytest.fixture
def host() -> PlainHost:
    return PlainHost()


@pytest.fixture
def table(host: PlainHost) -> Iterator[Table]:
    t = Table(host, deal=2, analyse=False, stats=False, solve=_unknown)
    t.open()
    yield t
    t.close()


def test_a_table_publishes_to_a_plain_host(table: Table, host: PlainHost) -> None:
    assert host.view["seq"] == 1 and host.view["moves"] == 0 and host.view["status"] == "playing"
    assert host.strings["meta"]["code"] == "en"
    table.play("t3-t2")
    assert (
        host.view["moves"] == 1 and host.view["cols"][1][1][-1] == table.game.state.columns[1][-1]
    )
    assert host.view["announce"]["text"].startswith("Eight of diamonds")


def test_intents_run_and_rejections_come_back_as_notices(table: Table, host: PlainHost) -> None:
    table.on_intent({"kind": "move", "seq": host.view["seq"], "move": "t3-t2"})
    assert table.game.moves_count == 1
    table.on_intent({"kind": "move", "seq": host.view["seq"], "move": "t1-t2"})
    assert host.sent[-1]["key"] == "reject.illegal_move" and table.game.moves_count == 1
    table.on_intent({"kind": "undo", "seq": 0, "cid": "v1"})
    assert table.game.moves_count == 2 and table.game.state == Game.new(deal=2).state
    table.on_intent({"kind": "set_draw", "seq": 0, "draw": 2})
    assert host.sent[-1]["key"] == "reject.malformed" and host.draw == 1


def test_settings_are_checked_and_observed_like_traits(table: Table, host: PlainHost) -> None:
    with pytest.raises(ValueError, match="draw must be one of"):
        host.draw = 2
    with pytest.raises(ValueError, match="draw must be one of"):
        table.new_deal(draw=True)  # type: ignore[arg-type]
    assert host.draw == 1 and table.game.deal_number == 2
    host.locale = "ar"  # the table reloads the texts and publishes
    assert host.strings["meta"]["dir"] == "rtl"
    table.play("t3-t2")
    assert any("\u0600" <= ch <= "\u06ff" for ch in host.view["announce"]["text"])  # Arabic
    seq = host.view["seq"]
    host.scoring = "vegas"
    assert host.view["score"]["mode"] == "vegas" and host.view["seq"] == seq


def test_finish_without_a_win_changes_nothing(table: Table, host: PlainHost) -> None:
    before = host.view
    with pytest.raises(ValueError, match="no winning line"):
        table.finisher.finish()
    assert table.game.moves_count == 0 and not table.finishing
    table.on_intent({"kind": "finish", "seq": host.view["seq"]})
    assert host.sent[-1]["key"] == "finish.unavailable.unknown"
    assert host.view["moves"] == before["moves"]


@pytest.mark.slow
def test_finish_plays_the_line_on_timers_outside_a_kernel() -> None:
    host = PlainHost(pace=0)
    table = Table(host, Game.new(deal=3), analyse=False, stats=False, solve=_solved_by_the_engine)
    table.open()
    total = table.finisher.finish()
    deadline = time.monotonic() + 60
    while table.finishing and time.monotonic() < deadline:
        time.sleep(0.02)
    with table.lock:
        assert table.game.is_won and table.game.moves_count == total
        assert host.view["status"] == "won" and not table.finishing
    table.close()


def test_the_desk_steps_through_a_line_without_changing_the_game(
    table: Table, host: PlainHost
) -> None:
    table.desk.show_line("s s t3-t2")
    ident = host.view["line"]["id"]
    table.on_intent({"kind": "step", "seq": 0, "line": ident, "index": 3})
    assert host.line_index == 3 and host.view["stock"] == 22 and table.game.moves_count == 0
    host.line_index = 1  # as the front end's slider does
    assert host.view["line"]["k"] == 1 and host.view["stock"] == 23
    table.on_intent({"kind": "play_from_here", "seq": host.view["seq"], "line": ident, "index": 1})
    assert table.game.moves_count == 1 and table.desk.panel is None and host.line_view == {}
