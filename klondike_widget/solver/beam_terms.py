# mypy: disable-error-code="no-any-return"
"""What a beam position still needs: the bounds and ranking terms of :mod:`.beam`.

:func:`card_bound` (a move per card off the foundations and the taps the stock needs) ranks the
beam's positions; :func:`lower_bound` adds the moves the blockers need (:func:`blocker_moves`:
the talon's detours, the columns' blocker groups and the crossed columns) and drops, before
they are kept, positions that cannot lead to a win cheaper than the best one.
The ranking terms (:func:`face_down_count`, :func:`waste_debt`, :func:`blockers`,
:func:`talon_count`) steer the beam and bound nothing. All work on the core's arrays
(:mod:`klondike_widget.solver.core`).

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.solver.bridge import encode_state
>>> S = encode_state(deal(5))
>>> int(card_bound(S)), int(blocker_moves(S)), int(lower_bound(S))
(76, 10, 86)
>>> detours, used = talon_detours(S)
>>> groups = sum(int(column_groups(S, c)) for c in range(NCOL))
>>> int(detours), groups, int(crossed_columns(S, used, True))
(2, 6, 2)
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
    low_bit,
)

#: Four nibbles of 13: no card of any suit seen yet (:func:`blockers`).
NO_LOW = 0xDDDD
#: A 64-bit one, for the bit masks of cards (``ONE << card``) also in plain Python.
ONE = np.int64(1)


@njit(cache=True, nogil=True)
def lower_bound(S: np.ndarray) -> int:
    """Engine moves still needed at least: :func:`card_bound` plus :func:`blocker_moves`.

    Admissible: the parts count different moves (foundation moves and the taps of the stock's
    first pass; moves from the columns to columns; moves from the waste to columns, recycles and
    the taps after one). On Klondike-Solver's minimal lines of the reference deals of seeds 1-30
    it is 9.1 engine moves below the moves left on average in draw 1 and 9.5 in draw 3 (with
    one waste move at most for the talon and no crossed columns, 12.0 and 11.0).
    """
    return card_bound(S) + blocker_moves(S)


@njit(cache=True, nogil=True)
def blocker_moves(S: np.ndarray, crossed: bool = True) -> int:
    """Moves the blockers need besides their foundation moves: :func:`talon_detours` plus
    :func:`column_groups` of every column plus (if ``crossed``) :func:`crossed_columns` (no
    move counts for two: each has one source, the column parts count moves of different runs,
    and the talon's moves of different cards). Without ``crossed`` (a pass over pairs of cards,
    the dearest part) a weaker bound, still admissible.
    """
    detours, used = talon_detours(S)
    extra = detours
    for c in range(NCOL):
        extra += column_groups(S, c)
    if crossed:
        extra += crossed_columns(S, used, S[O_DRAW] == 1)
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
def waste_blockers(S: np.ndarray) -> tuple[int, int]:
    """Waste cards lying above a lower waste card of their own suit: how many, and a bit mask
    of them (bit ``card``)."""
    t = 0
    used = 0
    low = NO_LOW
    for i in range(S[O_TP]):
        card = S[O_TAL + i]
        shift = 4 * SUIT[card]
        rank = RANK[card]
        if rank > (low >> shift) & 15:
            t += 1
            used |= ONE << card
        else:
            low = (low & ~(15 << shift)) | (rank << shift)
    return t, used


@njit(cache=True, nogil=True)
def talon_detours(S: np.ndarray) -> tuple[int, int]:
    """Moves the talon needs besides its foundation moves and the stock's first taps: the
    :func:`waste_blockers` and the stock's crossed pairs (:func:`stock_crossings`), at most 3
    in draw 3, and a bit mask of their cards (bit ``card``).

    A waste blocker ``X`` lies above a lower card ``W`` of its suit: ``W`` goes up first and
    leaves the waste only after ``X``, so ``X`` leaves to a column (a move of its own) unless
    the waste is turned over first. Without a recycle each waste blocker, and one card of each
    crossed pair, takes its own move from the waste to a column (the cards differ). With one,
    each blocker ``X`` (and pair) not yet moved to a column is in the talon at the first
    recycle, with its ``W``: the recycle, plus taps after it that bring them up again (the
    stock's first pass, which :func:`card_bound` counts, ends before any recycle). In draw 1 a
    tap turns one card, so each such ``X`` takes a tap of its own: the count plus one in all.
    In draw 3 some ``X`` takes two taps, or one that turns it onto its ``W`` again and then a
    further move: at least 3 in all. Either way at least the count in draw 1 and
    ``min(count, 3)`` in draw 3 (without the cap, Klondike-Solver's draw-3 lines have fewer).
    """
    count, used = waste_blockers(S)
    pairs, used = stock_crossings(S, used)
    count += pairs
    return (count if S[O_DRAW] == 1 else min(count, 3)), used


@njit(cache=True, nogil=True)
def stock_crossings(S: np.ndarray, used: int) -> tuple[int, int]:
    """Disjoint pairs ``(W, X)`` of talon cards of one suit, ``W`` earlier in the talon and
    lower, ``X`` in the stock and higher, with a card ``V`` lower than ``W`` later than ``X``
    in the stock, no card of them in the bit mask ``used``; and ``used`` with theirs added.

    Without a recycle ``W`` cannot go up before ``V``, which comes up after ``X``: when ``X``
    is turned, ``W`` is still in the waste (``X`` then lies on it and cannot go up first) unless
    it left to a column, so one of the two leaves the waste to a column.
    """
    tn = S[O_TN]
    tp = S[O_TP]
    before = 0  # the talon cards before position j
    for i in range(tn):
        before |= ONE << S[O_TAL + i]
    after = NO_LOW  # the lowest rank of each suit later in the stock than position j
    pairs = 0
    for j in range(tn - 1, tp - 1, -1):
        x = S[O_TAL + j]
        before &= ~(ONE << x)
        shift = 4 * SUIT[x]
        later = (after >> shift) & 15
        if not (used >> x) & 1 and later < RANK[x]:
            for w in range(x - RANK[x] + later + 1, x):  # its suit's ranks between
                if (before >> w) & 1 and not (used >> w) & 1:
                    used |= (ONE << w) | (ONE << x)
                    pairs += 1
                    break
        if RANK[x] < later:
            after = (after & ~(15 << shift)) | (RANK[x] << shift)
    return pairs, used


@njit(cache=True, nogil=True)
def crossed_columns(S: np.ndarray, used: int, waste: bool) -> int:
    """Moves two columns (or, with ``waste``, a column and the waste) need besides
    :func:`column_groups` and :func:`talon_detours` (whose cards the bit mask ``used`` holds):
    disjoint crossed pairs.

    Cards ``P`` in column ``A`` and ``R`` in another column ``B`` cross if a card below ``R``
    is a lower one of ``P``'s suit and a card below ``P`` a lower one of ``R``'s: going up
    from their columns, ``P`` waits for the card under ``R``, which waits for ``R``, which
    waits for the card under ``P``, which waits for ``P``. So ``P`` or ``R`` leaves by a
    column move. A move takes a run in sequence, so it carries cards of one *segment* of its
    column (the cards now between two cards stay until the upper one leaves, and must be in
    sequence for one move to carry both). Pairs are counted whose segments hold no blocker
    (those moves :func:`column_groups` counts) and no card of a pair counted before: a
    greedy matching, a lower bound on any set of moves that serves every pair.

    With ``waste`` (draw 1) the waste is one more column whose cards are segments of their
    own: a waste card ``R`` crossed with ``P`` leaves the waste to a column, or stays until a
    recycle and takes a tap of its own after it (:func:`talon_detours`); waste cards it counts
    (``used``) are left out.

    The matching takes the cards in order (the columns', bottom up, then the waste's), each
    card of a segment still free with the first later card of another column it crosses.
    Bit masks over the cards' places in that order (at most 52) find that card: the places
    whose cards cross ``P`` from below (a lower card of ``P``'s suit under them) are a union
    kept per suit and threshold, and the cards ``P``'s column crosses from below, one per
    suit, so a card costs a few mask operations instead of a pass over the later cards: the
    same pairs as that pass (``tests/solver/test_beam_bound.py`` compares the two on
    positions of both draw modes), so the same bound, at a third of the processor time
    (``benchmarks/bound_cost.py``).
    """
    W = np.empty(_W_SIZE, dtype=np.int64)
    W[:_W_CARD] = 0
    avail, starts = _crossing_masks(S, used, waste, W)
    pairs = 0
    for c in range(NCOL):  # a waste card crosses no later card
        end = W[_W_ENDS + c + 1]
        later = ~((ONE << end) - 1)
        for a in range(W[_W_ENDS + c], end):
            if not (avail >> a) & 1:
                continue
            p = W[_W_CARD + a]
            la = W[_W_LOW + a]
            crossing = W[_W_ABOVE + (la & 15)] | W[_W_ABOVE + 14 + ((la >> 4) & 15)]
            crossing |= W[_W_ABOVE + 28 + ((la >> 8) & 15)] | W[_W_ABOVE + 42 + (la >> 12)]
            crossing &= W[_W_BELOW + 14 * SUIT[p] + RANK[p]] & later & avail
            if crossing != 0:
                b = low_bit(np.uint64(crossing))
                avail &= ~_segment(starts, W[_W_START + a], a)
                avail &= ~_segment(starts, W[_W_START + b], b)
                pairs += 1
    return pairs


#: The scratch of :func:`crossed_columns`: per suit and rank threshold (14 each) the places of
#: the cards above it, and of the cards with a lower card of that suit under them; per place
#: its card, the lowest ranks under it (four nibbles) and its segment's first place; and where
#: each column's places begin.
_W_ABOVE, _W_BELOW, _W_CARD, _W_LOW, _W_START, _W_ENDS = 0, 56, 112, 164, 216, 268
_W_SIZE = _W_ENDS + NCOL + 2


@njit(cache=True, nogil=True)
def _crossing_masks(S: np.ndarray, used: int, waste: bool, W: np.ndarray) -> tuple[int, int]:
    """Fill the scratch ``W`` of :func:`crossed_columns`; return the bit mask of the places
    in segments free of blockers and of cards in ``used``, and the bit mask of the segments'
    first places (and of the place after the last)."""
    n = avail = starts = first = 0
    bad = False
    for c in range(NCOL + 1):
        W[_W_ENDS + c] = n
        low = NO_LOW
        prev = -1
        base = O_COLS + c * CAP if c < NCOL else O_TAL
        size = S[O_LEN + c] if c < NCOL else (S[O_TP] if waste else 0)
        for k in range(size):
            card = S[base + k]
            if c == NCOL or k == 0 or not (RANK[prev] == RANK[card] + 1 and RED[prev] != RED[card]):
                if not bad:
                    avail |= ((ONE << n) - 1) & ~((ONE << first) - 1)
                first, bad = n, False
                starts |= ONE << n
            W[_W_CARD + n], W[_W_LOW + n], W[_W_START + n] = card, low, first
            for s in range(4):
                W[_W_BELOW + 14 * s + ((low >> 4 * s) & 15)] |= ONE << n
            W[_W_ABOVE + 14 * SUIT[card] + RANK[card]] = ONE << n
            shift = 4 * SUIT[card]
            if RANK[card] > (low >> shift) & 15 or (used >> card) & 1:
                bad = True
            if RANK[card] < (low >> shift) & 15:
                low = (low & ~(15 << shift)) | (RANK[card] << shift)
            prev = card
            n += 1
    W[_W_ENDS + NCOL + 1] = n
    if not bad:
        avail |= ((ONE << n) - 1) & ~((ONE << first) - 1)
    for s in range(4):
        above = below = 0
        for t in range(14):  # the places of lower thresholds' cards, from the bottom
            here = W[_W_BELOW + 14 * s + t]
            W[_W_BELOW + 14 * s + t] = below
            below |= here
        for t in range(13, -1, -1):  # the places of higher ranks' cards, from the top
            here = W[_W_ABOVE + 14 * s + t]
            W[_W_ABOVE + 14 * s + t] = above
            above |= here
    return avail, starts | (ONE << n)


@njit(cache=True, nogil=True)
def _segment(starts: int, first: int, place: int) -> int:
    """The bit mask of the places of the segment that begins at ``first`` and holds ``place``
    (``starts``: the bit mask of the segments' first places and of the place after the last)."""
    later = starts & ~((ONE << (place + 1)) - 1)
    return ((later & -later) - 1) & ~((ONE << first) - 1)


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
