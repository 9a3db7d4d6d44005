# mypy: disable-error-code="no-any-return"
"""The prunings that keep only some moves of a position: follow-ups, King fills, reverses.

Each keeps, of the moves :func:`~klondike_widget.solver.core.movegen.gen_moves` wrote, those a
winning line can be rearranged to start with (the argument is in each docstring); the search
(:mod:`klondike_widget.solver.core.search`) stores such a restricted position under its own key.
"""

from __future__ import annotations

import numpy as np

from .codes import (
    K_COL_COL,
    K_COL_FND,
    K_FND_COL,
    K_SWAP_FND,
    K_TAL_COL,
    K_TAL_FND,
    MOVE_MASK,
    encode,
    move_card,
    move_count,
    move_dst,
    move_kind,
    move_src,
)
from .layout import CAP, O_COLS, O_LEN, RANK, SUIT, core_jit, core_jit_inline, twin

__all__ = [
    "abstract_follow_ups",
    "drop_reverse",
    "follow_ups",
    "fills_empty",
    "king_fills",
    "lands_on_class",
    "talon_follow_ups",
]


@core_jit
def lands_on_class(S: np.ndarray, v: int, card: int) -> bool:
    """True if move ``v`` puts a card on ``card`` or its twin, or sends that twin up through a
    swap onto ``card`` (twin classes: the moves that need ``card`` where it now lies)."""
    kind = move_kind(v)
    if kind in (K_SWAP_FND, K_COL_FND):
        return move_card(v) == twin(card)
    if kind == K_TAL_FND:
        return False
    dst = move_dst(v)
    ln = S[O_LEN + dst]
    if ln == 0:
        return False
    top = S[O_COLS + dst * CAP + ln - 1]
    return top == card or top == twin(card)


@core_jit
def abstract_follow_ups(S: np.ndarray, moves: np.ndarray, n: int, card: int, more: int) -> int:
    """Twin classes: keep the moves that need ``card`` where it now lies, and those of kind
    ``more`` (-1: none); return the count (see :func:`follow_ups`)."""
    k = 0
    for i in range(n):
        v = moves[i]
        if move_kind(v) == more or lands_on_class(S, v, card):
            moves[k] = v
            k += 1
    return k


@core_jit
def follow_ups(moves: np.ndarray, n: int, m: int) -> int:
    """Keep only the moves that may follow foundation-to-column move ``m``; return the count.

    Those are the moves onto the card that came down and further foundation-to-column moves.
    Any winning line can be rearranged so: a card that came down can wait in its foundation
    until just before the first move that involves it, its target or its foundation, unless
    another card comes down first. That move is either a move onto it or a foundation-to-column
    move, or else it can be rewritten away: moving the run under it (move the run first, then
    bring the card down onto it), moving the card alone on (bring it down there directly) or
    putting it back up (drop both moves). Each rewrite moves a card's coming down later or
    shortens the line, so rewriting ends.

    With twin classes the search uses :func:`abstract_follow_ups` instead: a class move that
    does not land on the card's rank and colour (nor sends its twin up by a swap onto it) was
    already possible before the card came down, and leaves a top of the rank it came down onto
    (there was a second one if that move took one), so the card can still come down after it.
    """
    dst = move_dst(m)
    k = 0
    for i in range(n):
        v = moves[i]
        kind = move_kind(v)
        onto = K_TAL_COL <= kind <= K_COL_COL and move_dst(v) == dst
        if kind == K_FND_COL or onto:
            moves[k] = v
            k += 1
    return k


@core_jit
def talon_follow_ups(moves: np.ndarray, n: int, m: int) -> int:
    """Keep only the moves that may follow talon-to-column move ``m`` in draw 1; return the count.

    Those are the moves from or onto the column the card went to. Any winning line can be
    rearranged so: in draw 1 every talon card can be reached from any talon pointer, so a card
    played from the talon onto a column can wait in the talon until just before the first move
    that involves that column (the card lies on top of it, so nothing else there can move or be
    covered meanwhile). That move is a move onto the card (play the card just before it), a move
    of the card alone (play it from the talon straight to where it goes) or a move of a run that
    carries the card (move the run first, then play the card onto it). The moves in between stay
    legal and unpruned: the talon still reaches every other card; should the played card become
    safe, it goes up from the talon as it would have from the column. The card it would cover,
    left uncovered, may go up automatically meanwhile (:func:`is_safe` allows that while the
    played card is still out): that step rests on automatic moves keeping a win, not on the
    rearrangement, so the default prunings together are also checked against the unpruned search
    in the tests. Each rewrite moves a talon play later or shortens the line, so rewriting ends.
    Only used when the move triggered no automatic move (none can follow it in draw 1).
    With twin classes :func:`abstract_follow_ups` keeps the moves that land on the card's rank
    and colour or send its twin up through a swap onto it, by the argument of
    :func:`follow_ups` (sending the card itself up is the talon-to-foundation move).
    """
    col = move_dst(m)
    k = 0
    for i in range(n):
        v = moves[i]
        kind = move_kind(v)
        keep = False
        if kind == K_COL_FND:
            keep = move_src(v) == col
        elif kind == K_COL_COL:
            keep = move_src(v) == col or move_dst(v) == col
        elif kind in (K_TAL_COL, K_FND_COL):
            keep = move_dst(v) == col
        if keep:
            moves[k] = v
            k += 1
    return k


@core_jit
def fills_empty(S: np.ndarray, v: int) -> bool:
    """True if move ``v`` puts a King into an empty column (:func:`king_fills`,
    :func:`~.movegen.kings_first`)."""
    kind = move_kind(v)
    return (
        K_TAL_COL <= kind <= K_FND_COL and RANK[move_card(v)] == 12 and S[O_LEN + move_dst(v)] == 0
    )


@core_jit
def king_fills(S: np.ndarray, moves: np.ndarray, n: int) -> int:
    """Keep only the moves that put a King into an empty column; return the count."""
    k = 0
    for i in range(n):
        v = moves[i]
        if fills_empty(S, v):
            moves[k] = v
            k += 1
    return k


@core_jit_inline
def drop_reverse(moves: np.ndarray, n: int, m: int) -> int:
    """Remove from ``moves[:n]`` the move that exactly undoes ``m``; return the new count.

    Only called when ``m`` turned no card up and triggered no automatic move, so its reverse
    leads straight back to the parent position, which is on the search path (switch:
    ``ALW_REVERSE``). Reaching a position that is being searched adds nothing: any winning
    line through it is found from its own node. This holds for foundation-to-column moves and
    their reverse (the card goes back up) as for column moves. Where the parent was searched
    under a restricted key (``DOM_TALON_FOLLOW_UPS``), its restricted moves are enough by the
    argument of :func:`talon_follow_ups`, so the unrestricted copy is not needed either.
    """
    kind = move_kind(m)
    card = move_card(m)
    src = move_src(m)
    dst = move_dst(m)
    count = move_count(m)
    if kind == K_COL_COL:
        rev = encode(K_COL_COL, card, dst, src, count, 0)
    elif kind == K_COL_FND:
        rev = encode(K_FND_COL, card, SUIT[card], src, 1, 0)
    elif kind == K_FND_COL:
        rev = encode(K_COL_FND, card, dst, 0, 1, 0)
    else:
        return n
    for i in range(n):
        if (moves[i] & MOVE_MASK) == rev:
            for j in range(i, n - 1):
                moves[j] = moves[j + 1]
            return n - 1
    return n
