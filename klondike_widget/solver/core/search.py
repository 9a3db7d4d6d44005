# mypy: disable-error-code="no-any-return"
"""The resumable depth-first search: :func:`start_search` sets up the root, :func:`run_chunk`
searches up to a number of new positions and returns, every bit of its state in the arrays.

The arrays come as one record, :class:`~klondike_widget.solver.arrays.SearchArrays` (made by
:class:`klondike_widget.solver.drive.Search`): ``S`` and ``H`` the position
(:mod:`~klondike_widget.solver.core.layout`, :mod:`~klondike_widget.solver.core.keys`), ``TT``
the table, ``MV[d]`` / ``NM[d]`` / ``IX[d]`` the moves of the position at depth ``d``, how many
and the next to try, ``UD[d]`` the undo word of the move played there, ``AUM`` / ``AUU`` the
automatic moves along the path and their undo words, ``AUS[d]`` how many of those came before
depth ``d``'s move, ``mark`` scratch space, ``ctl`` the counters (``C_*``) and ``KY[d, j]``
the table key of move ``j``'s child at depth ``d``, the number of its automatic moves and
the key's hash (:func:`child_keys`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .autos import apply_autos
from .board import do_move, is_won, undo_move
from .codes import (
    K_COL_COL,
    K_FND_COL,
    K_SWAP_FND,
    K_TAL_COL,
    K_TAL_FND,
    move_card,
    move_kind,
    move_src,
)
from .dead import is_dead
from .keys import TAG_FND, TAG_KING, TAG_TALON, U0, compute_hashes
from .layout import (
    ALW_REVERSE,
    C_AUN,
    C_DEPTH,
    C_GROWAT,
    C_MAXDEPTH,
    C_NODES,
    C_OVERFLOW,
    C_ROOTAUN,
    C_SHARED,
    C_TTCOUNT,
    C_VISITS,
    DOM_DEAD_ENDS,
    DOM_FND_FOLLOW_UPS,
    DOM_KING_FILLS,
    DOM_TALON_FOLLOW_UPS,
    DOM_TWINS,
    O_ALW,
    O_DOM,
    O_DRAW,
    O_F2T,
    O_LEN,
    O_ORDER,
    ORDER_REVEALS,
    R_BUDGET,
    R_EXHAUSTED,
    R_GROW,
    R_WON,
    core_jit,
    core_jit_inline,
    ix,
)
from .movegen import gen_abstract, gen_moves, kings_first
from .one_word import fill_one_word, row_key, row_quiet_key, row_tagged_key
from .pointers import pointer_draw, probe_with
from .prune import (
    abstract_follow_ups,
    drop_reverse,
    follow_ups,
    king_fills,
    talon_follow_ups,
)
from .quiet import autos_may_follow
from .table import (
    PREFETCH_LINES,
    PREFETCH_LINES_DRAW1,
    tt_hash,
    tt_insert,
    tt_prefetch,
    tt_store,
)

__all__ = [
    "run_chunk",
    "start_search",
]

if TYPE_CHECKING:
    from klondike_widget.solver.arrays import SearchArrays


@core_jit_inline
def play(
    S: np.ndarray, H: np.ndarray, AUM: np.ndarray, AUU: np.ndarray, m: int, aun: int, autos: int
) -> tuple[int, int]:
    """Play move ``m``, then the automatic moves after it (recorded in ``AUM``/``AUU`` from
    ``aun`` on); return its undo word and the new count of automatic moves. ``autos`` is how
    many automatic moves follow it, when known (:func:`child_keys`: then the pass runs only if
    some do), else -1 (then it runs if :func:`~.keys.autos_may_follow`, asked before the move)."""
    follow = autos > 0 or (autos < 0 and autos_may_follow(S, m))
    u = do_move(S, H, m)
    if follow:
        aun = apply_autos(S, H, AUM, AUU, aun)
    return u, aun


@core_jit_inline
def take_back(
    S: np.ndarray,
    H: np.ndarray,
    AUM: np.ndarray,
    AUU: np.ndarray,
    m: int,
    u: int,
    aun: int,
    start: int,
) -> None:
    """Take back the automatic moves ``AUM[start:aun]`` (last first), then move ``m`` (undo
    word ``u``): :func:`play` undone."""
    while aun > start:
        aun -= 1
        undo_move(S, H, AUM[aun], AUU[aun])
    undo_move(S, H, m, u)


@core_jit_inline
def child_keys(arrays: SearchArrays, depth: int, aun: int) -> None:
    """Write the untagged key of each child of the position at ``depth`` into
    ``KY[depth, j, :2]`` (0 in its second word for a won child, or one whose search would
    overflow: :func:`run_chunk` then treats it as before) and how many automatic moves follow
    its move into ``KY[depth, j, 2]``, and start bringing in the table row each key's probe
    starts at (:func:`~.table.tt_prefetch`), from the key's hash (:func:`~.table.tt_hash`,
    kept in ``KY[depth, j, 3]`` for the probe: one hash a key). A quiet child's key
    (:func:`~.one_word.row_quiet_key`) is read off the position, without playing the move.

    In a large table nearly every probe misses the caches and waits for the memory. Asked
    for here, for all children at once, the rows come in while the search works on the
    first children, and when :func:`run_chunk` comes to a child its row is in the cache.
    With the key known, a child the table already holds (:func:`~.pointers.held`) is
    skipped without being played: the same test and the same outcome as after playing it,
    as a held key stays held (the table never deletes) and the position is the same (``S``
    and ``H`` are restored after each child's subtree). Where a child may be shared
    (:func:`may_enter_shared`: at the root, beside a partner) it is played, as if unknown: it
    may be the position the partner entered first, which :func:`enters_shared` recognises by
    the key it is stored under, tagged if restricted (until December 2026 a known child at the
    root was compared by its untagged key, so a restricted one, a draw-1 talon card onto a
    column, stayed closed: numbered draw-3 deal 1319's relaxation). A child
    that is played again is played with the same automatic moves (the same position), so the
    pass for them is made only if there are any.
    """
    S, H, TT, MV, KY = arrays.S, arrays.H, arrays.TT, arrays.MV, arrays.KY
    AUM, AUU = arrays.AUM, arrays.AUU
    deep = depth + 1 >= MV.shape[0]
    lines = PREFETCH_LINES_DRAW1 if S[O_DRAW] == 1 else PREFETCH_LINES
    for j in range(arrays.NM[depth]):
        m = MV[depth, j]
        a, b = row_quiet_key(S, H, m)  # (then no automatic move follows, and no win)
        if b != U0 and not deep and aun < AUM.shape[0]:
            _read_ahead(TT, KY, depth, j, a, b, 0, lines)
            continue
        u, top = play(S, H, AUM, AUU, m, aun, -1)
        if not deep and top < AUM.shape[0] and not is_won(S):
            a, b = row_key(S, H, 0)
            _read_ahead(TT, KY, depth, j, a, b, top - aun, lines)
        else:
            KY[depth, j, 1] = U0
        take_back(S, H, AUM, AUU, m, u, top, aun)


@core_jit_inline
def _read_ahead(
    TT: np.ndarray,
    KY: np.ndarray,
    depth: int,
    j: int,
    a: np.uint64,
    b: np.uint64,
    autos: int,
    lines: int,
) -> None:
    """For :func:`child_keys`: write move ``j``'s child's key ``(a, b)``, its count of
    automatic moves and its hash into ``KY[depth, j]`` and prefetch the key's table rows."""
    KY[depth, j, 0] = a
    KY[depth, j, 1] = b
    KY[depth, j, 2] = autos
    h = tt_hash(a, b)
    KY[depth, j, 3] = h
    tt_prefetch(TT, h, lines)


@core_jit_inline
def may_enter_shared(arrays: SearchArrays, depth: int) -> bool:
    """True if :func:`enters_shared` can hold at ``depth``: at the root, beside a partner that
    has made its first move (depth -1 for a search that shares no table)."""
    return depth == 0 and arrays.partner_ctl[C_DEPTH] >= 1


@core_jit_inline
def enters_shared(arrays: SearchArrays, depth: int, a: np.uint64, b: np.uint64) -> bool:
    """True if this search enters the child of key ``(a, b)``, which is in the table: the
    search is at its root, and the child is the position its partner (the search sharing the
    table, see ``drive.Search.share_table``) reached with its first move, the one it is
    searching under now (``FK``).

    Both searches start at the root, and their first moves often agree. Skipping the
    partner's position closes that whole option of the root to this search for as long as the
    partner searches there, and on a deal the first order searches long that is the heavy tail
    itself: the second order alone wins fresh draw-1 deal 7488924141928748454 in 217,166
    positions, but the two took 3,667,217 in all with the first order's first move closed to
    the second; with it open, 400,761. Fresh draw-1 deals, seeds 8-15 (1400): 35.56 -> 31.32 M
    positions; seeds 16-19 (1600): 30.80 -> 30.43 M; numbered 1-5000: 100.08 -> 99.53 M. In
    draw 3 it is neutral: 361.0 -> 361.5 M over the same three sets. Opening the partner's
    positions deeper on its path as well (the first three) put the second order into the
    first's long searches: fresh draw-1 16451415453690065702 744,480 -> 2,165,738. Trying the
    child last among the root's moves instead of in its place won back little: 1400 deals
    33.46 M.

    Sound: a position both enter is expanded by both, so once both are exhausted every entry
    of the table is still expanded to the end (``share_table``'s argument); it is not inserted
    again. The child is not the root (the partner entered it as new, the root in the table).
    The partner's key is read as it stood when its last turn ended (the two take turns).
    """
    FK = arrays.partner_FK
    return may_enter_shared(arrays, depth) and FK[0] == a and FK[1] == b


@core_jit
def start_search(arrays: SearchArrays) -> int:
    """Set up the root: automatic moves, its key, its moves. Returns R_WON or R_BUDGET."""
    S, H, TT, MV, NM, IX = arrays.S, arrays.H, arrays.TT, arrays.MV, arrays.NM, arrays.IX
    AUM, AUU, mark, ctl = arrays.AUM, arrays.AUU, arrays.mark, arrays.ctl
    compute_hashes(S, H)
    if TT.shape[1] == 1:  # (rows of one word: drive sized them by one_word.row_words)
        fill_one_word(S, H)
    aun = apply_autos(S, H, AUM, AUU, 0)
    ctl[C_AUN] = aun
    ctl[C_ROOTAUN] = aun
    ctl[C_DEPTH] = 0
    ctl[C_NODES] = 1
    ctl[C_VISITS] = 1
    ctl[C_OVERFLOW] = 0
    ctl[C_MAXDEPTH] = 0
    ctl[C_SHARED] = 0
    if is_won(S):
        return R_WON
    a, b = row_key(S, H, 0)
    tt_insert(TT, a, b)
    ctl[C_TTCOUNT] = 1
    n = gen_moves(S, MV[0], mark, True)
    if n > MV.shape[1]:
        ctl[C_OVERFLOW] = 1
        n = MV.shape[1]
    if (S[O_DOM] & DOM_DEAD_ENDS) != 0 and is_dead(S, mark):
        n = 0
    NM[0] = n
    IX[0] = 0
    return R_BUDGET


@core_jit
def run_chunk(arrays: SearchArrays, max_nodes: int) -> int:
    """Run the depth-first search for up to ``max_nodes`` new positions.

    Returns R_WON (the path on the stack wins), R_EXHAUSTED (every position reachable from the
    root was searched), R_BUDGET (call again to continue) or R_GROW (the table holds
    ``ctl[C_GROWAT]`` entries, a threshold the driver sets: it grows the table with
    :meth:`klondike_widget.solver.memory.Table.grow`, in place with :func:`~.table.tt_spread`
    and :func:`~.table.tt_rehash`, and calls again). All search state lives in the arrays, so
    a chunk can stop anywhere and the next one carries on.

    It is one function of some 120 lines on purpose: cut into five helpers (the restriction, the
    table probe, the dead-end test, the expansion, the undo of automatic moves) it searched 20%
    fewer positions per CPU second, ``inline="always"`` or not (measured on the reference deals,
    December 2026), and this loop is where the solver spends its time.

    The other way round, a core function compiled apart (``core_jit``) may stay a call that
    LLVM does not inline, passing the array records and reading again what this loop knows.
    The table probe (:func:`~.pointers.probe_with`), :func:`~.prune.drop_reverse` and
    :func:`~.talon_moves.last_talon_card_first` are inlined by numba instead: reference deals
    22 and 48 to 100,000 positions each (``benchmarks/callgrind_profile.py``) took 3,401 ->
    3,041 instructions a position in draw 3 and 2,303 -> 2,219 in draw 1, the same positions.
    Inlining :func:`~.keys.key_pointer` and :func:`~.autos.is_safe` as well (some 35 more a
    position in draw 3) made the empty-cache compile of ``warm_up`` 415 -> 526 s: they stay
    called, as ``quiet.up_change`` does. The stacks are indexed with the depth as an unsigned
    integer (``d``, :func:`~.layout.ix`: no test for a negative index at each access): then
    3,041 -> 2,941 and 2,219 -> 2,150.
    """
    S, H, TT, MV, NM, IX = arrays.S, arrays.H, arrays.TT, arrays.MV, arrays.NM, arrays.IX
    UD, AUM, AUU, AUS = arrays.UD, arrays.AUM, arrays.AUU, arrays.AUS
    mark, ctl, KY = arrays.mark, arrays.ctl, arrays.KY
    depth = ctl[C_DEPTH]
    d = ix(depth)  # (depth as an index: unsigned, see ix)
    up = d  # (the parent's index, once a position is entered)
    nodes = ctl[C_NODES]
    visits = ctl[C_VISITS]
    aun = ctl[C_AUN]
    ttcount = ctl[C_TTCOUNT]
    limit = nodes + max_nodes
    grow_at = ctl[C_GROWAT]
    ahead = KY.shape[0] == MV.shape[0]  # keys read ahead (:func:`child_keys`)
    k_ptr = pointer_draw(S)  # (the same for the whole search)
    result = R_BUDGET
    while True:
        if IX[d] >= NM[d]:
            if depth == 0:
                result = R_EXHAUSTED
                break
            depth -= 1
            d = ix(depth)
            take_back(S, H, AUM, AUU, MV[d, ix(IX[d] - 1)], UD[d], aun, AUS[d])
            aun = AUS[d]
            continue
        if nodes >= limit:
            break
        if ttcount >= grow_at:
            result = R_GROW
            break
        j = ix(IX[d])
        m = MV[d, j]
        IX[d] += 1
        visits += 1
        # the child's untagged key, read ahead (child_keys) or off this position (quiet_key):
        # then the child is not won, its search does not overflow, ``autos`` automatic moves
        # follow its move, and ``row`` is where the key goes (nothing is inserted before it is)
        known = ahead and KY[d, j, 1] != U0
        row, autos, h = -1, np.int64(-1), U0
        if known:
            a, b, h = KY[d, j, 0], KY[d, j, 1], KY[d, j, 3]
            autos = np.int64(KY[d, j, 2])
        elif aun < AUM.shape[0] and depth + 1 < MV.shape[0]:
            # or read off this position (quiet_key: no automatic move follows), for a child
            # whose search does not overflow either
            a, b = row_quiet_key(S, H, m)
            if b != U0:
                known, autos, h = True, np.int64(0), tt_hash(a, b)
        if known:
            row = probe_with(TT, a, b, h, k_ptr)
            if row < 0 and not may_enter_shared(arrays, depth):
                continue  # see child_keys: not fresh, whether played or not
            # (else a held child may be the partner's, which enters_shared asks below of the
            # key the child is stored under: tagged, if restricted, as the partner's)
        AUS[d] = aun
        u, aun = play(S, H, AUM, AUU, m, aun, autos)
        UD[d] = u
        if not known and is_won(S):
            depth += 1
            result = R_WON
            break
        # after a card comes down from a foundation only a move onto it or another card
        # coming down may follow (see follow_ups): such a position is stored under its own
        # key, which also names the card that came down
        restricted = (S[O_DOM] & DOM_FND_FOLLOW_UPS) != 0 and move_kind(m) == K_FND_COL
        # the same after a talon card goes onto a column in draw 1 (see talon_follow_ups)
        t_restricted = (
            (S[O_DOM] & DOM_TALON_FOLLOW_UPS) != 0
            and S[O_DRAW] == 1
            and move_kind(m) == K_TAL_COL
            and aun == AUS[d]
        )
        # after a column is emptied (nothing turned up, nothing went up) only a King may follow
        emptied = move_kind(m) == K_COL_COL and S[O_LEN + move_src(m)] == 0
        k_restricted = (S[O_DOM] & DOM_KING_FILLS) != 0 and emptied and aun == AUS[d]
        full = not known and (aun >= AUM.shape[0] or depth + 1 >= MV.shape[0])
        fresh = added = False
        if full:
            ctl[C_OVERFLOW] = 1
        else:
            if not known:
                a, b = row_key(S, H, 0)
            if restricted or t_restricted or k_restricted:
                # the unrestricted position, if searched (or covered under a stronger
                # pointer, see pointer_probe), covers the restricted one
                if k_restricted:
                    tag = TAG_KING
                else:
                    tag = (TAG_FND if restricted else TAG_TALON) | move_card(m)
                seen = row < 0 if known else probe_with(TT, a, b, tt_hash(a, b), k_ptr) < 0
                a, b = row_tagged_key(S, H, a, b, tag)
                fresh = added = not seen and tt_insert(TT, a, b)
            else:
                if not known:
                    row = probe_with(TT, a, b, tt_hash(a, b), k_ptr)  # (else made above)
                fresh = row >= 0  # (not if covered under a stronger pointer)
                if fresh:
                    added = tt_store(TT, row, a, b)  # (or over a twin it covers)
        shared = not full and not fresh and enters_shared(arrays, depth, a, b)
        if not fresh and not shared:
            take_back(S, H, AUM, AUU, m, UD[d], aun, AUS[d])
            aun = AUS[d]
            continue
        if added:
            ttcount += 1
        if not fresh:
            ctl[C_SHARED] += 1
        nodes += 1
        depth += 1
        up, d = d, ix(depth)  # (up: the parent's index)
        if depth == 1:
            arrays.FK[0] = a  # (read by the partner: see enters_shared)
            arrays.FK[1] = b
        if (
            (S[O_DOM] & DOM_DEAD_ENDS) != 0
            and S[O_F2T] == 0
            and (move_kind(m) <= K_TAL_FND or move_kind(m) == K_SWAP_FND or aun > AUS[up])
            and is_dead(S, mark)
        ):
            # see is_dead: only a card going up can make a position dead (and only when cards
            # may not come back down); otherwise dead ends are found at the root
            NM[d] = 0
            IX[d] = 0
            continue
        abstract = (S[O_DOM] & DOM_TWINS) != 0
        n = gen_abstract(S, MV[d], mark) if abstract else gen_moves(S, MV[d], mark, True)
        if n > MV.shape[1]:
            ctl[C_OVERFLOW] = 1
            n = MV.shape[1]
        if restricted and abstract:
            n = abstract_follow_ups(S, MV[d], n, move_card(m), K_FND_COL)
        elif t_restricted and abstract:
            n = abstract_follow_ups(S, MV[d], n, move_card(m), -1)
        elif restricted:
            n = follow_ups(MV[d], n, m)
        elif t_restricted:
            n = talon_follow_ups(MV[d], n, m)
        elif k_restricted:
            n = king_fills(S, MV[d], n)
        elif (UD[up] & 1) == 0 and aun == AUS[up] and (S[O_ALW] & ALW_REVERSE) != 0:
            n = drop_reverse(MV[d], n, m)
        if emptied and not k_restricted and S[O_ORDER] == ORDER_REVEALS and S[O_DRAW] == 1:
            kings_first(S, MV[d], n)  # a column emptied: a King into it first (an order)
        NM[d] = n
        IX[d] = 0
        if ahead:
            child_keys(arrays, depth, aun)
        if depth > ctl[C_MAXDEPTH]:
            ctl[C_MAXDEPTH] = depth
    ctl[C_DEPTH] = depth
    ctl[C_NODES] = nodes
    ctl[C_VISITS] = visits
    ctl[C_AUN] = aun
    ctl[C_TTCOUNT] = ttcount
    return result
