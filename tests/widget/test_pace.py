"""Finish pacing: adaptive waits, a whole Finish within ten seconds."""

from __future__ import annotations

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.solver import Limit, solve
from klondike_widget.widget.pace import FINISH_SECONDS, finish_seconds, move_delays


def test_finish_pacing_is_within_ten_seconds_and_adapts() -> None:
    start = deal(3)
    moves = solve(start, Limit(seconds=30)).moves
    waits = move_delays(start, moves, pace_ms=300)
    assert len(waits) == len(moves)
    assert sum(waits) <= FINISH_SECONDS + 1e-9
    assert finish_seconds(start, moves, pace_ms=0) == 0
    # a tap after a tap waits less than the move after a card turned up
    line = Line(start, moves)
    in_run = [
        w
        for i, w in enumerate(waits)
        if i and moves[i].kind == moves[i - 1].kind == Move.draw().kind
    ]
    turned = [
        w for i, w in enumerate(waits) if i and sum(line[i].face_down) < sum(line[i - 1].face_down)
    ]
    assert in_run and turned and max(in_run) < min(turned)
