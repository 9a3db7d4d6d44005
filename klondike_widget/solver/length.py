"""The length of a line in engine moves, as the Moves counter shows it: :func:`line_length`.

Every stock tap and every recycle of the waste counts as a move (the measure :mod:`.shorten`
shortens lines in).

Examples
--------
>>> line_length(["s", "s", "r", "t3-t2"])
LineLength(moves=4, taps=2, recycles=1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from klondike_widget.engine.moves import Move, MoveKind

__all__ = ["LineLength", "line_length"]


@dataclass(frozen=True)
class LineLength:
    """The length of a line as the Moves counter shows it.

    Attributes
    ----------
    moves : int
        Engine moves: every tap and every recycle counts.
    taps : int
        Stock taps among them.
    recycles : int
        Recycles of the waste among them.
    """

    moves: int = 0
    taps: int = 0
    recycles: int = 0


def line_length(moves: Iterable[Move | str]) -> LineLength:
    """Count the engine moves, taps and recycles of ``moves`` (Moves or their text).

    >>> line_length([])
    LineLength(moves=0, taps=0, recycles=0)
    """
    total = taps = recycles = 0
    for move in moves:
        kind = Move.parse(move).kind if isinstance(move, str) else move.kind
        total += 1
        taps += kind is MoveKind.DRAW
        recycles += kind is MoveKind.RECYCLE
    return LineLength(total, taps, recycles)
