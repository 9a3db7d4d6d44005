"""The pace of Finish: how long to wait before each move of a winning line.

A line played at one pace either drags (stock taps one by one) or rushes past what matters.
:func:`move_delays` weighs each wait: a longer pause after a face-down card turns up, a quick
run through consecutive taps and recycles, a quick sweep once nothing is left hidden; then it
scales all waits down, if needed, so that the whole line plays within :data:`FINISH_SECONDS`.
Every move is still played (and counted); only the waits change. Uses the engine only.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.engine.moves import Move
>>> waits = move_delays(deal(2), [Move.draw(), Move.draw(), Move.parse("t3-t2")], pace_ms=300)
>>> [round(w, 2) for w in waits]
[0.3, 0.06, 0.3]
>>> finish_seconds(deal(2), [Move.draw()] * 24, pace_ms=300) < 2
True
"""

from __future__ import annotations

from collections.abc import Sequence

from klondike_widget.engine.moves import Move, MoveKind, apply_move
from klondike_widget.engine.state import GameState

__all__ = ["FINISH_SECONDS", "finish_seconds", "move_delays"]

#: The longest a whole Finish plays at any pace (seconds).
FINISH_SECONDS = 10.0
#: Weights of a wait, in units of the pace setting.
AFTER_TURN_UP = 2.0  # a face-down card just turned up: let the player see it
IN_A_RUN = 0.2  # a tap or recycle right after another one
SWEEP = 0.4  # nothing face down and nothing in the stock: the cards go home
NORMAL = 1.0

_TALON = (MoveKind.DRAW, MoveKind.RECYCLE)


def move_delays(
    start: GameState,
    moves: Sequence[Move],
    pace_ms: int = 300,
    total_seconds: float = FINISH_SECONDS,
) -> list[float]:
    """The wait in seconds before each of ``moves``, played from ``start``.

    Parameters
    ----------
    start : GameState
    moves : sequence of Move
        Legal from ``start`` (checked as they are played).
    pace_ms : int
        The base pace: the wait before an ordinary move, in milliseconds (0 plays at once).
    total_seconds : float
        The waits are scaled down so that they add up to at most this.

    Raises
    ------
    IllegalMoveError
        If a move is not legal where it is played.
    """
    base = max(0, pace_ms) / 1000.0
    weights: list[float] = []
    state = start
    turned_up = False
    previous: Move | None = None
    for move in moves:
        hidden = sum(state.face_down) + len(state.stock)
        if previous is not None and previous.kind in _TALON and move.kind in _TALON:
            weight = IN_A_RUN
        elif turned_up:
            weight = AFTER_TURN_UP
        elif hidden == 0 and not state.waste:
            weight = SWEEP
        else:
            weight = NORMAL
        weights.append(weight)
        after = apply_move(state, move)
        turned_up = sum(after.face_down) < sum(state.face_down)
        state, previous = after, move
    total = base * sum(weights)
    scale = 1.0 if total <= total_seconds else total_seconds / total
    return [base * w * scale for w in weights]


def finish_seconds(start: GameState, moves: Sequence[Move], pace_ms: int = 300) -> float:
    """How long a Finish of ``moves`` from ``start`` waits in all at ``pace_ms``."""
    return sum(move_delays(start, moves, pace_ms))
