# mypy: disable-error-code="no-any-return"
"""Keys read off a parent: a child's table key without playing its move, and the rule for
whether an automatic move may follow a move.

:func:`autos_may_follow` is the rule, read off a parent, for whether an automatic move may
follow a move: the search asks it before playing a move, :func:`quiet_key` before giving the
key of a child it does not play (:func:`quiet_change` says what changes, for the two-word keys
here and the one-word keys of :mod:`~klondike_widget.solver.core.one_word`).

>>> QUIET_FOUNDATION, QUIET_COLUMN, QUIET_TALON, QUIET_UP_COLUMN, QUIET_UP_TALON
(1, 2, 3, 4, 5)
"""

from __future__ import annotations

import numpy as np

from .autos import is_safe, safe_column_top, safe_next_at, talon_may_go_up
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
from .keys import (
    POINTER_SHIFT,
    TOP,
    U0,
    ZTAL,
    _key_ptr,
    foundation_unit,
)
from .layout import (
    ALW_AUTOS,
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
    O_F2T,
    O_FD,
    O_FND,
    O_LEN,
    O_TAL,
    O_TN,
    RANK,
    SUIT,
    core_jit,
    core_jit_inline,
)

__all__ = [
    "QUIET_COLUMN",
    "QUIET_FOUNDATION",
    "QUIET_TALON",
    "QUIET_UP_COLUMN",
    "QUIET_UP_TALON",
    "autos_may_follow",
    "change_key",
    "is_next",
    "quiet_change",
    "quiet_key",
    "up_change",
]

#: :func:`quiet_change`'s kinds of change.
QUIET_FOUNDATION = 1
QUIET_COLUMN = 2
QUIET_TALON = 3
QUIET_UP_COLUMN = 4
QUIET_UP_TALON = 5


@core_jit_inline
def quiet_key(S: np.ndarray, H: np.ndarray, m: int) -> tuple[np.uint64, np.uint64]:
    """``table_key(S', H', 0)`` of the child ``S'`` that move ``m`` leads to, read off the
    parent without playing it, for the twin-class moves (pointer classes on) after which no
    automatic move follows (:func:`autos_may_follow` is false) and that change the class in
    known places: a foundation card onto a column (its foundation one lower), a talon card
    onto a column (its talon bit gone, the pointer at its index; draw 1 or 3), a root's run
    onto a column (its column's count lower, :func:`_root_run_fall`) and a column top or a
    talon card going up, when :func:`up_change` finds that no automatic move follows, as
    :func:`quiet_change` says. None wins. Any other move: ``(0, 0)`` (no key has a 0 second
    word).

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
    what, index, count, ptr = quiet_change(S, H, m)
    return change_key(H, m, what, index, count, ptr)


@core_jit_inline
def change_key(
    H: np.ndarray, m: int, what: int, index: int, count: int, ptr: int
) -> tuple[np.uint64, np.uint64]:
    """:func:`quiet_key` from :func:`quiet_change`'s answer ``(what, index, count, ptr)`` for
    move ``m``: ``one_word.row_quiet_key`` asks :func:`quiet_change` once and builds the key
    it needs, one word or two."""
    b = H[NCOL] | TOP | (np.uint64(ptr) << POINTER_SHIFT)
    if what == QUIET_FOUNDATION:
        return H[H_CLASS] - foundation_unit(index), b
    if what == QUIET_COLUMN:
        return H[H_CLASS] - (np.uint64(count) << np.uint64(6 * index)), b
    if what == QUIET_TALON:
        return H[H_CLASS], b ^ ZTAL[index]
    if what == QUIET_UP_COLUMN:
        up = foundation_unit(SUIT[move_card(m)])
        return H[H_CLASS] + up - (np.uint64(count) << np.uint64(6 * index)), b
    if what == QUIET_UP_TALON:
        return H[H_CLASS] + foundation_unit(SUIT[index]), b ^ ZTAL[index]
    return U0, U0


@core_jit_inline
def quiet_change(S: np.ndarray, H: np.ndarray, m: int) -> tuple[int, int, int, int]:
    """What the key of move ``m``'s child changes from its parent's, for :func:`quiet_key` and
    the one-word keys (``one_word.row_quiet_key``): ``(what, index, count, pointer)``,
    ``what`` one of ``QUIET_FOUNDATION`` (foundation ``index`` one lower), ``QUIET_COLUMN``
    (column ``index``'s structure count ``count`` lower), ``QUIET_TALON`` (card ``index`` gone
    from the talon), ``QUIET_UP_COLUMN`` (the move's card up from column ``index``, whose
    count is ``count`` lower), ``QUIET_UP_TALON`` (card ``index`` up from the talon) or 0 (no
    key read off the parent: any other move); ``pointer`` the child's pointer class
    (:func:`~.keys.key_pointer`; a draw-1 key holds none)."""
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
    if kind in (K_COL_FND, K_TAL_FND):
        return up_change(S, H, m)
    if kind != K_TAL_COL:
        return 0, 0, 0, 0
    if S[O_DRAW] == 1:
        return QUIET_TALON, move_card(m), 0, 0
    if S[O_DRAW] != 3 or autos_may_follow(S, m):
        return 0, 0, 0, 0
    return QUIET_TALON, move_card(m), 0, _played_pointer(S, move_src(m))


@core_jit_inline
def _played_pointer(S: np.ndarray, i: int) -> int:
    """The pointer class a key holds after talon card ``T[i]`` is played (draw 1 or 3): the
    pointer goes to ``i``, with one card fewer (:func:`~.keys.key_pointer` of a draw of 3)."""
    if S[O_DRAW] == 1:
        return 0
    return 0 if i == S[O_TN] - 1 or i % 3 == 0 else i


@core_jit
def up_change(S: np.ndarray, H: np.ndarray, m: int) -> tuple[int, int, int, int]:
    """:func:`quiet_change` for a column top or a talon card going up (``K_COL_FND``,
    ``K_TAL_FND``): ``QUIET_UP_COLUMN`` or ``QUIET_UP_TALON`` if no automatic move follows it
    and it does not win, else 0 (then the search plays it to learn its child's key).

    The automatic pass (:func:`~.autos.apply_autos`) plays a card that is next and safe on the
    foundations the child has, from a column top of the child or, in draw 1, from its talon
    (in draw 3 only its last talon card, while its pointer reaches what pointer 0 reaches).
    All of that is read off the parent: the child's heights are the parent's with the card's
    suit one higher (:func:`~.autos.safe_next_at`), its column tops the parent's but under the
    card that leaves, its talon the parent's without the card. The column the card leaves
    loses its root when the card was its only face-up card (:func:`_root_fall`: the card
    under it turns up); a placed card, or a King alone at the bottom, leaves the count as it
    was. The pointer: a talon card's index, as after any talon play; else it stays.

    Playing the move for its key costs the move, the pass that finds nothing and the undo. In
    numbered draw-3 deal 1862 (the first order alone, sampled every 997 positions while reading
    ahead) 0.51 of the 0.59 cards going up a position had no automatic move after them; with
    the next-and-safe rule of :func:`autos_may_follow`, the children played for their keys
    went from 1.00 to 0.30 a position (fresh draw-1 deal 14025439185704401209: 0.68 to 0.12).
    Compiled once and called (``core_jit``), not inlined by numba. Inlined into the four
    copies of :func:`quiet_change` that ``run_chunk`` then held, it nearly doubled the core's
    compile time (the first compile of a fresh clone's test run, 303 -> 560 s). With two
    copies (``one_word.row_quiet_key`` asks :func:`quiet_change` once) the empty-cache
    compile of ``warm_up`` took 6:05 inlined against 4:56 called (both at once, December
    2026) and the search 1.5-2% less CPU on four large deals: the compile time decided.

    >>> from klondike_widget.solver.core.codes import encode
    >>> from klondike_widget.solver.core.layout import ALW_ALL, DOM_ALL, H_SIZE, S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); H = np.zeros(H_SIZE, dtype=np.uint64)
    >>> S[O_ALW] = ALW_ALL; S[O_DOM] = DOM_ALL; S[O_DRAW] = 1; S[O_F2T] = 1
    >>> S[O_LEN] = 2; S[O_FD] = 1; S[O_COLS : O_COLS + 2] = [15, 0]  # A♣ on face-down 3♦
    >>> up_change(S, H, encode(K_COL_FND, 0, 0, 0, 1, 0))  # 3♦ turns up: its count 2 -> 1
    (4, 0, 1, 0)
    >>> S[O_COLS] = 1; up_change(S, H, encode(K_COL_FND, 0, 0, 0, 1, 0))  # 2♣ turns up, safe
    (0, 0, 0, 0)
    """
    kind = move_kind(m)
    draw = S[O_DRAW]
    if (S[O_ALW] & ALW_AUTOS) == 0 or (kind == K_TAL_FND and draw != 1 and draw != 3):
        return 0, 0, 0, 0
    card = move_card(m)
    suit = SUIT[card]
    h0 = S[O_FND] + (1 if suit == 0 else 0)
    h1 = S[O_FND + 1] + (1 if suit == 1 else 0)
    h2 = S[O_FND + 2] + (1 if suit == 2 else 0)
    h3 = S[O_FND + 3] + (1 if suit == 3 else 0)
    if h0 + h1 + h2 + h3 == 52:
        return 0, 0, 0, 0  # (a win: the search plays it and sees it)
    safe = safe_next_at(h0, h1, h2, h3, S[O_F2T] != 0)
    src = move_src(m)
    tn = S[O_TN]
    if kind == K_TAL_FND:
        ptr = _played_pointer(S, src)
        tn -= 1
        last = S[O_TAL + (tn - 1 if src == tn else tn)] if tn > 0 else -1
        if safe != 0 and _auto_waits(S, safe, -1, H[NCOL] ^ ZTAL[card], last, ptr):
            return 0, 0, 0, 0
        return QUIET_UP_TALON, card, 0, ptr
    ptr = _key_ptr(S)
    last = S[O_TAL + tn - 1] if tn > 0 else -1
    if safe != 0 and _auto_waits(S, safe, src, H[NCOL], last, ptr):
        return 0, 0, 0, 0
    ln = S[O_LEN + src]
    fd = S[O_FD + src]
    root = ln - 1 == fd and (fd > 0 or RANK[card] != 12)
    return QUIET_UP_COLUMN, src, _root_fall(S, src) if root else 0, ptr


@core_jit_inline
def _auto_waits(
    S: np.ndarray, safe: np.int64, src: int, talon: np.uint64, last: int, ptr: int
) -> bool:
    """For :func:`up_change`: True if the child's automatic pass would find a card of ``safe``,
    as :func:`~.autos.apply_autos` looks for them: a column top, column ``src`` one card
    shorter (:func:`~.autos.safe_column_top`), or a talon card (:func:`~.autos.talon_may_go_up`)
    of the set ``talon`` (draw 1) or the last card ``last`` under pointer class ``ptr``."""
    return safe_column_top(S, safe, src) >= 0 or talon_may_go_up(S, safe, talon, last, ptr)


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
    return _root_fall(S, src)


@core_jit_inline
def _root_fall(S: np.ndarray, src: int) -> int:
    """How much column ``src``'s structure count falls when its root leaves with everything on
    it: the root and, with face-down cards under it, the one of them that turns up unless it
    is a King at the bottom (then no root is left: 2)."""
    fd = S[O_FD + src]
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
    was a top before): only that card can be new, and only if it is next on its foundation and
    safe there (the foundations, which the rule reads, are the parent's). A talon card
    ``T[i]`` going onto a column in draw 3 changes no foundation and one column top (the card
    itself), and in the talon only which card is last (``T[n - 2]`` if ``i`` is the last index
    ``n - 1``, else ``T[n - 1]``) and where the pointer is: only the card and that last card
    can be new, each only if it is next and safe. (Until December 2026 the rule asked only
    for next: numbered draw-3 deal 1862 then played some 0.19 children a position for their
    keys after which the pass found nothing, a card next but not safe.) Every other move may
    uncover or raise something.

    >>> from klondike_widget.solver.core.codes import encode
    >>> from klondike_widget.solver.core.layout import ALW_ALL, S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_ALW] = ALW_ALL
    >>> S[O_LEN] = 2; S[O_COLS : O_COLS + 2] = [1, 25]  # K♦ on 2♣ in column 0, no ♣ up
    >>> m = encode(K_COL_COL, 25, 0, 1, 1, 0)  # K♦ onto column 1: 2♣ uncovered
    >>> bool(autos_may_follow(S, m))
    False
    >>> S[O_FND] = 1; bool(autos_may_follow(S, m))  # A♣ up: 2♣ is next (and a two is safe)
    True
    >>> S[O_COLS] = 5; S[O_FND] = 5; bool(autos_may_follow(S, m))  # 6♣ next, no red 4 up
    False
    """
    kind = move_kind(m)
    if kind == K_FND_COL or (kind == K_TAL_COL and S[O_DRAW] == 1):
        return False
    if (S[O_ALW] & ALW_BACK_UP) == 0 or (kind != K_COL_COL and kind != K_TAL_COL):
        return True
    src = move_src(m)
    if kind == K_TAL_COL:  # draw 3: the card, or the talon's new last card (if any)
        tn = S[O_TN] - 1  # the talon's cards after the move
        return _goes_up(S, move_card(m)) or (
            tn > 0 and _goes_up(S, S[O_TAL + (tn - 1 if src == tn else tn)])
        )
    n = S[O_LEN + src] - move_count(m)  # the cards the run leaves
    return n > 0 and _goes_up(S, S[O_COLS + src * CAP + n - 1])


@core_jit_inline
def _goes_up(S: np.ndarray, card: int) -> bool:
    """True if ``card`` is next on its foundation and safe there (:func:`~.autos.is_safe`):
    once playable, the automatic pass sends it up. (Safety is read only of a card that is
    next, which few are.)"""
    return is_next(S, card) and is_safe(S, card)


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
