# mypy: disable-error-code="no-any-return"
"""Talon moves: which talon cards taps and recycles reach, the draw-3 deck rule, their moves.

The talon is ``T = waste + reversed(stock)`` with the pointer ``tp = len(waste)``
(:mod:`~klondike_widget.solver.core.layout`); a talon move is a macro move "tap and recycle
until ``T[i]`` is the waste top, then play it". :func:`reachable_talon` marks the indices that
can be brought to the top, :func:`last_talon_card_first` says when the cards only a recycle
reaches can be left out (draw 3), and :func:`abstract_talon_moves` (twin classes) and
:func:`every_talon_move` write the moves, for
:func:`~klondike_widget.solver.core.movegen.gen_moves`.

>>> from klondike_widget.solver.core.layout import S_SIZE, SCR_SIZE
>>> S = np.zeros(S_SIZE, dtype=np.int32); mark = np.zeros(SCR_SIZE, dtype=np.int32)
>>> S[O_DRAW] = 3; S[O_TN] = 7; S[O_TP] = 1
>>> reachable_talon(S, mark); [i for i in range(7) if mark[i]]
[0, 2, 3, 5, 6]
>>> reachable_talon(S, mark, False); [i for i in range(7) if mark[i]]
[0, 3, 6]
"""

from __future__ import annotations

import numpy as np

from .autos import is_safe
from .codes import K_TAL_COL, K_TAL_FND, encode
from .keys import key_pointer
from .layout import (
    DOM_LAST_TALON_UP,
    O_DOM,
    O_DRAW,
    O_FND,
    O_ORDER,
    O_TAL,
    O_TN,
    O_TP,
    ORDER_DEFAULT,
    RANK,
    SUIT,
    TAL_CAP,
    core_jit,
    core_jit_inline,
    ix,
    low_bit,
)
from .priorities import talon_onto_column_priority, talon_up_priority
from .targets import add_move, landing_column, onto_columns

__all__ = [
    "abstract_talon_moves",
    "every_talon_move",
    "last_talon_card_first",
    "reach_mask",
    "reachable_talon",
    "talon_indices",
]


#: ``TAPS[k]``: bits ``k - 1, 2k - 1, 3k - 1, ...``: the indices that taps of ``k`` cards
#: bring to the top from pointer 0 (:func:`reach_mask` shifts and cuts it to the talon).
TAPS = np.zeros(TAL_CAP + 1, dtype=np.int64)
for _k in range(1, TAL_CAP + 1):
    for _i in range(_k - 1, 63, _k):
        TAPS[_k] |= np.int64(1) << _i
del _k, _i


@core_jit
def reach_mask(S: np.ndarray, recycles: bool = True) -> np.int64:
    """Bit ``i`` set for every talon index that taps and recycles can bring to the top.

    With ``recycles`` false only the *forward* ones: the waste top and what taps reach before
    the next recycle (the last card among them).

    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_DRAW] = 3; S[O_TN] = 7; S[O_TP] = 1
    >>> bin(int(reach_mask(S))), bin(int(reach_mask(S, False)))
    ('0b1101101', '0b1001001')
    """
    tn = S[O_TN]
    tp = S[O_TP]
    one = np.int64(1)
    if tn == 0:
        return np.int64(0)
    within = (one << tn) - one  # the talon's indices
    end = one << (tn - 1)  # the last card: the top when a tap or a round of taps ends there
    every = TAPS[min(S[O_DRAW], TAL_CAP)]
    m = (every & within) | end if recycles else np.int64(0)  # from pointer 0: k - 1, 2k - 1, ...
    if tp > 0:
        m |= one << (tp - 1)
    if tp < tn:
        m |= ((every << tp) & within) | end  # from the pointer: tp + k - 1, tp + 2k - 1, ...
    return m


@core_jit
def reachable_talon(S: np.ndarray, mark: np.ndarray, recycles: bool = True) -> None:
    """Set ``mark[i] = 1`` for every talon index that taps and recycles can bring to the top
    (:func:`reach_mask`), ``mark[i] = 0`` for the others up to ``mark[tn]``."""
    m = reach_mask(S, recycles)
    for i in range(S[O_TN] + 1):
        mark[i] = (m >> i) & 1  # nobody reads past the talon's end


@core_jit_inline
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
    if S[O_DRAW] == 1 or tn == 0 or (S[O_DOM] & DOM_LAST_TALON_UP) == 0:
        return False
    last = S[O_TAL + tn - 1]  # next first: the cheapest test, and the one that fails most
    return S[O_FND + SUIT[last]] == RANK[last] and key_pointer(S) != 0 and is_safe(S, last)


@core_jit_inline
def talon_indices(S: np.ndarray, cards: np.int64) -> np.uint64:
    """Bit ``i`` set for every talon index ``i`` whose card is in the card mask ``cards``.

    One loop without a branch (unsigned shifts: LLVM turns it into vector code).

    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_TN] = 4; S[O_TAL : O_TAL + 4] = [7, 3, 9, 3]
    >>> bin(int(talon_indices(S, np.int64((1 << 3) | (1 << 9)))))
    '0b1110'
    """
    u = np.uint64(cards)
    one = np.uint64(1)
    m = np.uint64(0)
    for i in range(S[O_TN]):
        m |= ((u >> ix(S[ix(O_TAL + i)])) & one) << ix(i)
    return m


@core_jit_inline
def _talon_card_moves(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int, i: int
) -> int:
    """:func:`abstract_talon_moves` for talon index ``i``: up, then onto one column."""
    card = S[ix(O_TAL + i)]
    order = S[O_ORDER]
    if S[ix(O_FND + SUIT[ix(card)])] == RANK[ix(card)]:
        n = add_move(out, n, encode(K_TAL_FND, card, i, 0, 1, talon_up_priority(order)))
    t = landing_column(S, mark, card, first_empty)
    if t >= 0:
        prio = talon_onto_column_priority(order, card)
        n = add_move(out, n, encode(K_TAL_COL, card, i, t, 1, prio))
    return n


@core_jit_inline
def abstract_talon_moves(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int, landing: np.int64
) -> int:
    """Twin classes: talon cards, fewest taps first (the waste top, on through the stock, then
    after a recycle; in draw 1 every talon card is reachable; in draw 3 only the forward ones
    when :func:`last_talon_card_first`), each to its foundation and onto one column.

    Only the cards in ``useful`` can have a move (next on their foundation, or with a column
    to land on: ``landing``, :func:`~.targets.mark_landings`); :func:`talon_indices` turns
    that into talon indices, which with the reachable ones (:func:`reach_mask`) leave the few
    indices to visit: from the waste top (``start``) to the end, then from 0, one set bit at a
    time (:func:`~.layout.low_bit`).
    """
    tn = S[O_TN]
    if tn == 0:
        return n
    one = np.int64(1)
    useful = landing
    for suit in range(4):
        h = S[O_FND + suit]
        if h < 13:
            useful |= one << (suit * 13 + h)
    todo = talon_indices(S, useful)
    if S[O_DRAW] != 1:
        todo &= np.uint64(reach_mask(S, not last_talon_card_first(S)))
    start = ix(S[O_TP] - 1 if S[O_TP] > 0 else 0)
    ahead = todo >> start << start  # the waste top and on, then those after a recycle
    for m in (ahead, todo ^ ahead):
        while m != np.uint64(0):
            i = low_bit(m)
            n = _talon_card_moves(S, out, n, mark, first_empty, i)
            m &= m - np.uint64(1)
    return n


@core_jit_inline
def every_talon_move(
    S: np.ndarray, out: np.ndarray, n: int, mark: np.ndarray, first_empty: int, kings: bool
) -> int:
    """Every talon card marked by :func:`reachable_talon`, to its foundation and onto columns."""
    for i in range(S[O_TN]):
        if mark[i] == 0:
            continue
        card = S[O_TAL + i]
        if S[O_FND + SUIT[card]] == RANK[card]:
            n = add_move(out, n, encode(K_TAL_FND, card, i, 0, 1, talon_up_priority(ORDER_DEFAULT)))
        code = encode(K_TAL_COL, card, i, 0, 1, talon_onto_column_priority(ORDER_DEFAULT, card))
        n = onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    return n
