"""Winning lines joined where they meet: :class:`LinePool`.

Two beams often play the same position by different ways (one reaches it sooner, the other
goes on from it sooner to the win). A pool keeps every engine move of every winning line it is
given, from the start or from a position along an earlier line, as edges between engine
positions; :meth:`LinePool.shortest` is the shortest way through them from the start to a win
(a breadth-first search: every engine move counts one). Each of its moves was played by the
engine from that very position, so the spliced line is legal and wins.

Examples
--------
A line that first turns the whole stock round (24 taps and a recycle, back where it began)
meets the line without that detour at the start:

>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.engine.line import Line
>>> from klondike_widget.engine.moves import Move
>>> from klondike_widget.solver import Limit, solve
>>> start = deal(2)
>>> line = solve(start, Limit(seconds=30)).moves
>>> pool = LinePool(start)
>>> pool.add(start, (Move.draw(),) * 24 + (Move.recycle(),) + line)
>>> pool.add(start, line[:10])  # a part of a line: it wins nowhere, but may join others
>>> best = pool.shortest()
>>> len(best) == len(line), Line(start, best).is_winning
(True, True)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from klondike_widget.engine.moves import Move, apply_move
from klondike_widget.engine.state import GameState

__all__ = ["LinePool"]


class LinePool:
    """The engine moves of the winning lines found from one start, joined at shared positions.

    Parameters
    ----------
    start : GameState
        Where every line of the pool begins (a line added from elsewhere must begin at a
        position one of the pool's lines passes through, else it is never reached).
    """

    def __init__(self, start: GameState) -> None:
        self.start = start
        self.edges: dict[GameState, dict[Move, GameState]] = {}

    def add(self, origin: GameState, moves: Iterable[Move]) -> None:
        """Add the moves of a line from ``origin``, played through the engine."""
        state = origin
        for move in moves:
            after = self.edges.setdefault(state, {})
            nxt = after.get(move)
            if nxt is None:
                nxt = after[move] = apply_move(state, move)
            state = nxt

    def shortest(self) -> tuple[Move, ...] | None:
        """The fewest engine moves through the pool from the start to a win (None: no win)."""
        came: dict[GameState, tuple[GameState, Move] | None] = {self.start: None}
        queue = deque([self.start])
        while queue:
            state = queue.popleft()
            if state.is_won:
                return _path(came, state)
            for move, nxt in self.edges.get(state, {}).items():
                if nxt not in came:
                    came[nxt] = (state, move)
                    queue.append(nxt)
        return None


def _path(came: dict[GameState, tuple[GameState, Move] | None], end: GameState) -> tuple[Move, ...]:
    """The moves that lead to ``end`` by the breadth-first search's links ``came``."""
    moves: list[Move] = []
    link = came[end]
    while link is not None:
        state, move = link
        moves.append(move)
        link = came[state]
    return tuple(reversed(moves))
