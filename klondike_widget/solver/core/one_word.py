# mypy: disable-error-code="no-any-return"
"""One-word keys: a twin-class key packed exactly into 64 bits, so that a table row is one word.

A twin-class key (:func:`~.keys.table_key`) holds the structure count of each column, the
foundation heights, the talon as a set of cards, the pointer's class and a tag. In a position
dealt, column ``c`` holds at most ``c`` face-down cards and a root, and the talon at most 24
cards, which a search only takes away: so the counts and heights are one number below
``40320 * 14**4 < 2**31`` in mixed radix (``H[H_PACK]``), and the talon a set of the root
talon's indices (``H[H_TMASK]``, 24 bits), both kept by do and undo. A one-word key ``k``:

* bits 0-23, the talon; bits 24-54, the class number;
* bits 55-57 (draw 3): the tag, 0 (none), 1 (King fills) or ``2 + suit`` (the card that came
  down from a foundation: its suit names it, as that foundation is now one below it);
* bits 58-62: draw 3, the pointer's class (:func:`~.keys.key_pointer`, below 24); draw 1, the
  tag, the same or ``6 +`` the root talon index of the talon card played (``TAG_TALON``);
* bit 63: always set, so no key is 0 (an empty row).

Two positions get the same word only if they get the same two-word key, so the table stays
exact and a LOST a proof. The table's rows are then one word (``TT.shape[1] == 1``): the
search passes the key as the pair ``(k, k)``, and the table reads ``TT[i, 0]`` and the row's
last word, the same word. :func:`~.table.tt_hash` leaves out bits 58-63 (and 52-63 of its
second word): the pointer's class and a draw-1 tag, as in a two-word key, so the keys of a
position under its pointers share their home (:func:`~.pointers.pointer_probe`).

Half the bytes a row: a table of 2**24 rows is 128 MiB, not 256, and a probe's run of rows
spans half as many cache lines. Measured December 2026 on a shared 2-core machine (user CPU,
paired runs, the same positions searched): whole searches, four large draw-1 deals twice,
0.909 of the two-word time (2311: 2.13-2.16 against 2.30-2.82 s), five large draw-3 deals
0.984; ``api.solve`` on the 20 largest draw-1 numbered deals 0.969, on numbered draw-3 deals
1-5000 (10 s each) 0.995. Run-to-run noise on that machine was 5-30% a search.

>>> int(ONE_TOP >> np.uint64(63)), int(ONE_POINTER_BITS >> ONE_POINTER_SHIFT)
(1, 31)
"""

from __future__ import annotations

import numpy as np

from .codes import move_card
from .keys import TAG_FND, TAG_KING, U0, key_pointer, structure_count, table_key
from .keys import tagged_key as two_word_tagged_key
from .layout import (
    ALW_ONE_WORD,
    ALW_POINTER,
    COL_WEIGHT,
    DOM_TWINS,
    FND_WEIGHT,
    H_ONE,
    H_PACK,
    H_TMASK,
    NCOL,
    O_ALW,
    O_DOM,
    O_DRAW,
    O_TAL,
    O_TIDX,
    O_TN,
    SUIT,
    core_jit,
    core_jit_inline,
    ix,
)
from .quiet import (
    QUIET_COLUMN,
    QUIET_FOUNDATION,
    QUIET_TALON,
    QUIET_UP_COLUMN,
    QUIET_UP_TALON,
    change_key,
    quiet_change,
)

__all__ = [
    "ONE_POINTER_BITS",
    "ONE_POINTER_SHIFT",
    "ONE_TOP",
    "ONE_WORD_TALON",
    "fill_one_word",
    "fits_one_word",
    "one_word_key",
    "row_key",
    "row_quiet_key",
    "row_tagged_key",
    "row_words",
]

#: The most talon cards a one-word key holds (a deal has 24).
ONE_WORD_TALON = 24
CLASS_SHIFT = np.uint64(24)
DRAW3_TAG_SHIFT = np.uint64(55)
ONE_POINTER_SHIFT = np.uint64(58)
ONE_POINTER_BITS = np.uint64(31 << 58)
ONE_TOP = np.uint64(1 << 63)


@core_jit
def fits_one_word(S: np.ndarray) -> bool:
    """True if the search of position ``S`` can store one-word keys: twin classes and pointer
    classes on, at most :data:`ONE_WORD_TALON` talon cards, and the structure count of each
    column ``c`` (:func:`~.keys.structure_count`) at most ``c + 1``, as in every position
    dealt (a search only lowers them).

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> bool(fits_one_word(encode_state(deal(3))))
    True
    """
    if (S[O_DOM] & DOM_TWINS) == 0 or (S[O_ALW] & ALW_POINTER) == 0:
        return False
    fits = S[O_TN] <= ONE_WORD_TALON
    for c in range(NCOL):  # (numba compiles no generator for all())
        fits = fits and structure_count(S, c) <= c + 1
    return fits


@core_jit
def row_words(S: np.ndarray) -> int:
    """The words of a table row for the search of position ``S``: 1 if it stores one-word keys
    (:func:`fits_one_word`, switch ``ALW_ONE_WORD``), else 2."""
    return 1 if (S[O_ALW] & ALW_ONE_WORD) != 0 and fits_one_word(S) else 2


@core_jit
def fill_one_word(S: np.ndarray, H: np.ndarray) -> None:
    """Make ``H`` (filled by :func:`~.keys.compute_hashes`) the hashes of a search storing
    one-word keys from the root ``S`` (:func:`fits_one_word`): each talon card's index, the
    talon as a set of them, and ``H[H_ONE]``, which has do and undo keep that set."""
    n = S[O_TN]
    for i in range(n):
        H[ix(O_TIDX + S[O_TAL + i])] = i
    H[H_TMASK] = (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    H[H_ONE] = np.uint64(1)


@core_jit_inline
def _one_word_tag(S: np.ndarray, H: np.ndarray, tag: int) -> np.uint64:
    """Where a one-word key holds ``tag`` (``keys.TAG_*``; see the module's layout)."""
    if tag == 0:
        return U0
    kind = tag & 192
    card = tag & 63
    if kind == TAG_KING:
        v = np.uint64(1)
    elif kind == TAG_FND:
        v = np.uint64(2 + card // 13)
    else:  # TAG_TALON (draw 1 alone)
        v = np.uint64(6) + H[ix(O_TIDX + card)]
    return v << (ONE_POINTER_SHIFT if S[O_DRAW] == 1 else DRAW3_TAG_SHIFT)


@core_jit_inline
def _one_word(pack: np.uint64, talon: np.uint64, ptr: int) -> np.uint64:
    """A one-word key from its class number, talon set and pointer class (no tag)."""
    return talon | (pack << CLASS_SHIFT) | (np.uint64(ptr) << ONE_POINTER_SHIFT) | ONE_TOP


@core_jit_inline
def one_word_key(S: np.ndarray, H: np.ndarray, tag: int) -> np.uint64:
    """The one-word key of the position (``tag``: ``keys.TAG_*``), in a search that stores
    them (:func:`fill_one_word`).

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> from klondike_widget.solver.core.keys import compute_hashes
    >>> from klondike_widget.solver.core.layout import H_SIZE
    >>> S = encode_state(deal(3)); H = np.zeros(H_SIZE, dtype=np.uint64)
    >>> compute_hashes(S, H); fill_one_word(S, H)
    >>> k = one_word_key(S, H, 0); hex(int(k) & 0xFFFFFF)  # the 24 talon cards
    '0xffffff'
    >>> k != one_word_key(S, H, TAG_KING), int(k) >> 63
    (True, 1)
    """
    ptr = key_pointer(S) if S[O_DRAW] != 1 else 0
    return _one_word(H[H_PACK], H[H_TMASK], ptr) | _one_word_tag(S, H, tag)


@core_jit_inline
def row_key(S: np.ndarray, H: np.ndarray, tag: int) -> tuple[np.uint64, np.uint64]:
    """The key the search stores for the position: ``(k, k)`` for a one-word key ``k``
    (:func:`one_word_key`, when ``H[H_ONE]``), else the two words of
    :func:`~.keys.table_key`."""
    if H[H_ONE] != U0:
        k = one_word_key(S, H, tag)
        return k, k
    return table_key(S, H, tag)


@core_jit_inline
def row_tagged_key(
    S: np.ndarray, H: np.ndarray, a: np.uint64, b: np.uint64, tag: int
) -> tuple[np.uint64, np.uint64]:
    """``row_key(S, H, tag)``, given ``(a, b) = row_key(S, H, 0)`` (see
    :func:`~.keys.tagged_key`)."""
    if H[H_ONE] != U0:
        k = np.uint64(a) | _one_word_tag(S, H, tag)
        return k, k
    return two_word_tagged_key(S, H, a, b, tag)


@core_jit_inline
def row_quiet_key(S: np.ndarray, H: np.ndarray, m: int) -> tuple[np.uint64, np.uint64]:
    """``row_key(S', H', 0)`` of the child ``S'`` of move ``m``, read off the parent without
    playing it (:func:`~.quiet.quiet_key`, :func:`~.quiet.quiet_change`), or ``(0, 0)``.

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> from klondike_widget.solver.core.board import do_move
    >>> from klondike_widget.solver.core.codes import K_TAL_COL, encode
    >>> from klondike_widget.solver.core.keys import compute_hashes
    >>> from klondike_widget.solver.core.layout import H_SIZE
    >>> S = encode_state(deal(3)); H = np.zeros(H_SIZE, dtype=np.uint64)
    >>> S[O_DRAW] = 1; compute_hashes(S, H); fill_one_word(S, H)
    >>> m = encode(K_TAL_COL, S[O_TAL + 4], 4, 0, 1, 0)  # (legal or not)
    >>> k = row_quiet_key(S, H, m); u = do_move(S, H, m); k == row_key(S, H, 0)
    True
    """
    what, index, count, ptr = quiet_change(S, H, m)
    if H[H_ONE] == U0:
        return change_key(H, m, what, index, count, ptr)
    pack, talon = H[H_PACK], H[H_TMASK]
    if what == QUIET_FOUNDATION:
        pack -= FND_WEIGHT[index]
    elif what == QUIET_COLUMN:
        pack -= np.uint64(count) * COL_WEIGHT[index]
    elif what == QUIET_TALON:
        talon ^= np.uint64(1) << H[ix(O_TIDX + index)]
    elif what == QUIET_UP_COLUMN:
        pack += FND_WEIGHT[SUIT[move_card(m)]]
        pack -= np.uint64(count) * COL_WEIGHT[index]
    elif what == QUIET_UP_TALON:
        pack += FND_WEIGHT[SUIT[index]]
        talon ^= np.uint64(1) << H[ix(O_TIDX + index)]
    else:
        return U0, U0
    k = _one_word(pack, talon, ptr)
    return k, k
