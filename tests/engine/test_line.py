"""Line: indexing, text round trip, replay and where a broken line breaks."""

import pytest

from klondike_widget import Game, Move
from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import BrokenLineError, Line


def test_a_line_indexes_its_positions() -> None:
    g = Game.new(deal=2)
    for text in ["t3-t2", "s", "s", "s", "s"]:
        g.play(text)
    line = Line(g.start, g.history)
    assert len(line) == 6 and len(line.moves) == 5
    assert list(line) == list(g.states) == list(line.states())
    assert line[0] == g.start and line[-1] == line.end == g.state
    assert line[1:3] == g.states[1:3]
    assert not line.is_winning


def test_text_round_trip_and_repr() -> None:
    line = Line(deal(2), ["t3-t2", "s", "s"])
    assert Line.parse(line.text(), deal(2)) == line
    assert Line.parse("t3-t2, s,s", deal(2)) == line
    # one text of moves is split into moves, not played one character at a time
    assert Line(deal(2), "t3-t2 s s") == line == Line(deal(2), "t3-t2,s, s")
    assert Line(deal(2), "") == Line(deal(2))
    with pytest.raises(BrokenLineError, match=r"move 2 \(w-f\)"):
        Line(deal(2), "s w-f")
    from klondike_widget import GameState

    assert eval(repr(line), {"Line": Line, "GameState": GameState}) == line
    assert hash(line) == hash(Line(deal(2), line.moves))


@pytest.mark.parametrize(
    ("moves", "index"),
    [(["s", "w-f"], 2), (["t3-t2", "t3-t2"], 2), (["s", "s", "zz"], 3), (["r"], 1)],
)
def test_a_broken_line_reports_the_first_bad_move(moves: list[str], index: int) -> None:
    with pytest.raises(BrokenLineError) as info:
        Line(deal(2), moves)
    assert info.value.index == index
    assert f"move {index} ({moves[index - 1]})" in str(info.value)


def test_replay_checks_from_scratch() -> None:
    line = Line(deal(2), [Move.parse("t3-t2"), Move.draw()])
    assert line.replay() == line.end


def test_not_a_state() -> None:
    with pytest.raises(TypeError):
        Line("deal 2", [])  # type: ignore[arg-type]
