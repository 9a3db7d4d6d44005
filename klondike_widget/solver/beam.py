# mypy: disable-error-code="no-any-return"
"""A compiled, cost-ordered beam search for short winning lines (used by :mod:`.shorten`).

The search works on the core's arrays (:mod:`klondike_widget.solver.core`) and its move
generator, but counts what a player counts: **engine moves**. A talon move costs its taps and
recycles plus one, a twin swap two, every other move one. Layer ``L`` of the beam holds positions
reached by ``L`` search moves; each layer keeps the ``width`` positions of lowest
``f = g + h + fd_weight * face_down`` where ``g`` is the engine moves spent, ``h`` an admissible
bound on the moves left (:func:`card_bound`) and ``face_down`` the cards still face down (which
steers the beam towards progress; it is not part of the bound), with other weighted ranking
terms (with a *bound weight*, the moves the blockers need, :func:`blocker_moves`, which make
``h`` the full :func:`lower_bound`) and a salted hashed tie-break (so that beams differ). A
child whose ``g + h`` is not below the best win known is dropped (and, before it is kept, one
whose :func:`lower_bound`, which also counts the moves its blockers need, less its dearest
part, is not), so the search only ever reports lines shorter than its bound. Duplicates (same
position, same talon pointer) keep the cheapest. With a *spread* a position leaves at most that
many children in the next layer: a layer of the same width then follows more lines (on some
deals this finds what only a beam several times wider finds otherwise, e.g. draw 1 seed 21 of
the reference deals at width 512 instead of 4096). With a *guide*, the plays ``(card, onto)``
of a line, a position ranks up for each play of its path not among them: the beam then follows
lines made mostly of that line's plays, in other orders.

Safe cards go to the foundations automatically from the columns only (each such move costs one
engine move and is never worse than leaving the card; a talon card would cost taps).

Nothing here decides whether a line is legal: :mod:`.shorten` replays every line it returns
through the engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from klondike_widget.solver.beam_terms import (
    blocker_moves,
    card_bound,
    child_blockers,
    column_blockers,
    face_down_count,
    talon_count,
    waste_debt,
)
from klondike_widget.solver.core import (
    CAP,
    H_LIVE,
    K_COL_FND,
    K_SWAP_FND,
    K_TAL_COL,
    K_TAL_FND,
    MAXM,
    NCOL,
    O_COLS,
    O_DRAW,
    O_LEN,
    O_TN,
    O_TP,
    S_SIZE,
    SCR_SIZE,
    ZPTR,
    column_autos,
    do_move,
    gen_moves,
    is_won,
    mix64,
    prefetch_row,
    state_key,
    undo_move,
)

#: Words of the core's hash array kept per beam position (those do and undo keep up to date).
HW = H_LIVE
#: Most automatic moves after one search move (there are 52 cards).
MAX_AUTOS = 64
#: Candidates ahead of the one the keep step looks up whose rows of the table of positions
#: seen it asks the processor for (:func:`prefetch_row`), so that their look-ups find them in
#: the cache (the table is megabytes, read in no useful order).
SEEN_AHEAD = 8
#: The largest f value the bucket selection sorts by (larger ones share the last bucket).
F_MAX = 4095
#: A position about to be kept is dropped if its :func:`lower_bound` leaves no cheaper win
#: than the best one; the blockers' part (:func:`blocker_moves`, a column scan) is counted only
#: where :func:`card_bound` leaves at most this many moves to spare (elsewhere it rarely drops
#: one). On the reference deals of seeds 1-30 at ``benchmarks/lines.py --seconds 1.0``: draw 1
#: 3050 -> 3048 engine moves (Klondike-Solver 3038), draw 3 2294 unchanged, the same
#: processor time per unit of work (0.20 microseconds). Without the crossed columns
#: (:func:`beam_terms.crossed_columns`, a pass over pairs of cards, 1-3 microseconds): with them
#: the lines of ``benchmarks/lines_variants.py`` were the same (draw 1 3041) at 1.3-1.5 times
#: the processor time.
TIGHT_SLACK = 10
#: The work (:class:`beam_run.Work`, in children generated) charged for each child whose
#: :func:`beam_terms.blocker_moves` a beam with a bound weight evaluates (a child costs about
#: 0.2 microseconds of processor time, :func:`blocker_moves` 0.7; ``benchmarks/bound_cost.py``).
#: With 3, beams ranked by the full bound took 0.20-0.24 microseconds a unit of work (32 beams
#: of widths 512-2048 from the start of draw-1 reference deals, ``shorten.TALON_BEAMS``-like
#: weights), the beams without 0.20-0.25 in the same runs: the work stays a measure of time.
#: Not in :mod:`.shorten`'s schedule: beams from the start ranked by the full bound found draw-1
#: seeds 17, 18 and 28 of the reference deals at Klondike-Solver's lengths (114, 110, 109;
#: widths 1024-2048; unranked by it the same beams found 116, 111 and none, 18's 110 at 2048
#: only), but as talon beams (``shorten.TALON_BEAMS``, added or instead) their work left the
#: later beams too little: 3043-3057 engine moves at ``benchmarks/lines_variants.py --seconds
#: 1.0``, against 3041.
BOUND_WORK = 3
#: The word after the core's position where a beam counts the plays of a position's path
#: that its guide does not hold (:func:`foreign_play`; 0 in an unguided beam).
O_FOREIGN = S_SIZE
#: The words of a beam position: the core's and :data:`O_FOREIGN`.
BEAM_S_SIZE = S_SIZE + 1
#: A guide's rows and columns: a play ``(card, onto)`` is ``guide[card, onto]``, where onto is
#: the card it goes onto, :data:`GUIDE_FOUNDATION` or :data:`GUIDE_EMPTY` (an empty column).
GUIDE_FOUNDATION = 52
GUIDE_EMPTY = 53
GUIDE_SHAPE = (52, 54)
#: The guide of an unguided beam (its weight is 0, so no play counts).
UNGUIDED = np.ones(GUIDE_SHAPE, dtype=np.uint8)
#: The values of the salted tie-break the shortening's beams use (``beam_run.NOISE + 1``),
#: which :func:`_rank` divides by as a constant.
NOISE_BUCKETS = 5

_A = np.ndarray
#: A beam layer: ``(BS, BH, BG)``, its positions, their hash words and engine moves spent.
Layer = tuple[_A, _A, _A]
#: The next layer and where it came from: ``(NS, NH, NG, PAR, COD)``.
Next = tuple[_A, _A, _A, _A, _A]
#: The positions seen: rows of ``(key, cheapest g)`` (one cache line holds both).
Seen = _A
#: The candidates' scratch: ``(CF, CG, CK, CP, CM, ORD)``.
Candidates = tuple[_A, _A, _A, _A, _A, _A]


@njit(cache=True, nogil=True)
def talon_steps(S: np.ndarray, i: int) -> int:
    """Taps and recycles that bring talon card ``T[i]`` to the top of the waste (-1: never).

    Taps move the pointer ``p`` by the draw ``k`` up to the talon's end ``n``, a recycle
    from there to 0: the card comes up on this pass if ``p + j * k`` reaches ``i + 1`` (or
    ``i`` is the last card), else on the next pass from 0 under the same rule, else never.
    """
    tn = S[O_TN]
    p = S[O_TP]
    k = S[O_DRAW]
    t = i + 1
    if t == p:
        return 0
    if t > tn:
        return -1
    if t > p and (t == tn or (t - p) % k == 0):
        return (t - p + k - 1) // k
    if t == tn or t % k == 0:
        return (tn - p + k - 1) // k + 1 + (t + k - 1) // k
    return -1


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
def foreign_play(S: np.ndarray, m: int, guide: np.ndarray) -> int:
    """1 if move code ``m`` (before it is applied to ``S``) makes a play ``(card, onto)`` that
    ``guide`` does not hold, else 0 (a twin swap, two plays, counts as held)."""
    kind = m & 7
    if kind == K_SWAP_FND:
        return 0
    if kind in (K_COL_FND, K_TAL_FND):
        onto = GUIDE_FOUNDATION
    else:
        dst = (m >> 15) & 7
        size = S[O_LEN + dst]
        onto = S[O_COLS + dst * CAP + size - 1] if size > 0 else GUIDE_EMPTY
    return 1 - np.int64(guide[(m >> 3) & 63, onto])


@njit(cache=True, nogil=True)
def pos_key(S: np.ndarray, H: np.ndarray) -> np.uint64:
    """The core's key (columns in any order) with the exact talon pointer mixed in."""
    k = state_key(S, H) ^ ZPTR[S[O_TP]]
    if k == np.uint64(0):
        k = np.uint64(1)
    return k


@njit(cache=True, nogil=True)
def _seen_home(SEEN: np.ndarray, key: np.uint64) -> int:
    """The row of ``SEEN`` where the search for ``key`` starts."""
    return np.int64(key >> np.uint64(1)) & np.int64(SEEN.shape[0] - 1)


@njit(cache=True, nogil=True)
def _seen_slot(SEEN: np.ndarray, key: np.uint64) -> int:
    """The row of ``SEEN`` holding ``key``, or the empty row it would take."""
    mask = np.int64(SEEN.shape[0] - 1)
    i = _seen_home(SEEN, key)
    while SEEN[i, 0] != np.uint64(0) and SEEN[i, 0] != key:
        i = (i + np.int64(1)) & mask
    return i


@njit(cache=True, nogil=True)
def copy_position(D: np.ndarray, S: np.ndarray) -> None:
    """Copy position ``S`` into ``D``: each column's cards (not the unused room above them,
    which nothing reads) and everything after the columns.

    A quarter of the words of a full copy or less: a beam copies every position it expands
    and keeps, from arrays too large for the processor's caches.
    """
    for c in range(NCOL):
        base = O_COLS + c * CAP
        for k in range(base, base + S[O_LEN + c]):
            D[k] = S[k]
    D[O_LEN:] = S[O_LEN:]


@njit(cache=True, nogil=True)
def work_arrays(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A position of ``size`` words, its hash words and the scratch of its automatic moves."""
    S = np.empty(size, dtype=np.int32)
    H = np.zeros(HW, dtype=np.uint64)
    return S, H, np.empty(MAX_AUTOS, dtype=np.int32), np.empty(MAX_AUTOS, dtype=np.int32)


@njit(cache=True, nogil=True)
def expand_layer(
    layer: Layer,
    nxt: Next,
    seen: Seen,
    cand: Candidates,
    nb: int,
    ranking: _A,
    best: _A,
    guide: _A,
) -> int:
    """Expand the ``nb`` positions of one layer into the next; return how many it keeps.

    ``layer`` is ``(BS, BH, BG)``: the layer's positions, their hash words (:data:`HW`) and
    engine moves spent. ``nxt`` is ``(NS, NH, NG, PAR, COD)``: the next layer's, each one's
    parent index and move code (its width is ``NS``'s). ``seen`` is the table of positions seen, a
    power-of-two number of rows ``(key, cheapest g)`` (:data:`Seen`). ``cand`` is
    ``(CF, CG, CK, CP, CM, ORD)``, scratch arrays of at least ``nb * MAXM`` entries (the
    candidates' rank, ``g``, key, parent and move, and their order). ``ranking`` holds
    the weights, the noise, the salt, the spread, the talon weight, the bound weight and the
    guide weight ``(face_down, waste, blockers, noise, salt, spread, talon, bound, guide)``:
    with a spread (not 0)
    a position leaves at most that many children in the next layer, so that the layer holds
    more lines, not the many children of a few; with a bound weight (not 0) each child's
    :func:`beam_terms.blocker_moves` is evaluated (:data:`BOUND_WORK` each), a child whose
    full :func:`lower_bound` leaves no cheaper win is dropped, and the others rank by that
    weight times it on top; with a guide weight (not 0) a position ranks up by that weight
    for each play of its path that ``guide`` (a :data:`GUIDE_SHAPE` array of 0 and 1) does not
    hold (:func:`foreign_play`, counted in the position's :data:`O_FOREIGN` word).
    ``best`` holds ``[cost, parent, code, entries, children]``: the cheapest win found so far
    (cost in engine moves; a win found here replaces it), the number of keys in ``seen`` and the
    children generated so far (each layer adds its candidates: the beam's work, which
    :mod:`.shorten` budgets).
    Positions rank by ``g`` + the bound + the weighted terms, plus a hashed tie-break of
    0..``noise`` salted by ``salt``.
    """
    nc = _candidates(layer, cand, nb, ranking, best, guide)
    best[4] += nc
    return _keep_cheapest(layer, nxt, seen, cand, nc, best, ranking, guide)


@njit(cache=True, nogil=True)
def _rank(S: np.ndarray, f: int, key: np.uint64, ranking: np.ndarray, blocking: int) -> int:
    """A candidate's rank: ``f`` (``g`` + the bound) + the weighted terms (``blocking``: its
    :func:`blockers`) + the salted tie-break, in ``0..F_MAX``. A term of weight 0 is not
    counted (most weight sets leave some out), and the tie-break of :data:`NOISE_BUCKETS`
    values divides by a constant (a multiplication; by a variable, a slow division)."""
    rank = f + ranking[2] * blocking
    if ranking[0] != 0:
        rank += ranking[0] * face_down_count(S)
    if ranking[1] != 0:
        rank += ranking[1] * waste_debt(S)
    if ranking[6] != 0:
        rank += ranking[6] * talon_count(S)
    if ranking[3] > 0:
        salted = mix64(key ^ np.uint64(ranking[4]))
        if ranking[3] + 1 == NOISE_BUCKETS:
            rank += np.int64(salted % np.uint64(NOISE_BUCKETS))
        else:
            rank += np.int64(salted % np.uint64(ranking[3] + 1))
    return max(0, min(rank, F_MAX))  # negative weights (a blocker's -1) leave it >= g


@njit(cache=True, nogil=True)
def _candidates(layer: Layer, cand: Candidates, nb: int, ranking: _A, best: _A, guide: _A) -> int:
    """Write the children of the layer's positions that may beat the best win to ``cand``;
    record wins in ``best``; return how many (see :func:`expand_layer`). Positions seen
    before are left to :func:`_keep_cheapest`. With a bound weight, add the work of the bound's
    evaluations to ``best[4]``."""
    BS, BH, BG = layer
    CF, CG, CK, CP, CM, _ = cand
    S, H, AUM, AUU = work_arrays(BS.shape[1])
    out = np.empty(MAXM, dtype=np.int32)
    mark = np.zeros(SCR_SIZE, dtype=np.int32)
    per_column = np.zeros(NCOL, dtype=np.int64)
    nc = evaluated = 0
    for i in range(nb):
        copy_position(S, BS[i])
        H[:] = BH[i]
        total = 0
        if ranking[2] != 0:  # the parent's blockers: a child's differ in one or two columns
            for col in range(NCOL):
                per_column[col] = column_blockers(S, col)
                total += per_column[col]
        n = min(gen_moves(S, out, mark, True), MAXM)
        for j in range(n):
            m = out[j] & 0xFFFFFF
            c = move_cost(S, m)
            if c <= 0:
                continue
            foreign = S[O_FOREIGN] + foreign_play(S, m, guide) if ranking[8] != 0 else 0
            u = do_move(S, H, m)
            aun = column_autos(S, H, AUM, AUU, 0)
            g2 = BG[i] + c + aun
            f = g2 + card_bound(S)
            if is_won(S):
                if g2 < best[0]:
                    best[0], best[1], best[2] = g2, i, m
            elif f < best[0]:
                more = 0  # the blockers' moves, with a bound weight: the bound's other part
                if ranking[7] != 0:
                    more = blocker_moves(S)
                    evaluated += 1
                if f + more < best[0]:
                    # no look-up in the table of positions seen here (a cache miss per child):
                    # _keep_cheapest looks up only the candidates it reaches in rank order
                    key = pos_key(S, H)
                    blocking = child_blockers(S, m, total, per_column) if ranking[2] != 0 else 0
                    rank_f = f + ranking[7] * more + ranking[8] * foreign
                    CF[nc] = _rank(S, rank_f, key, ranking, blocking)
                    CG[nc], CK[nc], CP[nc], CM[nc] = g2, key, i, m
                    nc += 1
            while aun > 0:
                aun -= 1
                undo_move(S, H, AUM[aun], AUU[aun])
            undo_move(S, H, m, u)
    best[4] += BOUND_WORK * evaluated
    return nc


@njit(cache=True, nogil=True)
def _by_rank(CF: np.ndarray, ORD: np.ndarray, nc: int) -> None:
    """Write to ``ORD`` the indexes of the ``nc`` candidates in the order of their rank ``CF``
    (a counting sort, stable)."""
    counts = np.zeros(F_MAX + 2, dtype=np.int64)
    for j in range(nc):
        counts[CF[j] + 1] += 1
    for f in range(1, F_MAX + 2):
        counts[f] += counts[f - 1]
    for j in range(nc):
        f = CF[j]
        ORD[counts[f]] = j
        counts[f] += 1


@njit(cache=True, nogil=True)
def _keep_cheapest(
    layer: Layer,
    nxt: Next,
    seen: Seen,
    cand: Candidates,
    nc: int,
    best: _A,
    ranking: _A,
    guide: _A,
) -> int:
    """Keep the ``width`` candidates of lowest rank, each position once at its cheapest and at
    most ``spread`` (0: any number) children of one parent, as the next layer; return how
    many (see :func:`expand_layer`)."""
    BS, BH, _ = layer
    NS, NH, NG, PAR, COD = nxt
    CF, CG, CK, CP, CM, ORD = cand
    spread = ranking[5]
    AUM, AUU = np.empty(MAX_AUTOS, dtype=np.int32), np.empty(MAX_AUTOS, dtype=np.int32)
    _by_rank(CF, ORD, nc)
    children = np.zeros(BS.shape[0], dtype=np.int32)  # kept so far, per parent
    for r in range(min(nc, SEEN_AHEAD)):
        prefetch_row(seen, _seen_home(seen, CK[ORD[r]]))
    kept = 0
    for r in range(nc):
        if kept >= NS.shape[0]:
            break
        if r + SEEN_AHEAD < nc:
            prefetch_row(seen, _seen_home(seen, CK[ORD[r + SEEN_AHEAD]]))
        j = ORD[r]
        if spread > 0 and children[CP[j]] >= spread:
            continue
        g2 = CG[j]
        slot = _seen_slot(seen, CK[j])
        if seen[slot, 0] != np.uint64(0) and seen[slot, 1] <= np.uint64(g2):
            continue  # a cheaper (or an equal, already kept) copy
        if seen[slot, 0] == np.uint64(0):
            if 2 * best[3] >= seen.shape[0]:
                break  # the table is half full: keep no more positions
            best[3] += 1
        seen[slot, 0] = CK[j]
        seen[slot, 1] = np.uint64(g2)
        # built in place in the next layer (taken back below if it is dropped)
        S, H = NS[kept], NH[kept]
        copy_position(S, BS[CP[j]])
        H[:] = BH[CP[j]]
        if ranking[8] != 0:
            S[O_FOREIGN] += foreign_play(S, CM[j], guide)
        do_move(S, H, CM[j])
        column_autos(S, H, AUM, AUU, 0)
        slack = best[0] - g2 - card_bound(S)
        if slack <= 0 or (slack <= TIGHT_SLACK and slack <= blocker_moves(S, False)):
            continue  # no cheaper win below (or a win found in this layer is as cheap)
        NG[kept], PAR[kept], COD[kept] = g2, CP[j], CM[j]
        children[CP[j]] += 1
        kept += 1
    return kept


@njit(cache=True, nogil=True)
def replay_codes(S: np.ndarray, H: np.ndarray, codes: np.ndarray, out: np.ndarray) -> int:
    """Play the search moves ``codes`` from ``S`` with the automatic moves between them.

    Writes every move code played (root automatic moves first, then each search move followed by
    its automatic moves) to ``out`` and returns how many; ``S`` and ``H`` end at the last position.
    """
    AUM = np.empty(MAX_AUTOS, dtype=np.int32)
    AUU = np.empty_like(AUM)
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
