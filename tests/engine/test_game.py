"""Game: play, undo, redo, the counter, saving and loading, tampered saves."""

import json

import pytest

from klondike_widget import (
    Game,
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    Move,
)
from klondike_widget.engine.deals import deal


def played_game() -> Game:
    g = Game.new(deal=2, draw=1)
    for text in ["t3-t2", "s", "s", "s"]:
        g.play(text)
    g.undo()
    return g


def test_play_undo_redo_and_counter() -> None:
    g = Game.new(deal=2)
    start = g.state
    g.play("t3-t2")
    after = g.state
    assert g.undo() == Move.parse("t3-t2")
    assert g.state == start
    assert g.can_redo
    assert not g.can_undo
    assert g.redo() == Move.parse("t3-t2")
    assert g.state == after
    assert g.moves_count == 3  # play, undo, redo: the counter never goes down


def test_nothing_to_undo_or_redo_changes_nothing() -> None:
    g = Game.new(deal=2)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        g.undo()
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        g.redo()
    assert g.moves_count == 0


def test_illegal_and_unparsable_moves_change_nothing() -> None:
    g = played_game()
    before = g.to_json()
    with pytest.raises(IllegalMoveError):
        g.play("w-f")
    with pytest.raises(InvalidMoveError):
        g.play("t0-t9")
    with pytest.raises(InvalidMoveError):
        g.play(42)  # type: ignore[arg-type]
    assert g.to_json() == before


def test_a_new_move_clears_redo_but_replaying_the_undone_move_keeps_it() -> None:
    g = Game.new(deal=2)
    g.play("s")
    g.play("s")
    g.undo()
    g.undo()
    assert len(g.redo_stack) == 2
    g.play("s")  # the same as the next redo: the rest of the redo stack survives
    assert len(g.redo_stack) == 1
    g.play("t3-t2")
    assert not g.can_redo


def test_json_round_trip_keeps_everything() -> None:
    g = played_game()
    h = Game.from_json(g.to_json())
    assert h == g
    assert h.history == g.history
    assert h.redo_stack == g.redo_stack
    assert h.moves_count == g.moves_count
    assert h.deal_number == 2
    assert h.redo() == g.redo()
    assert h.state == g.state
    assert h == g


def test_json_of_a_custom_start_round_trips() -> None:
    g = Game(deal(9).apply("s"))
    assert g.deal_number is None
    assert Game.from_json(g.to_json()) == g


def _tampered(change) -> str:  # type: ignore[no-untyped-def]
    data = json.loads(played_game().to_json())
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=99), "unknown saved-game version"),
        (lambda d: d.update(format="chess"), "not a saved klondike-widget game"),
        (lambda d: d.pop("redo"), "keys must be"),
        (lambda d: d["start"]["stock"].__setitem__(0, d["start"]["stock"][1]), "duplicated"),
        (lambda d: d["start"]["stock"].pop(), "missing"),
        (lambda d: d["start"]["face_down"].__setitem__(0, 1), "face-down"),
        (lambda d: d["start"]["foundations"].__setitem__("h", 14), "height"),
        (lambda d: d["start"]["foundations"].__setitem__("h", 1), "duplicated"),
        (lambda d: d.update(deal=3), "not deal 3"),
        (lambda d: d["moves"].insert(0, "w-f"), "move 1 of the history"),
        (lambda d: d["moves"].append("t9-t1"), "not a move"),
        (lambda d: d["redo"].append("r"), "redo stack"),
        (lambda d: d.update(moves_count=2), "too low"),
        (lambda d: d.update(moves_count="7"), "whole number"),
        (lambda d: d["start"].update(rules={"draw": 2, "foundation_to_tableau": True}), "draw"),
        (lambda d: d["start"]["columns"][0].append("Zz"), "not a card"),
    ],
)
def test_tampered_saves_are_rejected_clearly(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidGameError, match=message):
        Game.from_json(_tampered(change))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '"game"'])
def test_malformed_json_is_rejected(text: str) -> None:
    with pytest.raises(InvalidGameError):
        Game.from_json(text)


def test_play_line_is_all_or_nothing() -> None:
    g = Game.new(deal=2)
    with pytest.raises(IllegalMoveError, match="move 2 of the line"):
        g.play_line(["s", "w-f"])
    assert g.moves_count == 0
    assert not g.history


def test_restart_and_text_and_pictures() -> None:
    g = played_game()
    r = g.restart()
    assert r.state == g.start
    assert r.moves_count == 0
    assert r.deal_number == 2
    text = str(g)
    assert text.startswith("Deal 2 · draw 1 · Moves 5")
    assert "##" in text
    assert "won" not in repr(g)
