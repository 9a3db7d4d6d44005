# mypy: disable-error-code="no-any-return"
"""The dead-end test: positions where some cards can provably never leave their places.

>>> from klondike_widget.solver.core.layout import S_SIZE, SCR_SIZE
>>> S = np.zeros(S_SIZE, dtype=np.int32); W = np.zeros(SCR_SIZE, dtype=np.int32)
>>> S[O_LEN] = 4; S[O_FD] = 3  # face down 3♦ 3♥ A♣, face up 2♣: 2♣ needs one of them
>>> S[O_COLS : O_COLS + 4] = [15, 28, 0, 1]
>>> bool(is_dead(S, W))
True
>>> S[O_COLS : O_COLS + 4] = [15, 0, 28, 1]; S[O_LEN] = 3; S[O_FD] = 2  # A♣ ... 3♥, no 2♣
>>> bool(is_dead(S, W))
False
>>> S[O_COLS : O_COLS + 5] = [15, 28, 43, 39, 41]; S[O_LEN] = 5; S[O_FD] = 4; S[O_FND] = 5
>>> bool(is_dead(S, W))  # face down 3♦ 3♥ 5♠ A♠, face up 3♠; A♣-5♣ up, stay up: 3♠ on a red 4
False
>>> S[O_TN] = 2; S[O_TAL : O_TAL + 2] = [16, 29]  # 4♦ 4♥ in the talon: each needs 3♦ or 3♥
>>> bool(is_dead(S, W))  # or a black 5 (5♣ up, 5♠ buried), so neither leaves: nor does 3♠
True
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
    O_TAL,
    O_TN,
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


#: ``W[SCR_LOCC + card]`` of a talon card (a column's index for column cards, -1 for the others).
TALON = -2


@core_jit
def _buried(W: np.ndarray, card: int) -> bool:
    """True if ``card`` lies under the highest still-suspected card of its column."""
    c = W[SCR_LOCC + card]
    return c >= 0 and W[SCR_LOCI + card] < W[SCR_H + c]


@core_jit
def _suspects(S: np.ndarray, W: np.ndarray) -> int:
    """Mark where each card lies and the first suspects (see :func:`is_dead`); return how many."""
    for card in range(52):
        W[SCR_LOCC + card] = -1
        W[SCR_Z + card] = 0
    zn = 0
    for c in range(NCOL):
        fd = S[O_FD + c]
        base = O_COLS + c * CAP
        for q in range(S[O_LEN + c]):
            y = S[base + q]
            W[SCR_LOCC + y] = c
            W[SCR_LOCI + y] = q
            if RANK[y] != 12 and (q <= fd or not stacks(y, S[base + q - 1])):
                W[SCR_Z + y] = 1
                zn += 1
    for i in range(S[O_TN]):
        y = S[O_TAL + i]
        W[SCR_LOCC + y] = TALON
        W[SCR_LOCI + y] = i
        W[SCR_Z + y] = 1
        zn += 1
    return zn


@core_jit
def _closed(S: np.ndarray, W: np.ndarray, t: int) -> bool:
    """True if no card can be put on ``t`` before the first suspect moves: ``t`` is buried, a
    suspected talon card (it stays in the talon) or, when cards may not come back down, up."""
    c = W[SCR_LOCC + t]
    if c == TALON:
        return W[SCR_Z + t] != 0
    if c >= 0:
        return W[SCR_LOCI + t] < W[SCR_H + c]
    return S[O_F2T] == 0 and RANK[t] < S[O_FND + SUIT[t]]


@core_jit
def _way_out(S: np.ndarray, W: np.ndarray, y: int) -> bool:
    """True if suspect ``y`` could be the first suspect to move (see :func:`is_dead`)."""
    if RANK[y] == 12:
        return True  # (a talon King: an empty column may come)
    su = SUIT[y]
    up = True
    for rr in range(S[O_FND + su], RANK[y]):
        low = su * 13 + rr
        if _buried(W, low):
            up = False
            break
    return up or not _closed(S, W, TG1[y]) or not _closed(S, W, TG2[y])


@core_jit
def is_dead(S: np.ndarray, W: np.ndarray) -> bool:
    """True if some cards provably can never leave their places (so the position is lost).

    *Suspects.* A non-King card Y in a column that is face down, or face up but not resting on
    a card it stacks on, leaves its column only alone or with cards on top of it, in one of
    three ways: to its foundation (which needs every lower card of its suit), onto one of the
    two cards it stacks on, or (Kings only, so never here) to an empty column. A non-King talon
    card leaves the talon in the first two ways only (where and when the taps bring it to the
    top does not matter here). Take a set Z of such cards and call "buried" every card lying
    under a member of Z in the same column. Suppose that for each Y in Z every way is closed
    while no member of Z has moved:

    * its foundation, when a lower card of its suit is buried;
    * each card it stacks on, when that card is buried, in Z and in the talon (not a column
      top), or up while cards may not come back down;

    then no member of Z can be the first to move: none ever moves and the game is lost. The
    largest such Z is found by starting from every candidate and dropping the members that
    have a way out until none has (a pass reads the buried cards as they were at its start;
    the last pass, which drops nothing, reads them as they are). ``W`` is scratch space.

    Column moves only ever take candidates away (a card put on a column rests on a card it
    stacks on, or is a King) and only uncover cards; but with foundation-to-column moves
    forbidden a card going up can close a way out. Talon plays only take suspects away too (the
    card leaves the talon for a column or its foundation). So the search checks the root, and
    later positions only after a card goes up while cards may not come back down.
    """
    zn = _suspects(S, W)
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
            if W[SCR_Z + y] != 0 and _way_out(S, W, y):
                W[SCR_Z + y] = 0
                zn -= 1
                changed = True
        if not changed:
            return True
    return False
