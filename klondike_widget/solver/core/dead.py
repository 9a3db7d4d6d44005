# mypy: disable-error-code="no-any-return"
"""The dead-end test: positions where some cards can provably never leave their columns.

>>> from klondike_widget.solver.core.layout import S_SIZE, SCR_SIZE
>>> S = np.zeros(S_SIZE, dtype=np.int32); W = np.zeros(SCR_SIZE, dtype=np.int32)
>>> S[O_LEN] = 4; S[O_FD] = 3  # face down 3♦ 3♥ A♣, face up 2♣: 2♣ needs one of them
>>> S[O_COLS : O_COLS + 4] = [15, 28, 0, 1]
>>> bool(is_dead(S, W))
True
>>> S[O_COLS : O_COLS + 4] = [15, 0, 28, 1]; S[O_LEN] = 3; S[O_FD] = 2  # A♣ ... 3♥, no 2♣
>>> bool(is_dead(S, W))
False
"""

from __future__ import annotations

import numpy as np

from .layout import (
    CAP,
    NCOL,
    O_COLS,
    O_F2T,
    O_FD,
    O_FND,
    O_LEN,
    RANK,
    SCR_H,
    SCR_LOCC,
    SCR_LOCI,
    SCR_Z,
    SUIT,
    TG1,
    TG2,
    core_jit,
    stacks,
)

__all__ = [
    "is_dead",
]


@core_jit
def _buried(W: np.ndarray, card: int) -> bool:
    """True if ``card`` lies under the highest still-suspected card of its column."""
    c = W[SCR_LOCC + card]
    return c >= 0 and W[SCR_LOCI + card] < W[SCR_H + c]


@core_jit
def is_dead(S: np.ndarray, W: np.ndarray) -> bool:
    """True if some cards provably can never leave their columns (so the position is lost).

    A non-King card Y that is face down, or face up but not resting on a card it stacks on,
    leaves its column only alone or with cards on top of it, in one of three ways: to its
    foundation (which needs every lower card of its suit), onto one of the two cards it stacks
    on, or (Kings only, so never here) to an empty column. Take a set Z of such cards and call
    "buried" every card lying under a member of Z in the same column. If for each Y in Z a lower
    card of its suit is buried and each of its two target cards is buried or (when cards may not
    come back down) on a foundation, then no member of Z can be the first to move: none ever
    moves and the game is lost. The largest such Z is found by starting from every candidate and
    dropping the members that have a way out until none has. ``W`` is scratch space.

    Moves only ever take candidates away (a card put on a column rests on a card it stacks on,
    or is a King) and only uncover cards, so if a position is not dead, neither is any position
    reached from it, except that with foundation-to-column moves forbidden a card going up can
    close a way out. The search therefore checks the root, and later positions only then.
    """
    f2t = S[O_F2T]
    for card in range(52):
        W[SCR_LOCC + card] = -1
        W[SCR_Z + card] = 0
    zn = 0
    for c in range(NCOL):
        n = S[O_LEN + c]
        fd = S[O_FD + c]
        base = O_COLS + c * CAP
        for q in range(n):
            y = S[base + q]
            W[SCR_LOCC + y] = c
            W[SCR_LOCI + y] = q
            if RANK[y] != 12 and (q <= fd or not stacks(y, S[base + q - 1])):
                W[SCR_Z + y] = 1
                zn += 1
    while zn > 0:
        for c in range(NCOL):
            h = -1
            base = O_COLS + c * CAP
            for q in range(S[O_LEN + c] - 1, -1, -1):
                if W[SCR_Z + S[base + q]] != 0:
                    h = q
                    break
            W[SCR_H + c] = h
        changed = False
        for y in range(52):
            if W[SCR_Z + y] == 0:
                continue
            su = SUIT[y]
            way_out = True
            for rr in range(S[O_FND + su], RANK[y]):
                if _buried(W, su * 13 + rr):
                    way_out = False
                    break
            if not way_out:
                for w in range(2):
                    t = TG1[y] if w == 0 else TG2[y]
                    if not _buried(W, t) and not (
                        f2t == 0 and W[SCR_LOCC + t] < 0 and RANK[t] < S[O_FND + SUIT[t]]
                    ):
                        way_out = True
                        break
            if way_out:
                W[SCR_Z + y] = 0
                zn -= 1
                changed = True
        if not changed:
            return True
    return False
