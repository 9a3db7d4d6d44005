"""The widget's scoring, statistics, one-click targets, auto-complete and safe-card autoplay,
without a browser: intents in, traits out (klondike_widget.play through KlondikeWidget)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from klondike_widget import Game, KlondikeWidget
from klondike_widget.play.assist import one_click_moves, safe_foundation_move
from klondike_widget.play.stats import Statistics
from tests.play_positions import position


class Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def __call__(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)


def intent(w: KlondikeWidget, kind: str, **fields: Any) -> None:
    w._handle_custom_msg({"kind": kind, "seq": w.view["seq"], **fields}, [])


def notices(w: KlondikeWidget) -> list[str]:
    sender = w.send
    assert isinstance(sender, Recorder)
    return [m["key"] for m in sender.sent if m.get("kind") == "notice"]


@pytest.fixture
def store(tmp_path: Path) -> Statistics:
    return Statistics(tmp_path / "statistics.jsonl")


@pytest.fixture
def make(store: Statistics) -> Iterator[Any]:
    made: list[KlondikeWidget] = []

    def build(**kwargs: Any) -> KlondikeWidget:
        kwargs.setdefault("analyse", False)
        kwargs.setdefault("stats", store)
        if "game" not in kwargs:
            kwargs.setdefault("deal", 2)
        w = KlondikeWidget(**kwargs)
        w.send = Recorder()  # type: ignore[method-assign]
        made.append(w)
        return w

    yield build
    for w in made:
        w.close()


def near_win() -> Game:
    return Game(position([["Ks"]], foundations=(13, 13, 13, 12)))


def settled(w: KlondikeWidget) -> bool:
    """True once Finish/auto-complete has played its last move and everything after it is done
    (the step runs under the widget's lock)."""
    with w._lock:
        return w.game.is_won and not w.finishing


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


# -- scoring ---------------------------------------------------------------------------------


def test_the_view_shows_the_score_of_the_chosen_scoring(make: Any) -> None:
    w = make()
    assert w.view["score"] == {"mode": "standard", "value": 0, "total": None}
    intent(w, "move", move="t3-t2")  # a card turned face up: +5
    assert w.view["score"]["value"] == 5
    intent(w, "set_scoring", scoring="vegas")
    assert w.scoring == "vegas" and w.view["score"] == {
        "mode": "vegas",
        "value": -52,
        "total": None,
    }
    intent(w, "set_scoring", scoring="none")
    assert w.view["score"] is None
    intent(w, "set_scoring", scoring="golf")
    assert notices(w)[-1] == "reject.malformed" and w.scoring == "none"


def test_undo_gives_the_points_back(make: Any) -> None:
    w = make()
    intent(w, "move", move="t3-t2")
    intent(w, "undo")
    assert w.view["score"]["value"] == 0


def test_cumulative_vegas_adds_the_recorded_games(make: Any, store: Statistics) -> None:
    w = make(game=near_win())
    w.scoring = "vegas"
    w.vegas_cumulative = True
    intent(w, "move", move="t1-f")  # won: -52 + 5
    assert w.view["score"] == {"mode": "vegas", "value": -47, "total": -47}
    w.new_deal(5)
    assert w.view["score"]["total"] == -47 - 52  # the recorded game plus this one's ante
    intent(w, "set_option", name="vegas_cumulative", on=False)
    assert w.view["score"]["total"] is None


# -- statistics ------------------------------------------------------------------------------


def test_a_game_is_recorded_at_its_first_move_and_lost_when_replaced(
    make: Any, store: Statistics
) -> None:
    w = make()
    assert store.records() == []  # no action yet
    intent(w, "move", move="s")
    [open_game] = store.records()
    assert open_game.outcome == "open" and open_game.deal == "2"
    assert w.stats_view["rows"][0]["played"] == 0  # the game on the table is in progress
    intent(w, "restart")
    [lost] = store.records()
    assert lost.outcome == "lost" and lost.moves == 1
    assert w.stats_view["rows"][0]["played"] == 1 and w.stats_view["rows"][0]["lost"] == 1


def test_a_won_game_records_its_time_moves_and_scores(make: Any, store: Statistics) -> None:
    w = make(game=near_win())
    intent(w, "move", move="t1-f")
    [won] = store.records()
    assert (won.outcome, won.moves, won.vegas) == ("won", 1, -47)
    assert won.standard >= 10 and won.ended is not None
    row = w.stats_view["rows"][0]
    assert (row["won"], row["streak"], row["fewest_moves"]) == (1, 1, 1)


def test_a_game_finished_by_finish_counts_as_won_with_help(make: Any, store: Statistics) -> None:
    game = near_win()
    line = (game.state.parse_move("t1-f"),)
    w = make(game=game, solve=lambda state, seconds, cancel: ("winnable", line))
    w.finish(animate=False)
    assert w.game.is_won
    [record] = store.records()
    assert record.outcome == "won_with_help"
    row = w.stats_view["rows"][0]
    assert (row["won"], row["won_with_help"], row["fewest_moves"]) == (0, 1, None)


def test_finish_through_the_intent_counts_as_help_too(make: Any, store: Statistics) -> None:
    game = near_win()
    line = (game.state.parse_move("t1-f"),)
    w = make(game=game, pace=0, analyse=True, solve=lambda s, sec, c: ("winnable", line))
    w.wait(10)
    intent(w, "finish")
    wait_for(lambda: settled(w))
    assert [r.outcome for r in store.records()] == ["won_with_help"]


def test_statistics_survive_a_new_widget_on_the_same_file(make: Any, store: Statistics) -> None:
    first = make(game=near_win())
    intent(first, "move", move="t1-f")
    first.new_deal(9)
    intent(first, "move", move="s")
    first.new_deal(10)
    second = make()  # a restarted kernel: a new widget reading the same file
    row = second.statistics[0]
    assert (row["played"], row["won"], row["lost"]) == (2, 1, 1)


def test_open_stats_rereads_what_another_kernel_wrote(make: Any, store: Statistics) -> None:
    w = make()
    other = make(game=near_win())
    other.play("t1-f")
    assert w.stats_view["rows"][0]["won"] == 0  # not re-read yet
    intent(w, "open_stats")
    assert w.stats_view["rows"][0]["won"] == 1


def test_reset_stats_forgets_games_but_not_the_one_in_play(make: Any, store: Statistics) -> None:
    w = make(game=near_win())
    w.play("t1-f")
    w.new_deal(4)
    intent(w, "move", move="s")
    intent(w, "reset_stats")
    assert w.stats_view["rows"][0]["played"] == 0
    assert [r.outcome for r in store.records()] == ["open"]  # the game on the table
    intent(w, "reset_stats", draw=2)
    assert notices(w)[-1] == "reject.malformed"
    with pytest.raises(ValueError, match="draw"):
        w.reset_stats(2)


def test_statistics_can_be_off(make: Any, tmp_path: Path) -> None:
    w = make(stats=False)
    w.play("s")
    assert w.stats_view["off"] is True and w.statistics == []
    with pytest.raises(TypeError):
        KlondikeWidget(deal=1, analyse=False, stats="yes")  # type: ignore[arg-type]


def test_an_unwritable_statistics_file_never_stops_the_game(make: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    w = make(stats=Statistics(blocker / "statistics.jsonl"))  # its folder is a file
    intent(w, "move", move="s")
    assert w.game.moves_count == 1
    assert w.stats_view["error"]


# -- one-click targets -----------------------------------------------------------------------


def test_the_view_publishes_the_one_click_targets(make: Any) -> None:
    w = make()
    assert w.one_click is True
    assert w.view["quick"] == one_click_moves(w.game.state)
    assert w.view["quick"]["t4"] == [[1, "t4-f"]]
    intent(w, "set_option", name="one_click", on=False)
    assert w.one_click is False and w.view["quick"] == {}
    intent(w, "set_option", name="one_click", on="yes")
    assert notices(w)[-1] == "reject.malformed"


def test_no_one_click_targets_while_a_solver_line_is_open(make: Any) -> None:
    w = make()
    w.show_line(["s"])
    assert w.view["quick"] == {}


# -- auto-complete ---------------------------------------------------------------------------


def _all_face_up() -> Game:
    return Game(
        position(
            [["Kc", "Qd"], ["Kd", "Qc"], ["Kh"], ["Ks"]], foundations=(11, 11, 12, 12), rest="waste"
        )
    )


def test_auto_complete_is_offered_once_nothing_is_hidden_and_the_stock_is_empty(
    make: Any,
) -> None:
    assert make().view["auto_complete"] is False
    w = make(game=_all_face_up(), pace=0)
    assert w.view["auto_complete"] is True
    intent(w, "auto_complete")
    wait_for(lambda: settled(w))
    assert w.view["status"] == "won"


def test_a_game_won_by_auto_complete_is_the_players_own(make: Any, store: Statistics) -> None:
    w = make(game=_all_face_up(), pace=0)
    w.auto_complete()
    wait_for(lambda: settled(w))
    assert [r.outcome for r in store.records()] == ["won"]


def test_auto_complete_when_not_offered_is_refused_and_changes_nothing(make: Any) -> None:
    w = make()
    before = w.game.to_json()
    intent(w, "auto_complete")
    assert notices(w)[-1] == "reject.auto_complete_unavailable"
    assert w.game.to_json() == before


# -- safe cards ------------------------------------------------------------------------------


def test_safe_cards_go_up_by_themselves_only_when_asked(make: Any) -> None:
    w = make()
    assert w.auto_safe is False
    intent(w, "move", move="s")
    assert w.game.state.foundations == (0, 0, 0, 0)  # the aces on t4 and t6 wait
    intent(w, "set_option", name="auto_safe", on=True)
    intent(w, "move", move="s")
    # both aces went up after the player's move, and the ace they uncovered
    assert [str(m) for m in w.game.history[1:]] == ["s", "t4-f", "t6-f", "t6-f"]
    assert safe_foundation_move(w.game.state) is None
    count = w.game.moves_count
    intent(w, "undo")  # undo takes back one automatic move and triggers none
    assert sum(w.game.state.foundations) == 2 and w.game.moves_count == count + 1


def test_the_lock_is_held_while_options_change(make: Any) -> None:
    w = make()
    done = threading.Event()

    def flip() -> None:
        for _ in range(20):
            w.one_click = not w.one_click
        done.set()

    t = threading.Thread(target=flip)
    t.start()
    t.join(10)
    assert done.is_set() and w.view["quick"] == (
        one_click_moves(w.game.state) if w.one_click else {}
    )


def test_the_front_end_cannot_write_the_statistics_panel(make: Any) -> None:
    w = make(game=near_win())
    w.play("t1-f")
    before = w.stats_view
    w.set_state({"stats_view": {"rows": [], "skipped": 0, "error": None, "off": False}})
    assert w.stats_view == before and before["rows"][0]["won"] == 1
    w.set_state({"one_click": False})  # a setting, which the front end may change
    assert w.one_click is False
