# mypy: disable-error-code="no-any-return"
"""Where a card can go: the column tops marked in the scratch array, and the move list.

:func:`mark_tops` writes, for every column top, its column + 1 at ``mark[SCR_TOP + top]``, so
the two cards a card stacks on (``TG1``, ``TG2``) name their columns in two reads;
:func:`onto_columns` and :func:`landing_column` read those marks, :func:`add_move` appends to
a move list. Shared by the column and the talon move generators
(:mod:`~klondike_widget.solver.core.movegen`, :mod:`~klondike_widget.solver.core.talon_moves`).

>>> from klondike_widget.solver.core.layout import S_SIZE, SCR_SIZE
>>> S = np.zeros(S_SIZE, dtype=np.int32); mark = np.zeros(SCR_SIZE, dtype=np.int32)
>>> S[O_LEN + 2] = 1; S[O_COLS + 2 * CAP] = 23  # J♦ alone in column 2
>>> mark_tops(S, mark)  # column 0 is the first empty one
0
>>> int(landing_column(S, mark, 9, 0)), int(landing_column(S, mark, 22, 0))  # 10♣, 10♦
(2, -1)
>>> unmark_tops(S, mark); int(mark.sum())
0
"""

from __future__ import annotations

import numpy as np

from .codes import with_dst
from .layout import CAP, NCOL, O_COLS, O_LEN, RANK, SCR_TOP, TG1, TG2, core_jit, core_jit_inline, ix

__all__ = [
    "ONTO",
    "add_move",
    "landing_column",
    "mark_landings",
    "mark_tops",
    "onto_columns",
    "unmark_tops",
]


#: ``ONTO[t]``: bit ``c`` set for each of the two cards ``c`` that stack on ``t``; for ``t == 52``
#: (an empty column) the four Kings.
ONTO = np.zeros(53, dtype=np.int64)
for _c in range(52):
    for _t in (TG1[_c], TG2[_c]):
        if _t >= 0:
            ONTO[_t] |= np.int64(1) << _c
    if RANK[_c] == 12:
        ONTO[52] |= np.int64(1) << _c
del _c, _t


@core_jit_inline
def add_move(out: np.ndarray, n: int, m: int) -> int:
    """Append move ``m`` to ``out[:n]``; return ``n + 1`` (past the capacity: an overflow the
    caller sees, nothing written)."""
    if n < out.shape[0]:
        out[n] = m
        return n + 1
    return n + 1  # caller sees n > capacity: overflow


@core_jit
def onto_columns(
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
                    n = add_move(out, n, with_dst(code, t))
        return n
    for w in range(2):
        t = mark[ix(SCR_TOP + (TG1[ix(card)] if w == 0 else TG2[ix(card)]))] - 1
        if t >= 0 and t != skip:
            n = add_move(out, n, with_dst(code, t))
    return n


@core_jit_inline
def mark_landings(S: np.ndarray, mark: np.ndarray) -> tuple[int, np.int64]:
    """Set ``mark[SCR_TOP + top] = column + 1`` for every column top; return the first empty
    column (-1: none) and the *landing mask*: bit ``c`` set for every card ``c`` that has a
    column to go onto, those for which :func:`landing_column` is not -1 (one bit test instead
    of three table reads per card).

    >>> from klondike_widget.solver.core.layout import S_SIZE, SCR_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); mark = np.zeros(SCR_SIZE, dtype=np.int32)
    >>> S[O_LEN] = 1; S[O_COLS] = 23  # J♦ in column 0
    >>> first_empty, m = mark_landings(S, mark); unmark_tops(S, mark)
    >>> [c for c in range(52) if (int(m) >> c) & 1 and c % 13 != 12]  # 10♣, 10♠
    [9, 48]
    >>> int(first_empty), int(m) >> 12 & 1  # K♣ with column 1 empty
    (1, 1)
    """
    first_empty = -1
    m = np.int64(0)
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln == 0:
            if first_empty < 0:
                first_empty = t
        else:
            top = S[ix(O_COLS + t * CAP + ln - 1)]
            mark[ix(SCR_TOP + top)] = t + 1
            m |= ONTO[ix(top)]
    if first_empty >= 0:
        m |= ONTO[52]
    return first_empty, m


@core_jit_inline
def mark_tops(S: np.ndarray, mark: np.ndarray) -> int:
    """:func:`mark_landings` without the mask (which the compiler then leaves out)."""
    return mark_landings(S, mark)[0]


@core_jit_inline
def unmark_tops(S: np.ndarray, mark: np.ndarray) -> None:
    """Clear what :func:`mark_tops` set."""
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln > 0:
            mark[ix(SCR_TOP + S[ix(O_COLS + t * CAP + ln - 1)])] = 0


@core_jit_inline
def landing_column(S: np.ndarray, mark: np.ndarray, card: int, first_empty: int) -> int:
    """One column ``card`` can go onto (a top it stacks on, or for a King the first empty
    column); -1 if none. In twin classes any such column gives the same class."""
    c = ix(card)
    if RANK[c] == 12:
        return first_empty
    t = mark[ix(SCR_TOP + TG1[c])] - 1
    if t < 0:
        t = mark[ix(SCR_TOP + TG2[c])] - 1
    return t
