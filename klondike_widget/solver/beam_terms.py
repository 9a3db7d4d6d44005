# mypy: disable-error-code="no-any-return"
"""What a beam position still needs: the bounds and ranking terms of :mod:`.beam`.

:func:`card_bound` (a move per card off the foundations and the taps the stock needs) ranks the
beam's positions; :func:`lower_bound` adds the moves the blockers need (:func:`blocker_moves`)
and drops, before they are kept, positions that cannot lead to a win cheaper than the best one.
The ranking terms (:func:`face_down_count`, :func:`waste_debt`, :func:`blockers`,
:func:`talon_count`) steer the beam and bound nothing. All work on the core's arrays
(:mod:`klondike_widget.solver.core`).

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.solver.bridge import encode_state
>>> S = encode_state(deal(5))
>>> int(card_bound(S)), int(blocker_moves(S)), int(lower_bound(S))
(76, 6, 82)
>>> int(talon_count(S)), int(face_down_count(S))
(24, 21)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from klondike_widget.solver.core import (
    CAP,
    K_COL_COL,
    K_COL_FND,
    K_SWAP_FND,
    K_TAL_FND,
    NCOL,
    O_COLS,
    O_DRAW,
    O_FD,
    O_FND,
    O_LEN,
    O_TAL,
    O_TN,
    O_TP,
    RANK,
    RED,
    SHIFT_DST,
    SUIT,
)

#: Four nibbles of 13: no card of any suit seen yet (:func:`blockers`).
NO_LOW = 0xDDDD


@njit(cache=True, nogil=True)
def lower_bound(S: np.ndarray) -> int:
    """Engine moves still needed at least: :func:`card_bound` plus :func:`blocker_moves`.

    Admissible: the parts count different moves (foundation moves and taps; moves from the
    columns to columns; one move from the waste to a column or a recycle).
    """
    return card_bound(S) + blocker_moves(S)


@njit(cache=True, nogil=True)
def blocker_moves(S: np.ndarray) -> int:
    """Moves the blockers need besides their foundation moves: :func:`column_groups` of every
    column plus :func:`waste_blocked` (no move counts for two: each has one source)."""
    extra = waste_blocked(S)
    for c in range(NCOL):
        extra += column_groups(S, c)
    return extra


@njit(cache=True, nogil=True)
def card_bound(S: np.ndarray) -> int:
    """One move per card off the foundations, plus the taps that must turn every stock card at
    least once (``ceil(stock / draw)``): the bound the beam ranks positions by."""
    left = 52 - (S[O_FND] + S[O_FND + 1] + S[O_FND + 2] + S[O_FND + 3])
    stock = S[O_TN] - S[O_TP]
    k = S[O_DRAW]
    return left + (stock + k - 1) // k


@njit(cache=True, nogil=True)
def column_groups(S: np.ndarray, c: int) -> int:
    """Column moves column ``c`` needs at least before its blockers let it empty.

    A blocker (a card above a lower card of its own suit, :func:`column_blockers`) cannot go
    to its foundation before that card, which lies below it, so it leaves by a column-to-column
    move. Two blockers leave by one move only if every card between them lies in sequence on
    the one below (a moved run is in sequence, and the cards between two cards of a column stay
    there until the upper one moves): the blockers split into groups at each pair out of
    sequence, and each group needs a move of its own, from this column.
    """
    groups = 0
    low = NO_LOW
    chain = False  # a blocker seen, and every card since it in sequence
    base = O_COLS + c * CAP
    prev = -1
    for k in range(S[O_LEN + c]):
        card = S[base + k]
        if chain and not (RANK[prev] == RANK[card] + 1 and RED[prev] != RED[card]):
            chain = False
        shift = 4 * SUIT[card]
        rank = RANK[card]
        if rank > (low >> shift) & 15:
            if not chain:
                groups += 1
            chain = True
        else:
            low = (low & ~(15 << shift)) | (rank << shift)
        prev = card
    return groups


@njit(cache=True, nogil=True)
def waste_blocked(S: np.ndarray) -> int:
    """1 if a waste card lies above a lower waste card of its own suit, else 0.

    The lower card goes up first, so the upper one leaves the waste to a column or the waste
    is turned over: one move that is neither a tap, nor a foundation move, nor from a column.
    """
    low = NO_LOW
    for i in range(S[O_TP]):
        card = S[O_TAL + i]
        shift = 4 * SUIT[card]
        rank = RANK[card]
        if rank > (low >> shift) & 15:
            return 1
        low = (low & ~(15 << shift)) | (rank << shift)
    return 0


@njit(cache=True, nogil=True)
def face_down_count(S: np.ndarray) -> int:
    """Cards still face down in the columns."""
    t = 0
    for c in range(NCOL):
        t += S[O_FD + c]
    return t


@njit(cache=True, nogil=True)
def column_blockers(S: np.ndarray, c: int) -> int:
    """Cards of column ``c`` lying above a lower card of their own suit (:func:`blockers`).

    The lowest rank seen so far of each suit is kept in a nibble of one integer (an array
    would be allocated per call: this runs for the children of every beam position).
    """
    t = 0
    low = NO_LOW
    base = O_COLS + c * CAP
    for k in range(S[O_LEN + c]):
        card = S[base + k]
        shift = 4 * SUIT[card]
        rank = RANK[card]
        if rank > (low >> shift) & 15:
            t += 1
        else:
            low = (low & ~(15 << shift)) | (rank << shift)
    return t


@njit(cache=True, nogil=True)
def blockers(S: np.ndarray) -> int:
    """Column cards lying above a lower card of their own suit.

    Such a card must leave its column before that card can go up, so it moves at least twice
    (a ranking term: one move may carry several of them).

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> S = encode_state(deal(5))
    >>> int(blockers(S)), [int(column_blockers(S, c)) for c in range(NCOL)]
    (6, [0, 1, 0, 1, 0, 2, 2])
    """
    t = 0
    for c in range(NCOL):
        t += column_blockers(S, c)
    return t


@njit(cache=True, nogil=True)
def child_blockers(S: np.ndarray, m: int, total: int, per_column: np.ndarray) -> int:
    """:func:`blockers` of ``S``, the child by move code ``m`` (and automatic moves) of a
    parent with ``total`` blockers, ``per_column`` of them in each column.

    Only the columns a move puts cards on or takes a run from can change: a card going to
    its foundation is the next of its suit, so no lower card of its suit is left in any column
    (it blocks nothing and is no blocker), and no card's count depends on the cards above it.
    """
    kind = m & 7
    if kind in (K_COL_FND, K_TAL_FND):
        return total
    dst = (m >> SHIFT_DST) & 7
    t = total - per_column[dst] + column_blockers(S, dst)
    if kind in (K_COL_COL, K_SWAP_FND):
        src = (m >> 9) & 63
        t += column_blockers(S, src) - per_column[src]
    return t


@njit(cache=True, nogil=True)
def waste_debt(S: np.ndarray) -> int:
    """Taps a later pass over the waste's cards would take: ``ceil((waste - 1) / draw)``.

    Not a bound (the waste may be played off its top), a ranking term: tapping through the
    stock lowers :func:`lower_bound` but leaves cards that a recycle must turn again.
    """
    tp = S[O_TP]
    if tp <= 1:
        return 0
    k = S[O_DRAW]
    return (tp - 1 + k - 1) // k


@njit(cache=True, nogil=True)
def talon_count(S: np.ndarray) -> int:
    """Cards still in the stock and the waste (a ranking term: with a weight, a beam prefers
    the positions that have played more talon cards)."""
    return S[O_TN]
