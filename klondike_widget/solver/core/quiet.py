# mypy: disable-error-code="no-any-return"
"""Keys read off a parent: a child's table key without playing its move, and the rule for
whether an automatic move may follow a move.

:func:`autos_may_follow` is the rule, read off a parent, for whether an automatic move may
follow a move: the search asks it before playing a move, :func:`quiet_key` before giving the
key of a child it does not play (:func:`quiet_change` says what changes, for the two-word keys
here and the one-word keys of :mod:`~klondike_widget.solver.core.one_word`).

>>> QUIET_FOUNDATION, QUIET_COLUMN, QUIET_TALON
(1, 2, 3)
"""

from __future__ import annotations

import numpy as np

from .codes import (
    K_COL_COL,
    K_FND_COL,
    K_TAL_COL,
    move_card,
    move_count,
    move_dst,
    move_kind,
    move_src,
)
from .keys import (
    POINTER_SHIFT,
    TOP,
    U0,
    ZTAL,
    _key_ptr,
)
from .layout import (
    ALW_BACK_UP,
    ALW_POINTER,
    CAP,
    DOM_TWINS,
    H_CLASS,
    NCOL,
    O_ALW,
    O_COLS,
    O_DOM,
    O_DRAW,
    O_FD,
    O_FND,
    O_LEN,
    O_TAL,
    O_TN,
    RANK,
    core_jit_inline,
)

__all__ = [
    "QUIET_COLUMN",
    "QUIET_FOUNDATION",
    "QUIET_TALON",
    "autos_may_follow",
    "is_next",
    "quiet_change",
    "quiet_key",
]

#: :func:`quiet_change`'s kinds of change.
QUIET_FOUNDATION = 1
QUIET_COLUMN = 2
QUIET_TALON = 3


@core_jit_inline
def quiet_key(S: np.ndarray, H: np.ndarray, m: int) -> tuple[np.uint64, np.uint64]:
    """``table_key(S', H', 0)`` of the child ``S'`` that move ``m`` leads to, read off the
    parent without playing it, for the twin-class moves (pointer classes on) after which no
    automatic move follows (:func:`autos_may_follow` is false) and that change the class in
    known places: a foundation card onto a column (its foundation one lower), a talon card
    onto a column (its talon bit gone, the pointer at its index; draw 1 or 3) and a root's run
    onto a column (its column's count lower, :func:`_root_run_fall`), as :func:`quiet_change`
    says. None wins. Any other move: ``(0, 0)`` (no key has a 0 second word).

    The first two change no column's :func:`~.keys.structure_count`: the card lands on a
    face-up card (the root, if any, stays) or is a King on an empty column (no root: 0 before
    and after). A foundation-to-column move or a run leaves the pointer where it is; a talon
    play of ``T[i]`` leaves it at ``i`` with one card fewer (:func:`~.keys.key_pointer` of
    that; a draw-1 key holds none).

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> from klondike_widget.solver.core.board import do_move, undo_move
    >>> from klondike_widget.solver.core.codes import K_TAL_COL, encode
    >>> from klondike_widget.solver.core.layout import H_SIZE, O_TAL
    >>> from klondike_widget.solver.core.keys import compute_hashes, table_key
    >>> S = encode_state(deal(3)); H = np.zeros(H_SIZE, dtype=np.uint64); compute_hashes(S, H)
    >>> S[O_DRAW] = 1; m = encode(K_TAL_COL, S[O_TAL + 4], 4, 0, 1, 0)  # (legal or not)
    >>> k = quiet_key(S, H, m); u = do_move(S, H, m); k == table_key(S, H, 0)
    True
    >>> undo_move(S, H, m, u); S[O_DRAW] = 2; quiet_key(S, H, m) == (U0, U0)  # (no such draw)
    True
    """
    what, index, count, ptr = quiet_change(S, m)
    b = H[NCOL] | TOP | (np.uint64(ptr) << POINTER_SHIFT)
    if what == QUIET_FOUNDATION:
        return H[H_CLASS] - (np.uint64(1) << np.uint64(42 + 4 * index)), b
    if what == QUIET_COLUMN:
        return H[H_CLASS] - (np.uint64(count) << np.uint64(6 * index)), b
    if what == QUIET_TALON:
        return H[H_CLASS], b ^ ZTAL[index]
    return U0, U0


@core_jit_inline
def quiet_change(S: np.ndarray, m: int) -> tuple[int, int, int, int]:
    """What the key of move ``m``'s child changes from its parent's, for :func:`quiet_key` and
    the one-word keys (``one_word.one_word_quiet_key``): ``(what, index, count, pointer)``,
    ``what`` one of ``QUIET_FOUNDATION`` (foundation ``index`` one lower), ``QUIET_COLUMN``
    (column ``index``'s structure count ``count`` lower), ``QUIET_TALON`` (card ``index`` gone
    from the talon) or 0 (no key read off the parent: any other move); ``pointer`` the child's
    pointer class (:func:`~.keys.key_pointer`; a draw-1 key holds none)."""
    kind = move_kind(m)
    if (S[O_DOM] & DOM_TWINS) == 0 or (S[O_ALW] & ALW_POINTER) == 0:
        return 0, 0, 0, 0
    # (autos_may_follow is asked only after the cheap tests of each kind: it is always false
    # for a foundation card onto a column and for a draw-1 talon play)
    if kind == K_FND_COL:
        return QUIET_FOUNDATION, move_src(m), 1, _key_ptr(S)  # src: the suit
    if kind == K_COL_COL:
        fall = _root_run_fall(S, m)
        if fall < 0 or autos_may_follow(S, m):
            return 0, 0, 0, 0
        return QUIET_COLUMN, move_src(m), fall, _key_ptr(S)
    if kind != K_TAL_COL:
        return 0, 0, 0, 0
    if S[O_DRAW] == 1:
        return QUIET_TALON, move_card(m), 0, 0
    if S[O_DRAW] != 3 or autos_may_follow(S, m):
        return 0, 0, 0, 0
    i = move_src(m)  # draw 3: the pointer goes to the card's index
    ptr = 0 if i == S[O_TN] - 1 or i % 3 == 0 else i  # key_pointer (a draw of 3, see there)
    return QUIET_TALON, move_card(m), 0, ptr


@core_jit_inline
def _root_run_fall(S: np.ndarray, m: int) -> int:
    """For :func:`quiet_key`: how much a root's run moved onto a column (``K_COL_COL``, the move
    of a twin-class reveal) lowers its column's :func:`structure_count`; -1 for any other run.
    (:func:`quiet_key` asks only when no automatic move may follow, :func:`autos_may_follow`.)

    The target's count stays: the run lands on a face-up card (the target's root, if any,
    stays) or is headed by a King on an empty column (no root: 0 before and after). The
    column it leaves had the face-down cards ``fd`` and the root (``fd + 1``), and keeps
    ``fd - 1`` face-down cards under the card that turns up, which is a root unless it is a
    King at the bottom (``fd - 1`` or ``fd``); or, with ``fd == 0``, nothing (0).
    """
    src = move_src(m)
    fd = S[O_FD + src]
    if move_count(m) != S[O_LEN + src] - fd:
        return -1
    king = RANK[move_card(m)] == 12  # (the run's bottom card: S at fd)
    if (fd == 0 and king) or (S[O_LEN + move_dst(m)] == 0 and not king):
        return -1  # a placed King (no root), or a run that is not a King onto an empty column
    if fd == 0:
        return 1
    return 1 if fd > 1 or RANK[S[O_COLS + src * CAP + fd - 1]] != 12 else 2


@core_jit_inline
def autos_may_follow(S: np.ndarray, m: int) -> bool:
    """False if the search need not look for automatic moves after move ``m`` from position
    ``S`` (asked before it is played): the one rule of the search (:func:`~.search.play`) and
    :func:`quiet_key`.

    With ``ALW_BACK_UP`` on, no automatic move can follow then. This rests on ``S`` having no
    safe playable card left (:func:`~.autos.is_safe`), which the search keeps: it plays them
    all after every move (:func:`~.autos.apply_autos`). A card coming down from a foundation
    only lowers a foundation, and :func:`~.autos.is_safe` only asks for foundations to be high
    enough, so no card becomes safe; no card becomes playable either, and the card itself is
    not safe (else it is not generated, see :func:`~.autos.would_go_back_up`; with
    ``ALW_BACK_UP`` off it may be, and then a later pass or move sends it up). In draw 1 a
    talon card going onto a column was playable and not safe in the talon already, and covers
    a card. With ``ALW_BACK_UP`` off a safe card may be waiting on a column, so after any
    other move the pass runs. A run moved between columns (``K_COL_COL``) changes no
    foundation, no talon card and no column top but the one it uncovers (the run's own top
    was a top before): only that card can be new, and only if it is next on its foundation. A
    talon card ``T[i]`` going onto a column in draw 3 changes no foundation and one column top
    (the card itself), and in the talon only which card is last (``T[n - 2]`` if ``i`` is the
    last index ``n - 1``, else ``T[n - 1]``) and where the pointer is: only the card and that
    last card can be new, each only if it is next on its foundation. Every other move may
    uncover or raise something.

    >>> from klondike_widget.solver.core.codes import encode
    >>> from klondike_widget.solver.core.layout import ALW_ALL, S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_ALW] = ALW_ALL
    >>> S[O_LEN] = 2; S[O_COLS : O_COLS + 2] = [1, 25]  # K♦ on 2♣ in column 0, no ♣ up
    >>> m = encode(K_COL_COL, 25, 0, 1, 1, 0)  # K♦ onto column 1: 2♣ uncovered
    >>> bool(autos_may_follow(S, m))
    False
    >>> S[O_FND] = 1; bool(autos_may_follow(S, m))  # A♣ up: 2♣ is next
    True
    """
    kind = move_kind(m)
    if kind == K_FND_COL or (kind == K_TAL_COL and S[O_DRAW] == 1):
        return False
    if (S[O_ALW] & ALW_BACK_UP) == 0 or (kind != K_COL_COL and kind != K_TAL_COL):
        return True
    src = move_src(m)
    if kind == K_TAL_COL:  # draw 3: the card, or the talon's new last card (if any)
        tn = S[O_TN] - 1  # the talon's cards after the move
        return is_next(S, move_card(m)) or (
            tn > 0 and is_next(S, S[O_TAL + (tn - 1 if src == tn else tn)])
        )
    n = S[O_LEN + src] - move_count(m)  # the cards the run leaves
    return n > 0 and is_next(S, S[O_COLS + src * CAP + n - 1])


@core_jit_inline
def is_next(S: np.ndarray, card: int) -> bool:
    """True if ``card`` is the next card of its foundation.

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.solver.bridge import encode_state
    >>> S = encode_state(deal(3))
    >>> is_next(S, 0), is_next(S, 1)  # the ace of the first suit, its two
    (True, False)
    """
    return S[O_FND + card // 13] == RANK[card]
