# mypy: disable-error-code="no-any-return"
"""Hashing and keys: Zobrist words per column and talon, the transposition table's keys.

``H`` (uint64) holds one position-sensitive Zobrist sum per column and the talon as a set of
cards (one bit a card). :func:`state_key` mixes each column separately and adds them up, so it
does not depend on the order of the columns (empty-column and column-permutation symmetry
collapse); foundations follow from the other cards. The transposition table stores two words a
position (:func:`table_key`), or one (:mod:`~klondike_widget.solver.core.one_word`, the same
class packed): with twin classes the class itself, exactly, so a LOST never rests on a hash
collision. In draw 1 every talon card is reachable from any
pointer, so the key leaves the pointer out; in draw 3 it is part of the key, through
:func:`key_pointer` (pointers from which the taps reach the same cards share a key). A child's
key read off its parent is :mod:`~klondike_widget.solver.core.quiet`'s; the same class packed
into one word, :mod:`~klondike_widget.solver.core.one_word`'s.

>>> int(mix64(np.uint64(0))), int(mix64(np.uint64(1))) != 1
(0, True)
"""

from __future__ import annotations

import numpy as np

from .layout import (
    ALW_POINTER,
    CAP,
    COL_WEIGHT,
    DOM_TWINS,
    FND_WEIGHT,
    H_CLASS,
    H_ONE,
    H_PACK,
    H_TMASK,
    NCOL,
    O_ALW,
    O_COLS,
    O_DOM,
    O_DRAW,
    O_FD,
    O_FND,
    O_LEN,
    O_PHM,
    O_TAL,
    O_TN,
    O_TP,
    RANK,
    TAL_CAP,
    core_jit,
    core_jit_inline,
    ix,
)

__all__ = [
    "M1",
    "M2",
    "POINTER_BITS",
    "TAG_BITS",
    "POINTER_SHIFT",
    "SH27",
    "SH30",
    "SH31",
    "TAG_FND",
    "TAG_KING",
    "TAG_TALON",
    "TOP",
    "U0",
    "U1",
    "ZFD",
    "ZFD2",
    "ZFH",
    "ZPOS",
    "ZPOS2",
    "ZPTR",
    "ZPTR2",
    "ZTAG",
    "ZTAG2",
    "ZTAL",
    "abstract_key",
    "class_word",
    "compute_hashes",
    "foundation_unit",
    "key_pointer",
    "mix64",
    "root_card",
    "state_key",
    "structure_count",
    "table_key",
    "tagged_key",
]

_rng = np.random.default_rng(0x4B4C4F4E44494B45)


def _random_words(n: int) -> np.ndarray:
    return _rng.integers(0, 2**64, size=n, dtype=np.uint64)


ZPOS = _random_words(52 * CAP)
#: A talon card's word is its bit, so ``H[NCOL]`` is the talon as an exact set of cards.
ZTAL = np.array([1 << c for c in range(52)], dtype=np.uint64)
ZFD = _random_words(CAP)
ZPTR = _random_words(TAL_CAP + 1)
ZFH = _random_words(4 * 14)
# a second, independent set for the second word of the exact-table keys (twin classes off)
ZPOS2 = _random_words(52 * CAP)
ZFD2 = _random_words(CAP)
ZPTR2 = _random_words(TAL_CAP + 1)
ZTAG = _random_words(256)
ZTAG2 = _random_words(256)
#: ``tag`` of :func:`table_key`: a restricted position (kind in bits 6..7, card in bits 0..5).
TAG_FND = 64  # after a card came down from a foundation (follow_ups)
TAG_TALON = 128  # after a talon card went onto a column in draw 1 (talon_follow_ups)
TAG_KING = 192  # after a column was emptied (king_fills)
TOP = np.uint64(1 << 63)
#: Where a twin-class key holds the pointer's class: bits 52..57 of its second word
#: (:func:`table_key`; the table's home row leaves them out, :func:`~.table.tt_home`).
POINTER_SHIFT = np.uint64(52)
POINTER_BITS = np.uint64(63 << 52)
#: Where a twin-class key holds its tag: bits 58..63 of each word (:func:`_tag_bits`; the
#: second word's bit 63 is :data:`TOP`). The table's home row leaves them out too.
TAG_BITS = np.uint64(63 << 58)

M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
SH30 = np.uint64(30)
SH27 = np.uint64(27)
SH31 = np.uint64(31)
U0 = np.uint64(0)
U1 = np.uint64(1)


@core_jit
def mix64(x: np.uint64) -> np.uint64:  # pragma: no cover - trivial
    """SplitMix64's finaliser: a bijective 64-bit mix."""
    x = (x ^ (x >> SH30)) * M1
    x = (x ^ (x >> SH27)) * M2
    return x ^ (x >> SH31)


@core_jit
def compute_hashes(S: np.ndarray, H: np.ndarray) -> None:
    """Fill ``H`` from scratch (do and undo keep its first ``H_LIVE`` words up to date).

    The columns' Zobrist words ``H[:NCOL]`` are 0 with twin classes (``DOM_TWINS``): only the
    exact key (:func:`state_key` without them) reads them, and do and undo keep them only then.

    The rest is a table for :func:`abstract_key`: the part of column ``c`` when its
    :func:`structure_count` is ``k``, for every ``k`` up to the current one. Structure cards
    never change, and a search only lowers the counts, so the root's table serves the search.
    """
    exact = (S[O_DOM] & DOM_TWINS) == 0  # (only the exact key reads the columns' words)
    for c in range(NCOL):
        h = U0
        for k in range(S[O_LEN + c] if exact else 0):
            h += ZPOS[S[O_COLS + c * CAP + k] * CAP + k]
        H[c] = h
    t = U0
    for i in range(S[O_TN]):
        t ^= ZTAL[S[O_TAL + i]]
    H[NCOL] = t
    H[H_CLASS] = class_word(S)
    pack = U0
    for c in range(NCOL):
        pack += np.uint64(structure_count(S, c)) * COL_WEIGHT[c]
    for suit in range(4):
        pack += np.uint64(S[O_FND + suit]) * FND_WEIGHT[suit]
    H[H_PACK] = pack
    H[H_TMASK] = U0  # (one_word.fill_one_word: a one-word search's)
    H[H_ONE] = U0
    for c in range(NCOL):
        sc = structure_count(S, c)
        h = U0
        for k in range(sc + 1):
            H[O_PHM + c * (CAP + 1) + k] = mix64(h + ZFD[max(k - 1, 0)])
            if k < sc:
                h += ZPOS[S[O_COLS + c * CAP + k] * CAP + k]


@core_jit
def key_pointer(S: np.ndarray) -> int:
    """The talon pointer as the key sees it: 0 for every pointer that reaches what 0 reaches.

    From pointer ``p`` (draw ``k``, ``n`` talon cards) taps and recycles bring to the top the
    cards at ``p - 1``, at ``p + jk - 1`` and at ``jk - 1`` (``j >= 1``, each capped at
    ``n - 1``): see :func:`~.talon_moves.reachable_talon`. When ``p`` is a multiple of ``k``
    or ``p == n`` the first two kinds are among the third, so the reachable cards are those of
    pointer 0. A talon play of ``T[i]`` leaves the pointer at ``i`` whatever it was before and
    nothing else reads the pointer, so two positions that differ only in such pointers have the
    same moves and the same future: one key serves both. Foundation-to-column moves do not read
    or move the pointer. Switch: ``ALW_POINTER`` (off: the key holds the pointer itself, in
    draw 1 too, where every talon card is reachable from any pointer and taps change nothing
    else).
    """
    tp = S[O_TP]
    draw = S[O_DRAW]
    # a division by the constant 3 is a multiplication; by a variable, a slow division
    if tp == S[O_TN] or (tp % 3 if draw == 3 else tp % draw) == 0:
        return 0
    return tp


@core_jit
def structure_count(S: np.ndarray, c: int) -> int:
    """The face-down cards of column ``c`` plus its *root* (:func:`root_card`), if it has one.

    A root never came from elsewhere (only Kings go to empty columns, and a card covering
    face-down cards was face down itself), so the count alone says which cards these are.
    """
    return S[O_FD + c] + (1 if root_card(S, c) >= 0 else 0)


@core_jit_inline
def root_card(S: np.ndarray, c: int) -> int:
    """The *root* of column ``c``, or -1: the face-up card lying on the face-down cards, or, in
    a column without any, a bottom card that is not a King. Every other face-up card of the
    tableau is *placed*: it lies on a card it stacks on, or it is a King at the bottom of a
    column."""
    n = S[O_LEN + c]
    fd = S[O_FD + c]
    if n > fd:
        card = S[ix(O_COLS + c * CAP + fd)]
        if fd > 0 or RANK[ix(card)] != 12:
            return card
    return -1


@core_jit
def class_word(S: np.ndarray) -> np.uint64:
    """Each column's :func:`structure_count` (6 bits at ``6 * c``) and each foundation's height
    (4 bits at ``42 + 4 * suit``): the word ``H[H_CLASS]`` that
    :mod:`~klondike_widget.solver.core.board` keeps up to date, from scratch.

    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_LEN + 1] = 3; S[O_FD + 1] = 2; S[O_FND + 3] = 5
    >>> hex(int(class_word(S)))  # column 1: two face-down cards and a root; five spades up
    '0x1400000000000c0'
    """
    a = U0
    for c in range(NCOL):
        a |= np.uint64(structure_count(S, c)) << np.uint64(6 * c)
    for suit in range(4):
        a |= np.uint64(S[O_FND + suit]) * foundation_unit(suit)
    return a


@core_jit_inline
def foundation_unit(suit: int) -> np.uint64:
    """One card on foundation ``suit`` in :func:`class_word` (4 bits at ``42 + 4 * suit``).

    >>> int(foundation_unit(3)) == 1 << 54  # the spades' height: bits 54-57
    True
    """
    return U1 << np.uint64(42 + 4 * suit)


@core_jit
def abstract_key(S: np.ndarray, H: np.ndarray) -> np.uint64:
    """The twin-class part of the key: foundations and each column's face-down cards and root.

    It leaves out how the placed cards are arranged. Positions that differ only there have the
    same face-up cards (all cards but those on the foundations, in the talon, face down or
    roots), and are equally winnable (see :func:`gen_abstract`); the key is symmetric in the
    columns.
    """
    tot = U0
    for c in range(NCOL):
        tot += H[O_PHM + c * (CAP + 1) + structure_count(S, c)]
    for suit in range(4):
        tot += ZFH[suit * 14 + S[O_FND + suit]]
    return tot


@core_jit
def state_key(S: np.ndarray, H: np.ndarray) -> np.uint64:
    """The transposition-table key: symmetric in the columns; never 0.

    With ``DOM_TWINS`` the tableau part is :func:`abstract_key`, else the exact
    columns.
    """
    tot = U0
    if (S[O_DOM] & DOM_TWINS) != 0:
        tot = abstract_key(S, H)
    else:
        for c in range(NCOL):
            tot += mix64(H[c] + ZFD[S[O_FD + c]])
    tot ^= H[NCOL]
    if S[O_DRAW] != 1:
        tot ^= ZPTR[key_pointer(S)]
    k = mix64(tot)
    if k == U0:
        k = U1
    return k


@core_jit_inline
def table_key(S: np.ndarray, H: np.ndarray, tag: int) -> tuple[np.uint64, np.uint64]:
    """The two words the transposition table stores for the position (``tag``: see TAG_*).

    With twin classes (``DOM_TWINS``) they are the class itself, exactly: the
    :func:`structure_count` of each column (6 bits each; a column's structure cards never
    change during a search, so the count names them) and the foundation heights, which
    :func:`class_word` packs and do and undo keep in ``H[H_CLASS]``, the talon as a
    set of cards (``H[NCOL]``, one bit a card), the pointer's class (:func:`key_pointer`, draw
    3) and the tag. Two positions get the same words only if they are in the same class, so
    no collision can prune a position: a LOST is a proof.

    Without twin classes (a hand-built position whose face-up cards are not runs, or a test
    with them off) the first word is :func:`state_key` and the second an independent 63-bit
    Zobrist hash (other random tables) of the exact columns, talon, pointer and tag. A wrong
    prune needs both to collide: with at most ``N = 2**26`` stored positions and as many
    lookups, under the usual model of Zobrist keys as random, the chance in one search is
    below ``N**2 / 2**127 < 1e-22``.
    """
    ptr = _key_ptr(S)
    if (S[O_DOM] & DOM_TWINS) != 0:
        ta, tb = _tag_bits(tag)
        return H[H_CLASS] | ta, H[NCOL] | (np.uint64(ptr) << POINTER_SHIFT) | tb | TOP
    return _exact_key(S, H, tag, ptr)


@core_jit_inline
def _key_ptr(S: np.ndarray) -> int:
    """The pointer a key holds: its class (:func:`key_pointer`; draw 1: 0), or the pointer
    itself with ``ALW_POINTER`` off."""
    return S[O_TP] if (S[O_ALW] & ALW_POINTER) == 0 else key_pointer(S) if S[O_DRAW] != 1 else 0


@core_jit
def _exact_key(S: np.ndarray, H: np.ndarray, tag: int, ptr: int) -> tuple[np.uint64, np.uint64]:
    """:func:`table_key` without twin classes (left out of line: the search's key is inlined)."""
    a = mix64(state_key(S, H) ^ ZTAG[tag])
    tot = U0
    for c in range(NCOL):
        h = ZFD2[S[O_FD + c]]
        for k in range(S[O_LEN + c]):
            h += ZPOS2[S[O_COLS + c * CAP + k] * CAP + k]
        tot += mix64(h)
    b = mix64(tot + mix64(H[NCOL] ^ ZPTR2[ptr]) + ZTAG2[tag])
    return a, b | TOP


@core_jit_inline
def _tag_bits(tag: int) -> tuple[np.uint64, np.uint64]:
    """Where a twin-class key holds ``tag``: bits 58.. of each word (see :func:`table_key`)."""
    return np.uint64(tag & 63) << np.uint64(58), np.uint64(tag >> 6) << np.uint64(58)


@core_jit
def tagged_key(
    S: np.ndarray, H: np.ndarray, a: np.uint64, b: np.uint64, tag: int
) -> tuple[np.uint64, np.uint64]:
    """``table_key(S, H, tag)``, given ``(a, b) = table_key(S, H, 0)``: with twin classes the
    tag's bits are added (nothing else of the key depends on it), else it is computed anew.

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> from klondike_widget.solver.core.layout import H_SIZE
    >>> S = encode_state(deal(3)); H = np.zeros(H_SIZE, dtype=np.uint64); compute_hashes(S, H)
    >>> a, b = table_key(S, H, 0)
    >>> all(tagged_key(S, H, a, b, t) == table_key(S, H, t) for t in (TAG_KING, TAG_FND | 7))
    True
    """
    if (S[O_DOM] & DOM_TWINS) != 0:
        ta, tb = _tag_bits(tag)
        return np.uint64(a) | ta, np.uint64(b) | tb  # a Python int would make a float
    return table_key(S, H, tag)
