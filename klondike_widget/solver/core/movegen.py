# mypy: disable-error-code="no-any-return"
"""Move generation: the moves of a position, best first, and those between twin classes.

:func:`gen_moves` writes every move (``prune`` false: what the differential tests compare with
the engine) or the moves the search needs (``prune`` true): with twin classes
(``DOM_TWINS``) that is :func:`gen_abstract`, one move per class.
"""

from __future__ import annotations

import numpy as np

from .autos import is_safe, would_go_back_up
from .codes import (
    K_COL_COL,
    K_COL_FND,
    K_FND_COL,
    K_SWAP_FND,
    K_TAL_COL,
    K_TAL_FND,
    encode,
    move_prio,
    with_dst,
)
from .keys import key_pointer, structure_count
from .layout import (
    ALW_BACK_UP,
    ALW_KINGS,
    CAP,
    DOM_LAST_TALON_UP,
    DOM_PARTIAL_RUNS,
    DOM_TWINS,
    NCOL,
    O_ALW,
    O_COLS,
    O_DOM,
    O_DRAW,
    O_F2T,
    O_FD,
    O_FND,
    O_LEN,
    O_ORDER,
    O_TAL,
    O_TN,
    O_TP,
    ORDER_REVEALS,
    RANK,
    SCR_TOP,
    SUIT,
    TG1,
    TG2,
    core_jit,
    core_jit_inline,
    stacks,
    twin,
)

__all__ = [
    "gen_abstract",
    "gen_moves",
    "last_talon_card_first",
    "reachable_talon",
]


@core_jit
def reachable_talon(S: np.ndarray, mark: np.ndarray, recycles: bool = True) -> None:
    """Set ``mark[i] = 1`` for every talon index that taps and recycles can bring to the top.

    With ``recycles`` false only the *forward* ones: the waste top and what taps reach before
    the next recycle (the last card among them).
    """
    tn = S[O_TN]
    tp = S[O_TP]
    k = S[O_DRAW]
    for i in range(tn + 1):
        mark[i] = 0  # nobody reads past the talon's end
    if tn == 0:
        return
    if tp > 0:
        mark[tp - 1] = 1
    p = tp
    while p < tn:
        p = min(p + k, tn)
        mark[p - 1] = 1
    p = 0
    while recycles and p < tn:
        p = min(p + k, tn)
        mark[p - 1] = 1


@core_jit
def last_talon_card_first(S: np.ndarray) -> bool:
    """True if a draw-3 position needs no talon card that only a recycle reaches.

    That is when the last talon card ``L`` is next on its foundation and safe there
    (:func:`~klondike_widget.solver.core.autos.is_safe`) while the pointer is not one that
    reaches what pointer 0 reaches (``key_pointer != 0``; for those ``L`` goes up automatically,
    :func:`~klondike_widget.solver.core.autos.apply_autos`). Switch: ``DOM_LAST_TALON_UP``.
    This is lonelybot's deck rule (``get_deck_mask`` with ``filter``); :func:`gen_abstract`
    (and :func:`gen_moves` with ``prune``) then generates the forward talon cards only
    (``L`` is one of them).

    *Argument* (the move measure of :func:`is_safe`: a shortest winning line). Let ``W`` be a
    shortest winning line of ``P`` that starts by playing a recycle-only card ``c`` (index
    ``i < n - 1``, ``n`` talon cards). The kept line plays ``L`` up first, then ``c``, then a
    line from ``P.L.c`` no longer than ``W`` minus its first move and minus one:

    1. ``L`` up leaves the pointer at ``n - 1``, the new end (a pointer that reaches what 0
       reaches), and no other card changes index, so ``c`` is reachable after a recycle; playing
       it leaves the pointer at ``i``. So ``P.L.c`` is ``P.c`` with its last card ``L`` up and
       the same pointer.
    2. *Removing the last talon card (safe) keeps a win, by a shorter line.* With the same
       pointer and the last card gone, every other card keeps its index, and the cards the taps
       reach are those reached before except ``L`` (the forward ones below the end and those
       after a recycle are the same indices), plus the new last card. Play ``P.c``'s winning line
       from ``P.L.c``: its talon plays stay legal (the card is reachable in ours too) and leave
       the pointer at the same index as in its line; where it plays ``L`` (up or onto a column),
       ours skips it and its pointer is left where it was, which reaches every card a pointer at
       the new end reaches, and the next talon play puts both pointers at the same index again.
       ``L`` stays safe in ``P.c`` (foundations only rose, and ``c`` is not ``L``'s suit's
       next), so the dead-card argument of :func:`is_safe` (``L`` in ``D``: nothing can be put
       on a talon card, and once ``W`` puts ``L`` on a column it is a column card of ``D``)
       carries the rest of the line over, and the line is shorter by ``L``'s own moves (one at
       least: ``W`` must put ``L`` up).

    So ``P.L``, a generated child, has a winning line shorter than ``W``: the search, which
    tries every generated move, still finds a win. Only recycle-only cards are dropped: a
    forward card ``c`` would come first with ``L`` still in the talon at the same index, and is
    kept anyway. The rule needs ``L`` safe: a card that is only next, not safe, may be needed on
    a column (``tests/solver/test_deck_rule.py`` holds positions that a version without the safety
    test, or without ``L`` next, loses).

    >>> from klondike_widget.solver.core.layout import S_SIZE, DOM_LAST_TALON_UP
    >>> S = np.zeros(S_SIZE, dtype=np.int32)
    >>> S[O_DRAW] = 3; S[O_DOM] = DOM_LAST_TALON_UP
    >>> S[O_TN] = 5; S[O_TP] = 1; S[O_TAL : O_TAL + 5] = [5, 6, 7, 8, 0]  # A♣ last, 6♣ waste top
    >>> bool(last_talon_card_first(S))
    True
    >>> S[O_TP] = 3; bool(last_talon_card_first(S))  # pointer 3 reaches what 0 reaches
    False
    """
    tn = S[O_TN]
    if S[O_DRAW] == 1 or tn == 0 or (S[O_DOM] & DOM_LAST_TALON_UP) == 0 or key_pointer(S) == 0:
        return False
    last = S[O_TAL + tn - 1]
    return S[O_FND + SUIT[last]] == RANK[last] and is_safe(S, last)


@core_jit
def _add(out: np.ndarray, n: int, m: int) -> int:
    if n < out.shape[0]:
        out[n] = m
        return n + 1
    return n + 1  # caller sees n > capacity: overflow


@core_jit
def _onto_columns(
    out: np.ndarray,
    n: int,
    S: np.ndarray,
    mark: np.ndarray,
    code: int,
    card: int,
    skip: int,
    empty: int,
) -> int:
    """Add move ``code`` once per column that takes ``card``, the target column filled in.

    A King goes to an empty column: any (``empty == -1``), only column ``empty`` (``>= 0``)
    or none (``-2``). Any other card goes onto the column tops it stacks on
    (``mark[SCR_TOP + top]`` holds each top's column + 1). Column ``skip`` is never a target.
    """
    if RANK[card] == 12:
        if empty != -2:
            for t in range(NCOL):
                if t != skip and S[O_LEN + t] == 0 and (empty == -1 or t == empty):
                    n = _add(out, n, with_dst(code, t))
        return n
    for w in range(2):
        t = mark[SCR_TOP + (TG1[card] if w == 0 else TG2[card])] - 1
        if t >= 0 and t != skip:
            n = _add(out, n, with_dst(code, t))
    return n


@core_jit
def _mark_tops(S: np.ndarray, mark: np.ndarray) -> int:
    """Set ``mark[SCR_TOP + top] = column + 1`` for every column top; return the first empty
    column (-1: none)."""
    first_empty = -1
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln == 0:
            if first_empty < 0:
                first_empty = t
        else:
            mark[SCR_TOP + S[O_COLS + t * CAP + ln - 1]] = t + 1
    return first_empty


@core_jit
def _unmark_tops(S: np.ndarray, mark: np.ndarray) -> None:
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln > 0:
            mark[SCR_TOP + S[O_COLS + t * CAP + ln - 1]] = 0


@core_jit
def _sort_moves(out: np.ndarray, n: int) -> None:
    """Highest priority first, stable (insertion sort on a handful of moves)."""
    m = min(n, out.shape[0])
    for i in range(1, m):
        v = out[i]
        j = i - 1
        while j >= 0 and move_prio(out[j]) < move_prio(v):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v


@core_jit
def _landing(S: np.ndarray, mark: np.ndarray, card: int, first_empty: int) -> int:
    """One column ``card`` can go onto (a top it stacks on, or for a King the first empty
    column); -1 if none. In twin classes any such column gives the same class."""
    if RANK[card] == 12:
        return first_empty
    t = mark[SCR_TOP + TG1[card]] - 1
    if t < 0:
        t = mark[SCR_TOP + TG2[card]] - 1
    return t


@core_jit
def _from_foundations(
    S: np.ndarray,
    out: np.ndarray,
    n: int,
    mark: np.ndarray,
    first_empty: int,
    prune: bool,
    one_target: bool,
) -> int:
    """Add the foundation-to-column moves (none if the rules forbid them); return the count.

    With ``prune`` a card that would at once go back up stays; with ``one_target`` (twin
    classes) each card gets one target column, else every column that takes it.
    """
    if S[O_F2T] == 0:
        return n
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 0:
            continue
        card = suit * 13 + h - 1
        if prune and (S[O_ALW] & ALW_BACK_UP) != 0 and would_go_back_up(S, card):
            continue
        if one_target:
            t = _landing(S, mark, card, first_empty)
            if t >= 0:
                n = _add(out, n, encode(K_FND_COL, card, suit, t, 1, 10))
        else:
            code = encode(K_FND_COL, card, suit, 0, 1, 10)
            kings = prune and (S[O_ALW] & ALW_KINGS) != 0
            n = _onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    return n


@core_jit_inline
def _abstract_to_foundations(S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray) -> int:
    """Twin classes: each foundation's next card up from a column top, or through
    :data:`K_SWAP_FND` when it is covered and its twin is a column top."""
    reveals_first = S[O_ORDER] == ORDER_REVEALS
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 13:
            continue
        card = suit * 13 + h
        col = mark[SCR_TOP + card] - 1
        if col >= 0:
            ln = S[O_LEN + col]
            prio = 70 if ln - 1 == S[O_FD + col] and S[O_FD + col] > 0 else 60
            if reveals_first:
                prio = 80
            n = _add(out, n, encode(K_COL_FND, card, col, 0, 1, prio))
            continue
        t = mark[SCR_TOP + twin(card)] - 1
        if t < 0:
            continue
        for c in range(NCOL):
            ln = S[O_LEN + c]
            fd = S[O_FD + c]
            for k in range(fd, ln - 1):
                if S[O_COLS + c * CAP + k] == card:
                    prio = 70 if k == fd and fd > 0 else 60
                    if reveals_first:
                        prio = 80
                    n = _add(out, n, encode(K_SWAP_FND, card, c, t, ln - 1 - k, prio))
    return n


@core_jit_inline
def _abstract_talon(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int
) -> int:
    """Twin classes: talon cards, fewest taps first (the waste top, on through the stock, then
    after a recycle; in draw 1 every talon card is reachable; in draw 3 only the forward ones
    when :func:`last_talon_card_first`), each to its foundation and onto one column."""
    reveals_first = S[O_ORDER] == ORDER_REVEALS
    draw1 = S[O_DRAW] == 1
    if not draw1:
        reachable_talon(S, mark, not last_talon_card_first(S))
    tn = S[O_TN]
    start = S[O_TP] - 1 if S[O_TP] > 0 else 0
    for j in range(tn):
        i = start + j
        if i >= tn:
            i -= tn
        if not draw1 and mark[i] == 0:
            continue
        card = S[O_TAL + i]
        if S[O_FND + SUIT[card]] == RANK[card]:
            n = _add(out, n, encode(K_TAL_FND, card, i, 0, 1, 50 if reveals_first else 55))
        t = _landing(S, mark, card, first_empty)
        if t >= 0:
            prio = 72 - RANK[card] if reveals_first else 40
            n = _add(out, n, encode(K_TAL_COL, card, i, t, 1, prio))
    return n


@core_jit_inline
def _abstract_reveals(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int
) -> int:
    """Twin classes: each root with everything on it onto one column (a King on face-down
    cards to an empty column)."""
    for s in range(NCOL):
        if structure_count(S, s) == S[O_FD + s]:
            continue  # no root
        fd = S[O_FD + s]
        root = S[O_COLS + s * CAP + fd]
        t = first_empty if RANK[root] == 12 else _landing(S, mark, root, -1)
        if t >= 0:
            prio = 50 + fd if fd > 0 else 35
            if S[O_ORDER] == ORDER_REVEALS:
                prio = 112 - RANK[root]
            n = _add(out, n, encode(K_COL_COL, root, s, t, S[O_LEN + s] - fd, prio))
    return n


@core_jit
def gen_abstract(S: np.ndarray, out: np.ndarray, mark: np.ndarray) -> int:
    """The moves between twin classes (``DOM_TWINS``), best first; return how many.

    Two cards of the same rank and colour are *twins*. A face-up card is a *root* if it lies on
    face-down cards or, not being a King, at the bottom of a column; every other face-up card is
    *placed* on a card it stacks on (or is a King at the bottom of a column). Positions with the
    same :func:`~klondike_widget.solver.core.keys.abstract_key` differ only in which of two twins
    each placed card lies on (and in the order of the columns), and they are equally winnable:

    * a placed run lying on one twin while the other is a column top moves onto it and back
      (two legal moves), so such positions reach each other;
    * when both twins are covered, by placed runs headed by X and X', swapping the two runs
      changes nothing any move can see until X or X' leaves: neither can go onto its other
      parent (covered) nor, not being a King, to an empty column, so the first to leave goes
      to its foundation, after which the two positions differ by a swap of the first kind.

    So one move per class is enough, and only these change the class: a card to its foundation
    (a covered card whose twin is a column top goes up as :data:`K_SWAP_FND`: its run moves
    onto the twin first); a talon card or a foundation card onto a column (one target: every
    column top of the right rank and colour gives the same class); and a root's run onto a
    column (the *reveal*, which turns up the card under it or empties the column). Moving a
    placed run only moves it between twins or, for a King, between empty columns: the same
    class, never generated. This is lonelybot's game abstraction, kept on concrete columns so
    that every line is a line of real moves.
    """
    first_empty = _mark_tops(S, mark)
    n = _abstract_to_foundations(S, out, 0, mark)
    n = _abstract_talon(S, out, n, mark, first_empty)
    n = _abstract_reveals(S, out, n, mark, first_empty)
    n = _from_foundations(S, out, n, mark, first_empty, True, True)
    _unmark_tops(S, mark)
    _sort_moves(out, n)
    return n


@core_jit_inline
def _columns_to_foundations(S: np.ndarray, out: np.ndarray, n: int) -> int:
    """Every column top that is next on its foundation goes up."""
    for c in range(NCOL):
        ln = S[O_LEN + c]
        if ln > 0:
            card = S[O_COLS + c * CAP + ln - 1]
            if S[O_FND + SUIT[card]] == RANK[card]:
                prio = 60
                if ln - 1 == S[O_FD + c] and S[O_FD + c] > 0:
                    prio = 70
                n = _add(out, n, encode(K_COL_FND, card, c, 0, 1, prio))
    return n


@core_jit_inline
def _talon_moves(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int, kings: bool
) -> int:
    """Every talon card marked by :func:`reachable_talon`, to its foundation and onto columns."""
    for i in range(S[O_TN]):
        if mark[i] == 0:
            continue
        card = S[O_TAL + i]
        if S[O_FND + SUIT[card]] == RANK[card]:
            n = _add(out, n, encode(K_TAL_FND, card, i, 0, 1, 55))
        code = encode(K_TAL_COL, card, i, 0, 1, 40)
        n = _onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    return n


@core_jit_inline
def _column_moves(
    S: np.ndarray,
    out: np.ndarray,
    n: int,
    mark: np.ndarray,
    first_empty: int,
    kings: bool,
    partial: bool,
) -> int:
    """Every run of face-up cards onto another column (``partial``: ``DOM_PARTIAL_RUNS``)."""
    for s in range(NCOL):
        ln = S[O_LEN + s]
        fd = S[O_FD + s]
        k = ln - 1
        while k >= fd and ln > 0:
            card = S[O_COLS + s * CAP + k]
            count = ln - k
            if k == fd and fd > 0:
                prio = 50 + fd
            elif k == 0:
                prio = 35
            else:
                prio = 20
                under = S[O_COLS + s * CAP + k - 1]
                if partial and stacks(card, under) and S[O_FND + SUIT[under]] != RANK[under]:
                    # a run split off a longer run moves only to let the card under it go up
                    k -= 1
                    continue
            empty = -1 if not kings else (first_empty if k > 0 else -2)
            code = encode(K_COL_COL, card, s, 0, count, prio)
            n = _onto_columns(out, n, S, mark, code, card, s, empty)
            if k > fd and not stacks(card, S[O_COLS + s * CAP + k - 1]):
                break
            k -= 1
    return n


@core_jit
def gen_moves(S: np.ndarray, out: np.ndarray, mark: np.ndarray, prune: bool) -> int:
    """Write the moves of the position into ``out`` (best first); return how many.

    Returns more than ``out.shape[0]`` if they did not fit (the caller treats that as an
    incomplete search). With ``prune`` false every legal move is generated (talon cards reachable
    by taps and recycles, each with its plays), which the differential tests compare with the
    engine; with ``prune`` true moves that only lead to an equivalent position are left out:
    a King that is alone in its column moving to an empty column, a King moving to any empty
    column but the first, and a card moving down from a foundation that would at once be moved
    back up automatically. The King prunes (switch ``ALW_KINGS``) only drop moves to a
    position that equals one kept up to the order of the columns, which the key ignores (a King
    alone moving to another empty column; a King, from anywhere, going to an empty column other
    than the first: empty columns are interchangeable), whatever the foundation rule. The
    foundation card prune is argued in :func:`would_go_back_up`. Talon moves are macro moves:
    every talon card taps and recycles can bring to the top (:func:`reachable_talon`) gets its
    plays, and the line expands the taps (``bridge.engine_moves``), so the talon moves are
    exactly the engine's, up to the taps in between, which change nothing else; with ``prune``,
    in draw 3, the cards only a recycle reaches are left out while the last talon card is safe
    (:func:`last_talon_card_first`).
    With ``DOM_PARTIAL_RUNS``, a run split off a longer run moves
    only when the card under it can then go to its foundation (the dominance Solvitaire and
    lonelybot use: exposing a face-up card for any other purpose can be had by moving the other
    run).
    """
    if prune and (S[O_DOM] & DOM_TWINS) != 0:
        return gen_abstract(S, out, mark)
    kings = prune and (S[O_ALW] & ALW_KINGS) != 0
    partial = prune and (S[O_DOM] & DOM_PARTIAL_RUNS) != 0
    first_empty = _mark_tops(S, mark)
    n = _columns_to_foundations(S, out, 0)
    reachable_talon(S, mark, not (prune and last_talon_card_first(S)))
    n = _talon_moves(S, out, n, mark, first_empty, kings)
    n = _column_moves(S, out, n, mark, first_empty, kings, partial)
    n = _from_foundations(S, out, n, mark, first_empty, prune, False)
    _unmark_tops(S, mark)
    _sort_moves(out, n)
    return n
