# mypy: disable-error-code="no-any-return"
"""The transposition table: open addressing over rows of two words, grown by the caller.

>>> TT = np.zeros((8, 2), dtype=np.uint64)
>>> a, b = np.uint64(5), np.uint64(7)
>>> bool(tt_insert(TT, a, b)), bool(tt_insert(TT, a, b)), bool(tt_contains(TT, a, b))
(True, False, True)
"""

from __future__ import annotations

import numpy as np

from .keys import POINTER_BITS, U0, U1, mix64
from .layout import core_jit

__all__ = [
    "tt_contains",
    "tt_home",
    "tt_insert",
    "tt_rehash",
    "tt_slot",
]


@core_jit
def tt_home(TT: np.ndarray, a: np.uint64, b: np.uint64) -> np.uint64:
    """The row where the search for key ``(a, b)`` starts. It leaves out the key's pointer
    class (``keys.POINTER_BITS``), so the keys of one position under different pointers lie in
    one run of rows from there (linear probing), which
    :func:`~klondike_widget.solver.core.pointers.pointer_probe` reads in one pass. (In draw
    1 those bits are 0; in an exact-column key they are 6 of its 63 hash bits.)"""
    return mix64(a + mix64(b & ~POINTER_BITS)) & np.uint64(TT.shape[0] - 1)


@core_jit
def tt_slot(TT: np.ndarray, a: np.uint64, b: np.uint64) -> np.uint64:
    """The row holding key ``(a, b)`` in the open-addressing table ``TT`` (rows of two words;
    an empty row has ``b == 0``, which no key has), or the empty row it would take."""
    mask = np.uint64(TT.shape[0] - 1)
    i = tt_home(TT, a, b)
    while TT[i, 1] != U0 and (TT[i, 0] != a or TT[i, 1] != b):
        i = (i + U1) & mask
    return i


@core_jit
def tt_insert(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """Insert key ``(a, b)`` into the table; False if it was already there."""
    i = tt_slot(TT, a, b)
    if TT[i, 1] != U0:
        return False
    TT[i, 0] = a
    TT[i, 1] = b
    return True


@core_jit
def tt_contains(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """True if key ``(a, b)`` is in the table."""
    return bool(TT[tt_slot(TT, a, b), 1] != U0)


@core_jit
def tt_rehash(old: np.ndarray, new: np.ndarray) -> None:
    """Move every key of ``old`` into the (larger, empty) table ``new``."""
    for i in range(old.shape[0]):
        if old[i, 1] != U0:
            tt_insert(new, old[i, 0], old[i, 1])
