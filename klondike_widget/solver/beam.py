# mypy: disable-error-code="no-any-return"
"""A compiled, cost-ordered beam search for short winning lines (used by :mod:`.shorten`).

The search works on the core's arrays (:mod:`klondike_widget.solver.core`) and its move
generator, but counts what a player counts: **engine moves**. A talon move costs its taps and
recycles plus one, a twin swap two, every other move one. Layer ``L`` of the beam holds positions
reached by ``L`` search moves; each layer keeps the ``width`` positions of lowest
``f = g + h + fd_weight * face_down`` where ``g`` is the engine moves spent, ``h`` an admissible
bound on the moves left (:func:`lower_bound`) and ``face_down`` the cards still face down (which
steers the beam towards progress; it is not part of the bound), with other weighted ranking
terms and a salted hashed tie-break (so that beams differ). A child whose ``g + h`` is not
below the best win known is dropped, so the search only ever reports lines shorter than its
bound. Duplicates (same position, same talon pointer) keep the cheapest.

Safe cards go to the foundations automatically from the columns only (each such move costs one
engine move and is never worse than leaving the card; a talon card would cost taps).

Nothing here decides whether a line is legal: :mod:`.shorten` replays every line it returns
through the engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from klondike_widget.solver.core import (
    CAP,
    K_SWAP_FND,
    K_TAL_COL,
    K_TAL_FND,
    MAXM,
    NCOL,
    O_COLS,
    O_DRAW,
    O_FD,
    O_FND,
    O_LEN,
    O_TN,
    O_TP,
    SCR_SIZE,
    ZPTR,
    column_autos,
    do_move,
    gen_moves,
    is_won,
    mix64,
    state_key,
    undo_move,
)

#: Words of the core's hash array kept per beam position (column sums and the talon hash).
HW = NCOL + 1
#: Most automatic moves after one search move (there are 52 cards).
MAX_AUTOS = 64
#: The largest f value the bucket selection sorts by (larger ones share the last bucket).
F_MAX = 4095


@njit(cache=True, nogil=True)
def talon_steps(S: np.ndarray, i: int) -> int:
    """Taps and recycles that bring talon card ``T[i]`` to the top of the waste (-1: never)."""
    tn = S[O_TN]
    p = S[O_TP]
    k = S[O_DRAW]
    target = i + 1
    steps = 0
    limit = 2 * (tn // k + 2)
    while p != target:
        p = min(p + k, tn) if p < tn else 0
        steps += 1
        if steps > limit:
            return -1
    return steps


@njit(cache=True, nogil=True)
def move_cost(S: np.ndarray, m: int) -> int:
    """Engine moves that carry out move code ``m`` in ``S`` (before it is applied)."""
    kind = m & 7
    if kind in (K_TAL_FND, K_TAL_COL):
        return talon_steps(S, (m >> 9) & 63) + 1
    if kind == K_SWAP_FND:
        return 2
    return 1


@njit(cache=True, nogil=True)
def lower_bound(S: np.ndarray) -> int:
    """Engine moves still needed at least: one per card off the foundations, plus the taps that
    must turn every stock card at least once (``ceil(stock / draw)``)."""
    left = 52 - (S[O_FND] + S[O_FND + 1] + S[O_FND + 2] + S[O_FND + 3])
    stock = S[O_TN] - S[O_TP]
    k = S[O_DRAW]
    return left + (stock + k - 1) // k


@njit(cache=True, nogil=True)
def face_down_count(S: np.ndarray) -> int:
    """Cards still face down in the columns."""
    t = 0
    for c in range(NCOL):
        t += S[O_FD + c]
    return t


@njit(cache=True, nogil=True)
def blockers(S: np.ndarray) -> int:
    """Column cards lying above a lower card of their own suit.

    Such a card must leave its column before that card can go up, so it moves at least twice
    (a ranking term: one move may carry several of them).
    """
    low = np.empty(4, dtype=np.int32)
    t = 0
    for c in range(NCOL):
        low[:] = 13
        base = O_COLS + c * CAP
        for k in range(S[O_LEN + c]):
            card = S[base + k]
            suit = card // 13
            rank = card % 13
            if rank > low[suit]:
                t += 1
            else:
                low[suit] = rank
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
def pos_key(S: np.ndarray, H: np.ndarray) -> np.uint64:
    """The core's key (columns in any order) with the exact talon pointer mixed in."""
    k = state_key(S, H) ^ ZPTR[S[O_TP]]
    if k == np.uint64(0):
        k = np.uint64(1)
    return k


@njit(cache=True, nogil=True)
def _seen_slot(SK: np.ndarray, key: np.uint64) -> int:
    mask = np.int64(SK.shape[0] - 1)
    i = np.int64(key >> np.uint64(1)) & mask
    while SK[i] != np.uint64(0) and SK[i] != key:
        i = (i + np.int64(1)) & mask
    return i


@njit(cache=True, nogil=True)
def expand_layer(
    BS: np.ndarray,
    BH: np.ndarray,
    BG: np.ndarray,
    nb: int,
    NS: np.ndarray,
    NH: np.ndarray,
    NG: np.ndarray,
    PAR: np.ndarray,
    COD: np.ndarray,
    SK: np.ndarray,
    SG: np.ndarray,
    CF: np.ndarray,
    CG: np.ndarray,
    CK: np.ndarray,
    CP: np.ndarray,
    CM: np.ndarray,
    ORD: np.ndarray,
    fd_weight: int,
    waste_weight: int,
    block_weight: int,
    best: np.ndarray,
    noise: int,
    salt: np.uint64,
) -> int:
    """Expand the ``nb`` positions of one layer (``BS``/``BH``/``BG``) into the next.

    The next layer's positions go to ``NS``/``NH``/``NG``, each one's parent index and move code
    to ``PAR``/``COD``; returns how many. ``SK``/``SG`` is the table of positions seen (key,
    cheapest ``g``), a power-of-two size. ``best`` holds ``[cost, parent, code, entries]``:
    the cheapest win found so far (cost in engine moves; a win found here replaces it) and the
    number of keys in ``SK``. ``CF`` .. ``ORD``
    are scratch arrays of at least ``nb * MAXM`` entries. Positions rank by ``g`` + the bound +
    the weighted terms, plus a hashed tie-break of 0..``noise`` salted by ``salt``.
    """
    weights = np.array([fd_weight, waste_weight, block_weight, noise], dtype=np.int64)
    nc = _candidates(BS, BH, BG, nb, SK, SG, CF, CG, CK, CP, CM, weights, best, salt)
    return _keep_cheapest(BS, BH, NS, NH, NG, PAR, COD, SK, SG, CF, CG, CK, CP, CM, ORD, nc, best)


@njit(cache=True, nogil=True)
def _candidates(
    BS: np.ndarray,
    BH: np.ndarray,
    BG: np.ndarray,
    nb: int,
    SK: np.ndarray,
    SG: np.ndarray,
    CF: np.ndarray,
    CG: np.ndarray,
    CK: np.ndarray,
    CP: np.ndarray,
    CM: np.ndarray,
    weights: np.ndarray,
    best: np.ndarray,
    salt: np.uint64,
) -> int:
    """Write the children of the layer's positions worth keeping to ``CF`` .. ``CM`` (rank,
    ``g``, key, parent, move); record wins in ``best``; return how many (see
    :func:`expand_layer`; ``weights`` holds its three weights and ``noise``)."""
    S = np.empty(BS.shape[1], dtype=np.int32)
    H = np.zeros(HW, dtype=np.uint64)
    out = np.empty(MAXM, dtype=np.int32)
    mark = np.zeros(SCR_SIZE, dtype=np.int32)
    AUM = np.empty(MAX_AUTOS, dtype=np.int32)
    AUU = np.empty(MAX_AUTOS, dtype=np.int32)
    nc = 0
    for i in range(nb):
        S[:] = BS[i]
        H[:] = BH[i]
        g = BG[i]
        n = min(gen_moves(S, out, mark, True), MAXM)
        for j in range(n):
            m = out[j] & 0xFFFFFF
            c = move_cost(S, m)
            if c <= 0:
                continue
            u = do_move(S, H, m)
            aun = column_autos(S, H, AUM, AUU, 0)
            g2 = g + c + aun
            if is_won(S):
                if g2 < best[0]:
                    best[0] = g2
                    best[1] = i
                    best[2] = m
            elif g2 + lower_bound(S) < best[0]:
                key = pos_key(S, H)
                slot = _seen_slot(SK, key)
                if SK[slot] == np.uint64(0) or SG[slot] > g2:
                    rank = g2 + lower_bound(S) + weights[0] * face_down_count(S)
                    rank += weights[1] * waste_debt(S) + weights[2] * blockers(S)
                    if weights[3] > 0:
                        rank += np.int64(mix64(key ^ salt) % np.uint64(weights[3] + 1))
                    CF[nc] = min(rank, F_MAX)
                    CG[nc] = g2
                    CK[nc] = key
                    CP[nc] = i
                    CM[nc] = m
                    nc += 1
            while aun > 0:
                aun -= 1
                undo_move(S, H, AUM[aun], AUU[aun])
            undo_move(S, H, m, u)
    return nc


@njit(cache=True, nogil=True)
def _keep_cheapest(
    BS: np.ndarray,
    BH: np.ndarray,
    NS: np.ndarray,
    NH: np.ndarray,
    NG: np.ndarray,
    PAR: np.ndarray,
    COD: np.ndarray,
    SK: np.ndarray,
    SG: np.ndarray,
    CF: np.ndarray,
    CG: np.ndarray,
    CK: np.ndarray,
    CP: np.ndarray,
    CM: np.ndarray,
    ORD: np.ndarray,
    nc: int,
    best: np.ndarray,
) -> int:
    """Keep the ``width`` candidates of lowest rank (a counting sort), each position once at
    its cheapest, as the next layer; return how many (see :func:`expand_layer`)."""
    width = NS.shape[0]
    S = np.empty(BS.shape[1], dtype=np.int32)
    H = np.zeros(HW, dtype=np.uint64)
    AUM = np.empty(MAX_AUTOS, dtype=np.int32)
    AUU = np.empty(MAX_AUTOS, dtype=np.int32)
    # counting sort of the candidates by f
    counts = np.zeros(F_MAX + 2, dtype=np.int64)
    for j in range(nc):
        counts[CF[j] + 1] += 1
    for f in range(1, F_MAX + 2):
        counts[f] += counts[f - 1]
    for j in range(nc):
        f = CF[j]
        ORD[counts[f]] = j
        counts[f] += 1
    kept = 0
    for r in range(nc):
        if kept >= width:
            break
        j = ORD[r]
        g2 = CG[j]
        key = CK[j]
        slot = _seen_slot(SK, key)
        if SK[slot] != np.uint64(0) and SG[slot] <= g2:
            continue  # a cheaper (or an equal, already kept) copy
        if SK[slot] == np.uint64(0):
            if 2 * best[3] >= SK.shape[0]:
                break  # the table is half full: keep no more positions
            best[3] += 1
        SK[slot] = key
        SG[slot] = g2
        p = CP[j]
        m = CM[j]
        S[:] = BS[p]
        H[:] = BH[p]
        do_move(S, H, m)
        column_autos(S, H, AUM, AUU, 0)
        if g2 + lower_bound(S) >= best[0]:
            continue  # a win found in this layer is as cheap
        NS[kept] = S
        NH[kept] = H
        NG[kept] = g2
        PAR[kept] = p
        COD[kept] = m
        kept += 1
    return kept


@njit(cache=True, nogil=True)
def replay_codes(S: np.ndarray, H: np.ndarray, codes: np.ndarray, out: np.ndarray) -> int:
    """Play the search moves ``codes`` from ``S`` with the automatic moves between them.

    Writes every move code played (root automatic moves first, then each search move followed by
    its automatic moves) to ``out`` and returns how many; ``S`` and ``H`` end at the last position.
    """
    AUM = np.empty(MAX_AUTOS, dtype=np.int32)
    AUU = np.empty(MAX_AUTOS, dtype=np.int32)
    n = 0
    aun = column_autos(S, H, AUM, AUU, 0)
    for a in range(aun):
        out[n] = AUM[a]
        n += 1
    for i in range(codes.shape[0]):
        m = codes[i]
        do_move(S, H, m)
        out[n] = m
        n += 1
        aun = column_autos(S, H, AUM, AUU, 0)
        for a in range(aun):
            out[n] = AUM[a]
            n += 1
    return n


@njit(cache=True, nogil=True)
def root_autos(S: np.ndarray, H: np.ndarray) -> int:
    """Play the root's automatic moves in place; return how many."""
    AUM = np.empty(MAX_AUTOS, dtype=np.int32)
    AUU = np.empty(MAX_AUTOS, dtype=np.int32)
    return column_autos(S, H, AUM, AUU, 0)
