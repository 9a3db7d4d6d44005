# mypy: disable-error-code="no-any-return"
"""Safe automatic foundation moves: the rule, and the pass that plays them after every move.

A card is *safe* (:func:`is_safe`) when sending it to its foundation cannot lose a win; the
search plays every safe move at once (:func:`apply_autos`) and never brings a card down that
would at once be safe again (:func:`would_go_back_up`).
"""

from __future__ import annotations

import numpy as np

from .board import do_move
from .codes import K_COL_FND, K_TAL_FND, encode
from .keys import key_pointer
from .layout import (
    ALW_AUTOS,
    CAP,
    DOM_LAST_TALON_UP,
    NCOL,
    O_ALW,
    O_COLS,
    O_DOM,
    O_DRAW,
    O_F2T,
    O_FND,
    O_LEN,
    O_TAL,
    O_TN,
    RANK,
    RED,
    SUIT,
    core_jit,
    core_jit_inline,
    ix,
)

__all__ = [
    "apply_autos",
    "column_autos",
    "is_safe",
    "safe_column_top",
    "safe_next_at",
    "talon_may_go_up",
    "would_go_back_up",
]


@core_jit
def is_safe(S: np.ndarray, card: int) -> bool:
    """True if moving ``card`` (already playable) to its foundation cannot lose a win.

    Write ``X`` for the card, ``r`` for its rank (0 for an Ace), ``o`` for the lower of the two
    foundations of the other colour and ``t`` for the other foundation of its colour (heights:
    cards on them). The rule (Blake & Gent's, as Solvitaire and lonelybot use it) is

    * (B) ``o >= r - 1`` and ``t >= r - 2``, with or without foundation-to-column moves;
    * (A) ``o >= r`` (both cards that could lie on ``X`` are up), only when foundation cards
      may not come back down.

    Aces and twos pass (B) always. Switch: ``ALW_AUTOS`` of ``S[O_ALW]``.
    *Why (A) is wrong with foundation-to-column moves* (the defect of issue 13): "nothing
    can ever be stacked on X" forgets that the cards of rank ``r - 1`` on the foundations can
    come back down onto X to let the cards under them come down too. With ♦ and ♥ at Q and ♣
    at 8, K♠ passed (A) and went up; but 10♣ on face-down 9♣ needs a red J, which needs the
    red Q above it on a black K: the K♠ (``tests/solver/test_solver_soundness.py``). The
    search also never brought K♠ back down, as it would have been "safe" again at once
    (:func:`would_go_back_up`).

    *Argument.* Let ``P`` be winnable, ``P'`` the same with X up, ``W`` a winning line from
    ``P`` (counted in search moves, automatic ones included).

    1. *Settled cards.* With foundation-to-column moves, call a foundation card *settled* if
       the cards under it in its suit and the cards of the other colour one rank lower are
       settled (Aces on foundations are). Some shortest winning line brings no settled card
       down: take the lowest-ranked settled card L that ``W`` brings down; the cards that
       could lie on L are settled and of lower rank, so they never come down and nothing lies
       on L while it is out; the cards under it in its suit never come down either, and the
       cards above it cannot go up before it does. So deleting L's excursion (its coming
       down, its moves, its going back up; moving runs it tops without it) leaves a shorter
       winning line. Under (B) every card of rank ``<= r - 2`` of the other colour, and every
       card under X in its suit, is settled (induction on the rank: the other colour's cards
       rest on ours of rank ``<= r - 3``, which ``t >= r - 2`` and X's own suit at ``r`` put
       on the foundations, and ours rest on theirs of rank ``<= r - 3``). Without
       foundation-to-column moves nothing ever comes down and every foundation card is
       settled.
    2. *Dead cards.* From ``P'`` play ``W`` but keep a set D of cards that are out in ``W``'s
       position and up in ours, which is ``W``'s with D on the foundations: at first D = {X}.
       When ``W`` puts a card Y (rank ``r - 1``, other colour) on a member of D, ours sends Y
       up instead (or leaves it up, if ``W`` brings it down from its foundation): Y's suit
       is at ``r - 1`` (its lower cards are settled and Y is next or on top), and Y joins D;
       likewise a card Z of rank ``r - 2`` of X's colour put on a Y (only under (B): X's own
       ``r - 2`` is settled, the other one is at most next since ``t >= r - 2``). Nothing can
       lie on a Z (the other colour's ``r - 3`` cards are settled), nothing else on a Y or
       on X, so D's cards always top their columns; ours skips every move of a D card and
       moves runs without the D cards on top. Cards under D cards are free earlier in ours
       (a face-down one turns up earlier), which only adds moves; no move of ``W`` touches a
       foundation under a D card (settled) or above it (the card must go up first, and then
       it leaves D). Under (A) without foundation-to-column moves D stays {X}. So ours is a
       winning line from ``P'``, shorter by X's own moves at least.

    From the talon: in draw 1 every talon card stays reachable from any pointer, so removing
    one changes nothing else; in draw 3 only the last card when the pointer reaches what
    pointer 0 reaches (:func:`apply_autos`). Since the line from ``P'`` is shorter, the search
    (which applies these moves after every move) still reaches a won position.

    >>> import numpy as np
    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32)
    >>> S[O_FND : O_FND + 4] = [8, 12, 12, 12]  # C8 DQ HQ SQ, the King of spades next
    >>> S[O_F2T] = 1; bool(is_safe(S, 51))
    False
    >>> S[O_F2T] = 0; bool(is_safe(S, 51))
    True
    """
    lo = min(S[O_FND], S[O_FND + 3]) if RED[card] == 1 else min(S[O_FND + 1], S[O_FND + 2])
    return _safe_rule(RANK[card], lo, S[O_FND + 3 - SUIT[card]], S[O_F2T] != 0)


@core_jit_inline
def _safe_rule(r: int, lo: int, t: int, f2t: bool) -> bool:
    """:func:`is_safe`'s rule for a card of rank ``r``, given ``lo`` (the lower foundation of
    the other colour) and ``t`` (the other foundation of its colour)."""
    return r <= 1 or (lo >= r - 1 and t >= r - 2) or (not f2t and lo >= r)


@core_jit
def would_go_back_up(S: np.ndarray, card: int) -> bool:
    """True if ``card``, the top of its foundation, would be safe there once brought down.

    Such a card is never brought down (bit ``ALW_BACK_UP`` of ``S[O_ALW]``). *Argument:* the
    position ``C`` with the card on a column top and the position ``P`` with it up differ by
    that one foundation play, which :func:`is_safe` judges in ``C`` (the foundation lowered, as
    here): from any winning line of ``C`` its argument builds a shorter one from ``P``. So a
    shortest winning line of ``P`` never starts by bringing the card down, and the search,
    which tries every other move of ``P``, still finds a win. The argument of :func:`is_safe`
    covers foundation-to-column moves (its rule (B) is the only one used then), which is what
    this prune relied on wrongly before issue 13: K♠ stayed up, judged "safe" by rule (A).
    """
    suit = SUIT[card]
    S[O_FND + suit] -= 1
    back_up = is_safe(S, card)
    S[O_FND + suit] += 1
    return back_up


@core_jit_inline
def _safe_next(S: np.ndarray) -> np.int64:
    """Bit ``c`` set for each card ``c`` that is next on its foundation and safe there
    (:func:`is_safe`, read from the four heights at once)."""
    return safe_next_at(S[O_FND], S[O_FND + 1], S[O_FND + 2], S[O_FND + 3], S[O_F2T] != 0)


@core_jit_inline
def safe_next_at(h0: int, h1: int, h2: int, h3: int, f2t: bool) -> np.int64:
    """:func:`_safe_next` for the foundation heights ``h0``-``h3`` (clubs, diamonds, hearts,
    spades), ``f2t`` whether cards may come back down: also for heights a move would make
    (:func:`~.quiet.up_change` asks it of a card's going up before it is played).

    >>> bin(int(safe_next_at(1, 0, 0, 13, True)))  # 2♣ (a two passes always), A♦, A♥
    '0b100000000000010000000000010'
    """
    one = np.int64(1)
    safe = np.int64(0)
    lo_red = min(h1, h2)  # clubs (0) and spades (3) are black, diamonds (1) and hearts (2) red
    lo_black = min(h0, h3)
    if h0 < 13 and _safe_rule(h0, lo_red, h3, f2t):
        safe |= one << h0
    if h1 < 13 and _safe_rule(h1, lo_black, h2, f2t):
        safe |= one << (13 + h1)
    if h2 < 13 and _safe_rule(h2, lo_black, h1, f2t):
        safe |= one << (26 + h2)
    if h3 < 13 and _safe_rule(h3, lo_red, h0, f2t):
        safe |= one << (39 + h3)
    return safe


@core_jit_inline
def safe_column_top(S: np.ndarray, safe: np.int64, short: int) -> int:
    """The first column whose top card is in ``safe``, column ``short`` read one card shorter
    (-1: none); -1 if none. :func:`_column_auto`, and :func:`~.quiet.up_change` for the child
    of a column top going up.

    >>> from klondike_widget.solver.core.layout import S_SIZE
    >>> S = np.zeros(S_SIZE, dtype=np.int32); S[O_LEN] = 2; S[O_COLS : O_COLS + 2] = [1, 0]
    >>> aces = safe_next_at(0, 0, 0, 0, True)  # A♣ on 2♣ in column 0: only Aces are next
    >>> int(safe_column_top(S, aces, -1)), int(safe_column_top(S, aces, 0))  # 2♣ is not
    (0, -1)
    """
    for c in range(NCOL):
        n = S[O_LEN + c] - (1 if c == short else 0)
        if n > 0 and ((safe >> S[ix(O_COLS + c * CAP + n - 1)]) & 1) != 0:
            return c  # (a signed shift count: the uncompiled core shifts numpy integers)
    return -1


@core_jit_inline
def talon_may_go_up(S: np.ndarray, safe: np.int64, talon: np.uint64, last: int, ptr: int) -> bool:
    """True if the automatic pass may send a talon card of ``safe`` up: in draw 1 one in the
    set ``talon`` (``H[NCOL]``'s bits); in draw 3, with ``DOM_LAST_TALON_UP``, the last card
    ``last`` (-1: none) while the pointer class ``ptr`` is 0 (it reaches what pointer 0
    reaches, see :func:`apply_autos`). :func:`_talon_auto`, and :func:`~.quiet.up_change` for
    a child's talon read off its parent."""
    if S[O_DRAW] == 1:
        return (np.uint64(safe) & talon) != 0
    return (
        (S[O_DOM] & DOM_LAST_TALON_UP) != 0 and last >= 0 and ptr == 0 and ((safe >> last) & 1) != 0
    )


@core_jit_inline
def _column_auto(S: np.ndarray, safe: np.int64) -> int:
    """The move of the first column top in ``safe`` to its foundation; -1 if none."""
    c = safe_column_top(S, safe, -1)
    if c < 0:
        return -1
    return encode(K_COL_FND, S[ix(O_COLS + c * CAP + S[O_LEN + c] - 1)], c, 0, 1, 0)


@core_jit_inline
def _talon_auto(S: np.ndarray, H: np.ndarray, safe: np.int64) -> int:
    """The move of a talon card in ``safe`` that may go up automatically
    (:func:`talon_may_go_up`); -1 if none: in draw 1 the first such card, in draw 3 the last
    card."""
    tn = S[O_TN]
    last = S[O_TAL + tn - 1] if tn > 0 else -1
    # (the pointer class matters only in draw 3 with the last card safe: ask it only then)
    asks = S[O_DRAW] != 1 and last >= 0 and ((safe >> last) & 1) != 0
    if not talon_may_go_up(S, safe, H[NCOL], last, key_pointer(S) if asks else 0):
        return -1
    if S[O_DRAW] != 1:
        return encode(K_TAL_FND, last, tn - 1, 0, 1, 0)
    for i in range(tn):
        card = S[O_TAL + i]
        if (safe >> card) & 1:
            return encode(K_TAL_FND, card, i, 0, 1, 0)
    return -1


@core_jit_inline
def _play_autos(
    S: np.ndarray, H: np.ndarray, AUM: np.ndarray, AUU: np.ndarray, aun: int, talon: bool
) -> int:
    """Play safe moves (from the columns, and from the talon if ``talon``) into ``AUM``/``AUU``
    from index ``aun`` on, until none is left or the arrays are full; return the new count."""
    while True:
        safe = _safe_next(S)
        if safe == 0:
            break
        m = _column_auto(S, safe)
        if m < 0 and talon:
            m = _talon_auto(S, H, safe)
        if m < 0 or aun >= AUM.shape[0]:
            break
        AUU[aun] = do_move(S, H, m)
        AUM[aun] = m
        aun += 1
    return aun


@core_jit_inline
def apply_autos(S: np.ndarray, H: np.ndarray, AUM: np.ndarray, AUU: np.ndarray, aun: int) -> int:
    """Play safe foundation moves until none is left; record them; return the new count.

    From the columns always; from the talon in draw 1, where every talon card is reachable from
    any pointer so removing one changes nothing else. In draw 3 removing a talon card shifts
    which cards the taps reach, except for the last one while the pointer reaches what pointer 0
    reaches (:func:`key_pointer`): no other card moves, every card stays reachable and the pointer
    ends at the end of the talon (the same class), so with ``DOM_LAST_TALON_UP`` that card goes
    up when safe (lonelybot's deck rule). Switch: ``ALW_AUTOS``.
    """
    if (S[O_ALW] & ALW_AUTOS) == 0:
        return aun
    return _play_autos(S, H, AUM, AUU, aun, True)


@core_jit
def column_autos(S: np.ndarray, H: np.ndarray, AUM: np.ndarray, AUU: np.ndarray, aun: int) -> int:
    """Move safe column tops to their foundations until none is left; return the new count.

    The moves are recorded in ``AUM``/``AUU`` from index ``aun`` on (for undo and replay). The
    beam search's pass (:mod:`klondike_widget.solver.beam`): no talon card, whatever the
    switches.
    """
    return _play_autos(S, H, AUM, AUU, aun, False)
