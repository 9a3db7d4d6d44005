"""Perft: count the legal move sequences of a given length, a regression check of the rules.

>>> from klondike_widget.engine.deals import deal
>>> perft(deal(2), 2)
23
"""

from __future__ import annotations

from klondike_widget.engine.moves import apply_unchecked, generate_moves
from klondike_widget.engine.state import GameState

__all__ = ["perft"]


def perft(state: GameState, depth: int) -> int:
    """The number of sequences of ``depth`` legal moves from ``state`` (1 for depth 0)."""
    if depth == 0:
        return 1
    moves = list(generate_moves(state))
    if depth == 1:
        return len(moves)
    return sum(perft(apply_unchecked(state, m), depth - 1) for m in moves)
