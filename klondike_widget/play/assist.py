"""One-click targets, the auto-complete offer and safe foundation cards.

Everything here is chosen from the engine's legal moves (:attr:`GameState.legal_moves`); the
front end only looks the answers up.

One click
    A click on a card sends it to its best target: its foundation first; otherwise onto a
    column with cards (the leftmost); an empty column last. That is the solver's move ordering
    (foundation plays first, a King into an empty column only as a last resort); the engine has
    no ranking of its own. A King whose column holds nothing else is never moved to another
    empty column by a click (that changes nothing); a click on such a card picks it as before.
    Cards on foundations have no one-click move (a click picks them).
Auto-complete
    Offered as soon as no column card is face down and the stock is empty; the line plays every
    card to the foundations (lowest first, tapping through the waste when needed) and is only
    offered when it replays through the engine to a win.
Safe foundation cards
    The solver's rule (:func:`klondike_widget.solver.core.is_safe`, Solvitaire's rule for
    red-black building): a card is safe on its foundation when nothing that could still be
    built on it is needed. Only cards playable now go up: column tops, and the waste top in
    draw 1, or in draw 3 once the stock is empty (the solver's own condition: elsewhere in
    draw 3 taking a waste card changes which cards later taps reach).

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> s = deal(2)
>>> one_click_moves(s)["t3"], one_click_moves(s)["t4"]
([[1, 't3-t2']], [[1, 't4-f']])
>>> safe_foundation_move(s)  # t4 and t6 hold aces: always safe
Move.parse('t4-f')
>>> auto_complete_line(s) is None
True
"""

from __future__ import annotations

import functools
from typing import Any

from klondike_widget.engine.cards import CARD_RANK
from klondike_widget.engine.moves import Move, MoveKind, apply_move
from klondike_widget.engine.state import GameState

__all__ = ["auto_complete_line", "is_safe", "one_click_moves", "safe_foundation_move"]

_K = MoveKind
_TO_FOUNDATION = (_K.WASTE_TO_FOUNDATION, _K.COLUMN_TO_FOUNDATION)


def _source(move: Move) -> tuple[str, int] | None:
    """``(pile id, card count)`` of a one-click candidate; None for other moves."""
    if move.kind in (_K.WASTE_TO_COLUMN, _K.WASTE_TO_FOUNDATION):
        return ("w", 1)
    if move.kind in (_K.COLUMN_TO_COLUMN, _K.COLUMN_TO_FOUNDATION):
        return (f"t{move.source + 1}", move.count)
    return None


def _rank(state: GameState, move: Move) -> tuple[int, int] | None:
    """Sort key of a candidate (smaller is better), or None if a click should not make it."""
    if move.kind in _TO_FOUNDATION:
        return (0, 0)
    if state.columns[move.target]:
        return (1, move.target)
    if move.kind is _K.COLUMN_TO_COLUMN:
        column = state.columns[move.source]
        if move.count == len(column):  # the whole column: a King to another empty column
            return None
    return (2, move.target)


def one_click_moves(state: GameState) -> dict[str, list[list[Any]]]:
    """The best move for a click on each card: ``{pile: [[count, move text], ...]}``.

    ``count`` is how many cards the click takes (the clicked card and those on it).

    >>> from klondike_widget.engine.deals import deal
    >>> sorted(one_click_moves(deal(2)))
    ['t3', 't4', 't6']
    """
    best: dict[tuple[str, int], tuple[tuple[int, int], Move]] = {}
    for move in state.legal_moves:
        source = _source(move)
        if source is None:
            continue
        key = _rank(state, move)
        if key is not None and (source not in best or key < best[source][0]):
            best[source] = (key, move)
    out: dict[str, list[list[Any]]] = {}
    for (pile, count), (_key, move) in sorted(best.items()):
        out.setdefault(pile, []).append([count, str(move)])
    return out


def is_safe(state: GameState, card: int) -> bool:
    """True if ``card``, next on its foundation, may go up without losing a win (solver's rule).

    >>> from klondike_widget.engine.deals import deal
    >>> is_safe(deal(2), 0), is_safe(deal(2), 5)  # the ace of clubs; the six of clubs
    (True, False)
    """
    import numpy as np

    from klondike_widget.solver import core

    if not (isinstance(card, int) and 0 <= card < 52):
        raise ValueError(f"not a card: {card!r}")
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_FND : core.O_FND + 4] = state.foundations
    return bool(core.is_safe(S, card))


def safe_foundation_move(state: GameState) -> Move | None:
    """A move of a playable card that is safe to put up (columns first), or None."""
    ups = [m for m in state.legal_moves if m.kind in _TO_FOUNDATION]
    waste_ok = state.rules.draw == 1 or not state.stock
    for move in sorted(ups, key=lambda m: m.kind is _K.WASTE_TO_FOUNDATION):
        if move.kind is _K.WASTE_TO_FOUNDATION and not waste_ok:
            continue
        if is_safe(state, _moving_card(state, move)):
            return move
    return None


def auto_complete_line(state: GameState) -> tuple[Move, ...] | None:
    """The moves that finish the game once nothing is hidden, or None if not offered.

    Offered when no column card is face down and the stock is empty (and the game is not won);
    the line sends the lowest card that can go up first, tapping the waste round when nothing
    can. It is None if that does not reach a win (possible in draw 3, where the solver's
    Finish still can).

    >>> from klondike_widget.engine.state import GameState
    >>> s = GameState([[12], [11], [], [], [], [], []], [0] * 7,
    ...               foundations=(11, 13, 13, 13))
    >>> [str(m) for m in auto_complete_line(s)]
    ['t2-f', 't1-f']
    """
    if state.is_won or state.stock or any(state.face_down):
        return None
    return _greedy_line(state)


@functools.lru_cache(maxsize=32)  # the widget asks again at every update of the same position
def _greedy_line(state: GameState) -> tuple[Move, ...] | None:
    line: list[Move] = []
    idle = 0
    limit = 2 * (len(state.waste) + 2)
    while True:
        moves = list(state.legal_moves)
        ups = [m for m in moves if m.kind in _TO_FOUNDATION]
        if ups:
            move = min(ups, key=lambda m: CARD_RANK[_moving_card(state, m)])
            idle = 0
        else:
            taps = [m for m in moves if m.kind in (_K.DRAW, _K.RECYCLE)]
            idle += 1
            if not taps or idle > limit:
                return None
            move = taps[0]
        state = apply_move(state, move)
        line.append(move)
        if state.is_won:
            return tuple(line)


def _moving_card(state: GameState, move: Move) -> int:
    if move.kind is _K.WASTE_TO_FOUNDATION:
        return state.waste[-1]
    return state.columns[move.source][-1]
