# mypy: disable-error-code="no-any-return"
"""Do and undo: the moves of the search applied to ``S`` and ``H`` and taken back.

:func:`do_move` returns an undo word (a card turned up | the old talon pointer << 1) that
:func:`undo_move` needs; the column and talon Zobrist words of ``H`` are kept up to date.

>>> from klondike_widget.solver.core.codes import K_COL_FND, encode
>>> from klondike_widget.solver.core.layout import S_SIZE
>>> S = np.zeros(S_SIZE, dtype=np.int32); H = np.zeros(NCOL + 1, dtype=np.uint64)
>>> S[O_LEN] = 1; S[O_COLS] = 0  # the Ace of clubs alone in column 0
>>> m = encode(K_COL_FND, 0, 0, 0, 1, 0); u = do_move(S, H, m)
>>> int(S[O_FND]), int(S[O_LEN])
(1, 0)
>>> undo_move(S, H, m, u); int(S[O_FND]), int(S[O_LEN]), bool(H[0] == 0)
(0, 1, True)
"""

from __future__ import annotations

import numpy as np

from .codes import (
    K_COL_COL,
    K_COL_FND,
    K_FND_COL,
    K_TAL_COL,
    K_TAL_FND,
    move_card,
    move_count,
    move_dst,
    move_kind,
    move_src,
)
from .keys import ZPOS, ZTAL
from .layout import CAP, NCOL, O_COLS, O_FD, O_FND, O_LEN, O_TAL, O_TN, O_TP, SUIT, core_jit

__all__ = [
    "do_move",
    "is_won",
    "undo_move",
]


@core_jit
def _push(S: np.ndarray, H: np.ndarray, col: int, card: int) -> None:
    n = S[O_LEN + col]
    S[O_COLS + col * CAP + n] = card
    H[col] += ZPOS[card * CAP + n]
    S[O_LEN + col] = n + 1


@core_jit
def _pop(S: np.ndarray, H: np.ndarray, col: int) -> int:
    """Remove the top card of ``col``; returns 1 if a face-down card turned up."""
    n = S[O_LEN + col] - 1
    card = S[O_COLS + col * CAP + n]
    H[col] -= ZPOS[card * CAP + n]
    S[O_LEN + col] = n
    if n > 0 and S[O_FD + col] == n:
        S[O_FD + col] = n - 1
        return 1
    return 0


@core_jit
def _talon_remove(S: np.ndarray, H: np.ndarray, i: int) -> int:
    tn = S[O_TN]
    card = S[O_TAL + i]
    for j in range(i, tn - 1):
        S[O_TAL + j] = S[O_TAL + j + 1]
    S[O_TN] = tn - 1
    S[O_TP] = i
    H[NCOL] ^= ZTAL[card]
    return card


@core_jit
def _talon_insert(S: np.ndarray, H: np.ndarray, i: int, card: int, tp: int) -> None:
    tn = S[O_TN]
    for j in range(tn, i, -1):
        S[O_TAL + j] = S[O_TAL + j - 1]
    S[O_TAL + i] = card
    S[O_TN] = tn + 1
    S[O_TP] = tp
    H[NCOL] ^= ZTAL[card]


@core_jit
def _move_run(S: np.ndarray, H: np.ndarray, src: int, dst: int, count: int) -> None:
    """Move the top ``count`` cards of column ``src`` onto column ``dst`` (no card turns up)."""
    ns = S[O_LEN + src]
    nd = S[O_LEN + dst]
    base = ns - count
    for j in range(count):
        c = S[O_COLS + src * CAP + base + j]
        H[src] -= ZPOS[c * CAP + base + j]
        S[O_COLS + dst * CAP + nd + j] = c
        H[dst] += ZPOS[c * CAP + nd + j]
    S[O_LEN + src] = base
    S[O_LEN + dst] = nd + count


@core_jit
def do_move(S: np.ndarray, H: np.ndarray, m: int) -> int:
    """Apply move code ``m``; return the undo word (flip flag | old talon pointer << 1)."""
    kind = move_kind(m)
    card = move_card(m)
    src = move_src(m)
    dst = move_dst(m)
    count = move_count(m)
    flip = 0
    old_tp = S[O_TP]
    if kind == K_COL_FND:
        flip = _pop(S, H, src)
        S[O_FND + SUIT[card]] += 1
    elif kind == K_TAL_FND:
        _talon_remove(S, H, src)
        S[O_FND + SUIT[card]] += 1
    elif kind == K_TAL_COL:
        _talon_remove(S, H, src)
        _push(S, H, dst, card)
    elif kind == K_COL_COL:
        _move_run(S, H, src, dst, count)
        base = S[O_LEN + src]
        if base > 0 and S[O_FD + src] == base:
            S[O_FD + src] = base - 1
            flip = 1
    elif kind == K_FND_COL:
        S[O_FND + SUIT[card]] -= 1
        _push(S, H, dst, card)
    else:  # K_SWAP_FND
        _move_run(S, H, src, dst, count)
        flip = _pop(S, H, src)
        S[O_FND + SUIT[card]] += 1
    return flip | (old_tp << 1)


@core_jit
def undo_move(S: np.ndarray, H: np.ndarray, m: int, u: int) -> None:
    """Take back move code ``m`` given the undo word ``u`` that :func:`do_move` returned."""
    kind = move_kind(m)
    card = move_card(m)
    src = move_src(m)
    dst = move_dst(m)
    count = move_count(m)
    flip = u & 1
    old_tp = u >> 1
    if kind == K_COL_FND:
        S[O_FND + SUIT[card]] -= 1
        if flip:
            S[O_FD + src] += 1
        _push(S, H, src, card)
    elif kind == K_TAL_FND:
        S[O_FND + SUIT[card]] -= 1
        _talon_insert(S, H, src, card, old_tp)
    elif kind == K_TAL_COL:
        n = S[O_LEN + dst] - 1
        H[dst] -= ZPOS[card * CAP + n]
        S[O_LEN + dst] = n
        _talon_insert(S, H, src, card, old_tp)
    elif kind == K_COL_COL:
        if flip:
            S[O_FD + src] += 1
        _move_run(S, H, dst, src, count)
    elif kind == K_FND_COL:
        n = S[O_LEN + dst] - 1
        H[dst] -= ZPOS[card * CAP + n]
        S[O_LEN + dst] = n
        S[O_FND + SUIT[card]] += 1
    else:  # K_SWAP_FND
        S[O_FND + SUIT[card]] -= 1
        if flip:
            S[O_FD + src] += 1
        _push(S, H, src, card)
        _move_run(S, H, dst, src, count)


@core_jit
def is_won(S: np.ndarray) -> bool:
    """All 52 cards on the foundations."""
    return S[O_FND] + S[O_FND + 1] + S[O_FND + 2] + S[O_FND + 3] == 52
