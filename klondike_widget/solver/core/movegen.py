# mypy: disable-error-code="no-any-return"
"""Move generation: the moves of a position, best first, and those between twin classes.

:func:`gen_moves` writes every move (``prune`` false: what the differential tests compare with
the engine) or the moves the search needs (``prune`` true): with twin classes
(``DOM_TWINS``) that is :func:`gen_abstract`, one move per class.
"""

from __future__ import annotations

import numpy as np

from .autos import would_go_back_up
from .codes import (
    K_COL_COL,
    K_COL_FND,
    K_FND_COL,
    K_SWAP_FND,
    encode,
    move_prio,
)
from .keys import root_card
from .layout import (
    ALW_BACK_UP,
    ALW_KINGS,
    CAP,
    DOM_PARTIAL_RUNS,
    DOM_TWINS,
    NCOL,
    O_ALW,
    O_COLS,
    O_DOM,
    O_F2T,
    O_FD,
    O_FND,
    O_LEN,
    O_ORDER,
    ORDER_DEFAULT,
    RANK,
    SCR_TOP,
    SUIT,
    core_jit,
    core_jit_inline,
    ix,
    stacks,
)
from .priorities import FROM_FOUNDATION, PLACED_RUN, reveal_priority, up_priority
from .prune import fills_empty
from .talon_moves import (
    abstract_talon_moves,
    every_talon_move,
    last_talon_card_first,
    reachable_talon,
)
from .targets import add_move, landing_column, mark_landings, mark_tops, onto_columns, unmark_tops

__all__ = [
    "gen_abstract",
    "gen_moves",
    "kings_first",
]


@core_jit_inline
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


@core_jit_inline
def _from_foundations(
    S: np.ndarray,
    out: np.ndarray,
    n: int,
    mark: np.ndarray,
    first_empty: int,
    prune: bool,
    one_target: bool,
    landing: np.int64,
) -> int:
    """Add the foundation-to-column moves (none if the rules forbid them); return the count.

    With ``prune`` a card that would at once go back up stays; with ``one_target`` (twin
    classes) each card gets one target column, else every column that takes it. (Twin classes
    ask for a target first, in the landing mask of :func:`~.targets.mark_landings`: it is
    cheaper than the safety test and most cards have none.)
    """
    if S[O_F2T] == 0:
        return n
    back_up = prune and (S[O_ALW] & ALW_BACK_UP) != 0
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 0:
            continue
        card = suit * 13 + h - 1
        if one_target:
            if ((landing >> card) & 1) == 0:
                continue
            t = landing_column(S, mark, card, first_empty)
            if not (back_up and would_go_back_up(S, card)):
                n = add_move(out, n, encode(K_FND_COL, card, suit, t, 1, FROM_FOUNDATION))
        elif not (back_up and would_go_back_up(S, card)):
            code = encode(K_FND_COL, card, suit, 0, 1, FROM_FOUNDATION)
            kings = prune and (S[O_ALW] & ALW_KINGS) != 0
            n = onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    return n


@core_jit_inline
def _abstract_to_foundations(S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray) -> int:
    """Twin classes: each foundation's next card up from a column top, or through
    :data:`K_SWAP_FND` when it is covered and its twin is a column top.

    A covered face-up card is found with one read per column: twin classes are searched only
    while every column's face-up cards form a run (``bridge.encode_state``; every move keeps
    it so), where the card of rank ``r`` can only lie ``RANK[bottom] - r`` places above the
    run's bottom card.
    """
    order = S[O_ORDER]
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 13:
            continue
        card = suit * 13 + h
        col = mark[ix(SCR_TOP + card)] - 1
        if col >= 0:
            fd = S[O_FD + col]
            prio = up_priority(order, S[O_LEN + col] - 1 == fd and fd > 0)
            n = add_move(out, n, encode(K_COL_FND, card, col, 0, 1, prio))
            continue
        t = mark[ix(SCR_TOP + (3 - suit) * 13 + h)] - 1  # the twin: same rank and colour
        if t < 0:
            continue
        for c in range(NCOL):
            ln = S[O_LEN + c]
            fd = S[O_FD + c]
            if ln - 1 <= fd:
                continue  # no covered face-up card
            k = fd + RANK[ix(S[ix(O_COLS + c * CAP + fd)])] - h
            if fd <= k < ln - 1 and S[ix(O_COLS + c * CAP + k)] == card:
                prio = up_priority(order, k == fd and fd > 0)
                n = add_move(out, n, encode(K_SWAP_FND, card, c, t, ln - 1 - k, prio))
                break  # (the card lies in one column only)
    return n


@core_jit_inline
def _abstract_reveals(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int, landing: np.int64
) -> int:
    """Twin classes: each root with everything on it onto one column (a King on face-down
    cards to an empty column); ``landing`` (:func:`~.targets.mark_landings`) says which have
    one."""
    order = S[O_ORDER]
    for s in range(NCOL):
        root = root_card(S, s)
        if root < 0 or ((landing >> root) & 1) == 0:
            continue
        fd = S[O_FD + s]
        t = landing_column(S, mark, root, first_empty)
        if t >= 0:
            prio = reveal_priority(order, root, fd)
            n = add_move(out, n, encode(K_COL_COL, root, s, t, S[O_LEN + s] - fd, prio))
    return n


@core_jit_inline
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
    first_empty, landing = mark_landings(S, mark)
    n = _abstract_to_foundations(S, out, 0, mark)
    n = abstract_talon_moves(S, out, n, mark, first_empty, landing)
    n = _abstract_reveals(S, out, n, mark, first_empty, landing)
    n = _from_foundations(S, out, n, mark, first_empty, True, True, landing)
    unmark_tops(S, mark)
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
                prio = up_priority(ORDER_DEFAULT, ln - 1 == S[O_FD + c] and S[O_FD + c] > 0)
                n = add_move(out, n, encode(K_COL_FND, card, c, 0, 1, prio))
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
            if k == fd:  # a root: it turns a card up or empties its column
                prio = reveal_priority(ORDER_DEFAULT, card, fd)
            else:
                prio = PLACED_RUN
                under = S[O_COLS + s * CAP + k - 1]
                if partial and stacks(card, under) and S[O_FND + SUIT[under]] != RANK[under]:
                    # a run split off a longer run moves only to let the card under it go up
                    k -= 1
                    continue
            empty = -1 if not kings else (first_empty if k > 0 else -2)
            code = encode(K_COL_COL, card, s, 0, count, prio)
            n = onto_columns(out, n, S, mark, code, card, s, empty)
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
    every talon card taps and recycles can bring to the top
    (:func:`~.talon_moves.reachable_talon`) gets its plays, and the line expands the taps
    (``bridge.engine_moves``), so the talon moves are exactly the engine's, up to the taps in
    between, which change nothing else; with ``prune``, in draw 3, the cards only a recycle
    reaches are left out while the last talon card is safe
    (:func:`~.talon_moves.last_talon_card_first`). With ``DOM_PARTIAL_RUNS``, a run split off
    a longer run moves only when the card under it can then go to its foundation (the dominance
    Solvitaire and lonelybot use: exposing a face-up card for any other purpose can be had by
    moving the other run).
    """
    if prune and (S[O_DOM] & DOM_TWINS) != 0:
        return gen_abstract(S, out, mark)
    kings = prune and (S[O_ALW] & ALW_KINGS) != 0
    partial = prune and (S[O_DOM] & DOM_PARTIAL_RUNS) != 0
    first_empty = mark_tops(S, mark)
    n = _columns_to_foundations(S, out, 0)
    reachable_talon(S, mark, not (prune and last_talon_card_first(S)))
    n = every_talon_move(S, out, n, mark, first_empty, kings)
    n = _column_moves(S, out, n, mark, first_empty, kings, partial)
    n = _from_foundations(S, out, n, mark, first_empty, prune, False, np.int64(-1))
    unmark_tops(S, mark)
    _sort_moves(out, n)
    return n


@core_jit
def kings_first(S: np.ndarray, out: np.ndarray, n: int) -> None:
    """Move the moves that put a King into an empty column (:func:`~.prune.fills_empty`) to the
    front of ``out[:n]``, the order otherwise kept; every move stays.

    The search calls it after a column is emptied, in draw 1 in the second order
    (``ORDER_REVEALS``): lonelybot, whose order that one follows, keeps only those moves there
    (``DOM_KING_FILLS``, which is off here: it is not sound beside ``DOM_TALON_FOLLOW_UPS``).
    As an order it changes no verdict. Numbered draw-1 deals 1-5000 (10 s each): 102.04 M ->
    100.08 M positions, the won deals 29.31 -> 27.74 M; fresh draw-1 deals of seeds 16 and 17
    (400 each): 19.01 -> 17.53 M, the won deals 5.44 -> 4.00 M; no verdict changed. In both
    orders: 100.56 M on the numbered deals; in draw 3 (both orders, or the second alone) within
    0.4% of the positions without, on those sets.

    >>> from klondike_widget.solver.core.codes import K_COL_COL, K_TAL_COL, encode
    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_LEN + 1] = 1; S[O_COLS + CAP] = 24  # Q♦
    >>> out = np.array([encode(K_TAL_COL, 48, 0, 1, 1, 9), encode(K_TAL_COL, 12, 1, 0, 1, 9),
    ...                 encode(K_COL_COL, 24, 1, 0, 1, 9)], dtype=np.int32)  # J♠, K♣, Q♦
    >>> kings_first(S, out, 3); [int(m) for m in out] == [encode(K_TAL_COL, 12, 1, 0, 1, 9),
    ...     encode(K_TAL_COL, 48, 0, 1, 1, 9), encode(K_COL_COL, 24, 1, 0, 1, 9)]
    True
    """
    k = 0
    for i in range(n):
        v = out[i]
        if fills_empty(S, v):
            for j in range(i, k, -1):
                out[j] = out[j - 1]
            out[k] = v
            k += 1
