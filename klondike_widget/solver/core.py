# mypy: disable-error-code="no-any-return"
"""The compiled search core: move generation, do/undo and a resumable depth-first search.

Everything here works on small integer numpy arrays (layout in
:mod:`klondike_widget.solver.bridge`) and is compiled with numba's ``njit(cache=True,
nogil=True)``. The same source runs as plain Python under ``NUMBA_DISABLE_JIT=1`` (slow, used to
debug and to cross-check the compiled code).

The position
------------
``S`` (int32) holds the columns, column lengths, face-down counts, foundation heights and the
*talon*: the waste followed by the stock in the order taps turn it, ``T = waste + reversed(stock)``,
with a pointer ``tp = len(waste)``. A tap moves the pointer ``draw`` cards on (capped at the end),
a recycle sets it back to 0 and playing the waste top removes ``T[tp - 1]``. So the talon is always
a subsequence of the starting one and no card ever joins it: its contents are a set.

``H`` (uint64) holds one position-sensitive Zobrist sum per column and the talon as a set of
cards (one bit a card). :func:`state_key` mixes each column separately and adds them up, so it
does not depend on the order of the columns (empty-column and column-permutation symmetry
collapse); foundations follow from the other cards. The transposition table stores two words a
position (:func:`table_key`): with twin classes the class itself, exactly, so a LOST never rests
on a hash collision. In draw 1 every talon card is reachable from any
pointer, so the key leaves the pointer out; in draw 3 it is part of the key, through
:func:`key_pointer` (pointers from which the taps reach the same cards share a key).

Twin classes (bit 32 of ``S[O_DOM]``, on unless a column's face-up cards are not a run)
-----------------------------------------------------------------------------------------
Two cards of the same rank and colour are twins. A face-up card is a *root* if it lies on
face-down cards or, not being a King, at the bottom of a column; every other face-up card is
*placed* on a card it stacks on (or is a King at the bottom of a column). Positions that differ
only in which twin each placed card lies on are equally winnable (the argument is in
:func:`gen_abstract`), so the key (:func:`abstract_key`) leaves that out and the search makes one
move per class: cards to the foundations (through :data:`K_SWAP_FND` when a card is covered but
its twin is a column top), talon and foundation cards onto one column of the right rank and
colour, and *reveals*, a root's run onto another column. This is lonelybot's game abstraction,
kept on concrete columns so that every line is a line of real moves.

Moves (search edges)
--------------------
A move code packs ``kind | card << 3 | src << 9 | dst << 15 | count << 18`` and a priority in bits
24..30 used only for ordering. Talon moves are macro moves: "tap and recycle until ``T[src]`` is the
waste top, then play it"; ``src`` is the talon index and ``card`` the card. Safe foundation moves
are applied automatically after every move (see :func:`is_safe`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# -- layout of S (int32) --------------------------------------------------------------------------
NCOL = 7
CAP = 52  # room for any column of any valid position (a deal needs at most 19)
O_COLS = 0
O_LEN = NCOL * CAP
O_FD = O_LEN + NCOL
O_FND = O_FD + NCOL
O_TAL = O_FND + 4
TAL_CAP = 52  # room for any stock and waste of any valid position (a deal has 24)
O_TN = O_TAL + TAL_CAP
O_TP = O_TN + 1
O_DRAW = O_TP + 1
O_F2T = O_DRAW + 1
O_DOM = O_F2T + 1  # pruning bits: 1 partial runs (gen_moves), 2 dead ends (is_dead),
#                       4 what follows a foundation-to-column move (follow_ups),
#                       8 what follows a talon-to-column move in draw 1 (talon_follow_ups),
#                       16 what follows emptying a column (king_fills),
#                       32 twin classes (abstract_key, gen_abstract),
#                       64 the last talon card goes up automatically in draw 3 (apply_autos)
#: The pruning bits on by default. Bits 4 and 16 are sound one at a time but not beside bit 8:
#: each rests on rearranging a winning line (a card coming down later, an emptied column filled
#: at once, a talon card played later), and two such rearrangements can undo each other, so the
#: search may prune every order of a winning line (a draw-1 position where 10♦ from the talon
#: must go onto J♣ brought down, and 10♣ down elsewhere, before 9♣ comes down onto 10♦: see
#: ``tests/test_solver_classes.py``). Bit 8 alone gives most of the gain, so it is the one kept.
DOM_ALL = 127 & ~(4 | 16)
DOM_BITS = 127  #: every pruning bit there is
#: Switches of the always-on rules, for tests only (``encode_state(..., always=...)``): each is
#: sound (the argument is in the docstring named) and on in every real search; a test turns one
#: off and checks that no verdict changes.
O_ALW = O_DOM + 1
ALW_AUTOS = 1  #: safe foundation moves played automatically (apply_autos, is_safe)
ALW_BACK_UP = 2  #: no foundation card brought down that would be safe at once (would_go_back_up)
ALW_KINGS = 4  #: no King alone moved to an empty column, only the first empty one (gen_moves)
ALW_REVERSE = 8  #: no move that undoes the last one (drop_reverse)
ALW_POINTER = 16  #: the key's pointer classes (key_pointer; draw 1 leaves the pointer out)
ALW_ALL = 31
S_SIZE = O_ALW + 1
O_PHM = NCOL + 1  # per column and structure count: the column's part of abstract_key
H_SIZE = O_PHM + NCOL * (CAP + 1)  # 7 column sums + talon hash + that table

# -- move kinds -----------------------------------------------------------------------------------
K_COL_FND = 0
K_TAL_FND = 1
K_TAL_COL = 2
K_COL_COL = 3
K_FND_COL = 4
K_SWAP_FND = 5  # move the run on a card onto the card's twin, then the card to its foundation

# -- search stack sizes ---------------------------------------------------------------------------
MAXD = 4096  # deepest search path
MAXM = 64  # most moves of one position (a real position has far fewer, see gen_moves)
MAXA = MAXD + 128  # automatic moves along one path

# -- scratch array of gen_moves (int32): talon reach marks, then "column whose top is card" --------
SCR_TOP = TAL_CAP + 1
SCR_LOCC = SCR_TOP + 52  # is_dead: column of each card (-1: not in a column)
SCR_LOCI = SCR_LOCC + 52  # is_dead: index of each card in its column
SCR_Z = SCR_LOCI + 52  # is_dead: 1 for the suspected cards
SCR_H = SCR_Z + 52  # is_dead: per column, index of the highest suspected card (-1: none)
SCR_SIZE = SCR_H + NCOL

# -- control array (int64) indices -----------------------------------------------------------------
C_DEPTH = 0
C_NODES = 1
C_AUN = 2
C_TTCOUNT = 3
C_OVERFLOW = 4
C_ROOTAUN = 5
C_MAXDEPTH = 6
C_SIZE = 8

# -- results of run_chunk --------------------------------------------------------------------------
R_BUDGET = 0
R_WON = 1
R_EXHAUSTED = 2
R_GROW = 3

# -- card tables ----------------------------------------------------------------------------------
RANK = np.array([c % 13 for c in range(52)], dtype=np.int32)
SUIT = np.array([c // 13 for c in range(52)], dtype=np.int32)
RED = np.array([1 if c // 13 in (1, 2) else 0 for c in range(52)], dtype=np.int32)
#: The two cards a card can be placed on (one rank higher, other colour); -1 for Kings.
TG1 = np.full(52, -1, dtype=np.int32)
TG2 = np.full(52, -1, dtype=np.int32)
for _c in range(51, -1, -1):
    if _c % 13 != 12:
        _other = [s for s in range(4) if (s in (1, 2)) != (_c // 13 in (1, 2))]
        TG1[_c] = _other[0] * 13 + _c % 13 + 1
        TG2[_c] = _other[1] * 13 + _c % 13 + 1
del _c, _other

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

M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
SH30 = np.uint64(30)
SH27 = np.uint64(27)
SH31 = np.uint64(31)
U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def mix64(x: np.uint64) -> np.uint64:  # pragma: no cover - trivial
    """SplitMix64's finaliser: a bijective 64-bit mix."""
    x = (x ^ (x >> SH30)) * M1
    x = (x ^ (x >> SH27)) * M2
    return x ^ (x >> SH31)


@njit(cache=True, nogil=True)
def encode(kind: int, card: int, src: int, dst: int, count: int, prio: int) -> int:
    """Pack a move code (see the module docstring)."""
    return kind | (card << 3) | (src << 9) | (dst << 15) | (count << 18) | (prio << 24)


@njit(cache=True, nogil=True)
def stacks(card: int, onto: int) -> bool:
    """True if ``card`` may lie on ``onto`` in a column."""
    return RANK[onto] == RANK[card] + 1 and RED[card] != RED[onto]


@njit(cache=True, nogil=True)
def compute_hashes(S: np.ndarray, H: np.ndarray) -> None:
    """Fill ``H`` from scratch (the search keeps its first ``NCOL + 1`` words up to date).

    The rest is a table for :func:`abstract_key`: the part of column ``c`` when its
    :func:`structure_count` is ``k``, for every ``k`` up to the current one. Structure cards
    never change, and a search only lowers the counts, so the root's table serves the search.
    """
    for c in range(NCOL):
        h = U0
        for k in range(S[O_LEN + c]):
            h += ZPOS[S[O_COLS + c * CAP + k] * CAP + k]
        H[c] = h
    t = U0
    for i in range(S[O_TN]):
        t ^= ZTAL[S[O_TAL + i]]
    H[NCOL] = t
    for c in range(NCOL):
        sc = structure_count(S, c)
        h = U0
        for k in range(sc + 1):
            H[O_PHM + c * (CAP + 1) + k] = mix64(h + ZFD[max(k - 1, 0)])
            if k < sc:
                h += ZPOS[S[O_COLS + c * CAP + k] * CAP + k]


@njit(cache=True, nogil=True)
def key_pointer(S: np.ndarray) -> int:
    """The talon pointer as the key sees it: 0 for every pointer that reaches what 0 reaches.

    From pointer ``p`` (draw ``k``, ``n`` talon cards) taps and recycles bring to the top the
    cards at ``p - 1``, at ``p + jk - 1`` and at ``jk - 1`` (``j >= 1``, each capped at
    ``n - 1``): see :func:`reachable_talon`. When ``p`` is a multiple of ``k`` or ``p == n`` the
    first two kinds are among the third, so the reachable cards are those of pointer 0. A talon
    play of ``T[i]`` leaves the pointer at ``i`` whatever it was before and nothing else reads
    the pointer, so two positions that differ only in such pointers have the same moves and the
    same future: one key serves both. Foundation-to-column moves do not read or move the
    pointer. Switch: ``ALW_POINTER`` (off: the key holds the pointer itself, in draw 1 too,
    where every talon card is reachable from any pointer and taps change nothing else).
    """
    tp = S[O_TP]
    if tp % S[O_DRAW] == 0 or tp == S[O_TN]:
        return 0
    return tp


@njit(cache=True, nogil=True)
def structure_count(S: np.ndarray, c: int) -> int:
    """The face-down cards of column ``c`` plus its *root*, if it has one.

    The root is the face-up card lying on the face-down cards, or, in a column without any, a
    bottom card that is not a King. A root never came from elsewhere (only Kings go to empty
    columns, and a card covering face-down cards was face down itself), so the count alone says
    which cards these are. Every other face-up card of the tableau is *placed*: it lies on a card
    it stacks on, or it is a King at the bottom of a column.
    """
    n = S[O_LEN + c]
    fd = S[O_FD + c]
    if n > fd and (fd > 0 or RANK[S[O_COLS + c * CAP]] != 12):
        return fd + 1
    return fd


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def state_key(S: np.ndarray, H: np.ndarray) -> np.uint64:
    """The transposition-table key: symmetric in the columns; never 0.

    With bit 32 of ``S[O_DOM]`` the tableau part is :func:`abstract_key`, else the exact
    columns.
    """
    tot = U0
    if (S[O_DOM] & 32) != 0:
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


@njit(cache=True, nogil=True)
def table_key(S: np.ndarray, H: np.ndarray, tag: int) -> tuple[np.uint64, np.uint64]:
    """The two words the transposition table stores for the position (``tag``: see TAG_*).

    With twin classes (bit 32 of ``S[O_DOM]``) they are the class itself, exactly: the
    :func:`structure_count` of each column (6 bits each; a column's structure cards never
    change during a search, so the count names them), the foundation heights, the talon as a
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
    ptr = S[O_TP] if S[O_ALW] & ALW_POINTER == 0 else key_pointer(S) if S[O_DRAW] != 1 else 0
    if (S[O_DOM] & 32) != 0:
        a = U0
        for c in range(NCOL):
            a |= np.uint64(structure_count(S, c)) << np.uint64(6 * c)
        for suit in range(4):
            a |= np.uint64(S[O_FND + suit]) << np.uint64(42 + 4 * suit)
        a |= np.uint64(tag & 63) << np.uint64(58)
        b = H[NCOL] | (np.uint64(ptr) << np.uint64(52)) | (np.uint64(tag >> 6) << np.uint64(58))
        return a, b | TOP
    a = mix64(state_key(S, H) ^ ZTAG[tag])
    tot = U0
    for c in range(NCOL):
        h = ZFD2[S[O_FD + c]]
        for k in range(S[O_LEN + c]):
            h += ZPOS2[S[O_COLS + c * CAP + k] * CAP + k]
        tot += mix64(h)
    b = mix64(tot + mix64(H[NCOL] ^ ZPTR2[ptr]) + ZTAG2[tag])
    return a, b | TOP


@njit(cache=True, nogil=True)
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
    >>> S = np.zeros(S_SIZE, dtype=np.int32)
    >>> S[O_FND : O_FND + 4] = [8, 12, 12, 12]  # C8 DQ HQ SQ, the King of spades next
    >>> S[O_F2T] = 1; bool(is_safe(S, 51))
    False
    >>> S[O_F2T] = 0; bool(is_safe(S, 51))
    True
    """
    r = RANK[card]
    if r <= 1:
        return True
    s = SUIT[card]
    if RED[card] == 1:
        o1 = 0
        o2 = 3
    else:
        o1 = 1
        o2 = 2
    lo = min(S[O_FND + o1], S[O_FND + o2])
    if lo >= r - 1 and S[O_FND + 3 - s] >= r - 2:
        return True
    return S[O_F2T] == 0 and lo >= r


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _push(S: np.ndarray, H: np.ndarray, col: int, card: int) -> None:
    n = S[O_LEN + col]
    S[O_COLS + col * CAP + n] = card
    H[col] += ZPOS[card * CAP + n]
    S[O_LEN + col] = n + 1


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _talon_remove(S: np.ndarray, H: np.ndarray, i: int) -> int:
    tn = S[O_TN]
    card = S[O_TAL + i]
    for j in range(i, tn - 1):
        S[O_TAL + j] = S[O_TAL + j + 1]
    S[O_TN] = tn - 1
    S[O_TP] = i
    H[NCOL] ^= ZTAL[card]
    return card


@njit(cache=True, nogil=True)
def _talon_insert(S: np.ndarray, H: np.ndarray, i: int, card: int, tp: int) -> None:
    tn = S[O_TN]
    for j in range(tn, i, -1):
        S[O_TAL + j] = S[O_TAL + j - 1]
    S[O_TAL + i] = card
    S[O_TN] = tn + 1
    S[O_TP] = tp
    H[NCOL] ^= ZTAL[card]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def do_move(S: np.ndarray, H: np.ndarray, m: int) -> int:
    """Apply move code ``m``; return the undo word (flip flag | old talon pointer << 1)."""
    kind = m & 7
    card = (m >> 3) & 63
    src = (m >> 9) & 63
    dst = (m >> 15) & 7
    count = (m >> 18) & 31
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


@njit(cache=True, nogil=True)
def undo_move(S: np.ndarray, H: np.ndarray, m: int, u: int) -> None:
    """Take back move code ``m`` given the undo word ``u`` that :func:`do_move` returned."""
    kind = m & 7
    card = (m >> 3) & 63
    src = (m >> 9) & 63
    dst = (m >> 15) & 7
    count = (m >> 18) & 31
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


@njit(cache=True, nogil=True)
def apply_autos(S: np.ndarray, H: np.ndarray, AUM: np.ndarray, AUU: np.ndarray, aun: int) -> int:
    """Play safe foundation moves until none is left; record them; return the new count.

    From the columns always; from the talon in draw 1, where every talon card is reachable from
    any pointer so removing one changes nothing else. In draw 3 removing a talon card shifts
    which cards the taps reach, except for the last one while the pointer reaches what pointer 0
    reaches (:func:`key_pointer`): no other card moves, every card stays reachable and the pointer
    ends at the end of the talon (the same class), so with bit 64 of ``S[O_DOM]`` that card goes
    up when safe (lonelybot's deck rule).
    """
    one = np.int64(1)
    if (S[O_ALW] & ALW_AUTOS) == 0:
        return aun
    while True:
        safe = np.int64(0)  # bit c: card c is next on its foundation and safe there
        for suit in range(4):
            h = S[O_FND + suit]
            if h < 13 and is_safe(S, suit * 13 + h):
                safe |= one << (suit * 13 + h)
        if safe == 0:
            break
        m = -1
        for c in range(NCOL):
            n = S[O_LEN + c]
            if n > 0:
                card = S[O_COLS + c * CAP + n - 1]
                if (safe >> card) & 1:
                    m = encode(K_COL_FND, card, c, 0, 1, 0)
                    break
        tn = S[O_TN]
        if m < 0 and S[O_DRAW] == 1:
            for i in range(tn):
                card = S[O_TAL + i]
                if (safe >> card) & 1:
                    m = encode(K_TAL_FND, card, i, 0, 1, 0)
                    break
        elif (
            m < 0
            and (S[O_DOM] & 64) != 0
            and tn > 0
            and key_pointer(S) == 0
            and (safe >> S[O_TAL + tn - 1]) & 1
        ):
            m = encode(K_TAL_FND, S[O_TAL + tn - 1], tn - 1, 0, 1, 0)
        if m < 0 or aun >= AUM.shape[0]:
            break
        AUU[aun] = do_move(S, H, m)
        AUM[aun] = m
        aun += 1
    return aun


@njit(cache=True, nogil=True)
def needs_autos(S: np.ndarray, m: int) -> bool:
    """False if move ``m`` cannot have made a card safe and playable (its parent had none).

    A card coming down from a foundation only lowers a foundation, and :func:`is_safe` only
    asks for foundations to be high enough, so no card becomes safe; no card becomes playable
    either, and the card itself is not safe (else it is not generated, see
    :func:`would_go_back_up`; with ``ALW_BACK_UP`` off it may be, and then the next move can
    send it up). In draw 1 a talon card going onto a column was playable and not safe in the
    talon already, and covers a card. Every other move may uncover or raise something.
    """
    kind = m & 7
    return not (kind == K_FND_COL or (kind == K_TAL_COL and S[O_DRAW] == 1))


@njit(cache=True, nogil=True)
def reachable_talon(S: np.ndarray, mark: np.ndarray) -> None:
    """Set ``mark[i] = 1`` for every talon index that taps and recycles can bring to the top."""
    tn = S[O_TN]
    tp = S[O_TP]
    k = S[O_DRAW]
    for i in range(tn + 1):
        mark[i] = 0  # nobody reads past the talon's end
    if tn == 0:
        return
    if tp > 0:
        mark[tp - 1] = 1
    p = tp
    while p < tn:
        p = min(p + k, tn)
        mark[p - 1] = 1
    p = 0
    while p < tn:
        p = min(p + k, tn)
        mark[p - 1] = 1


@njit(cache=True, nogil=True)
def _add(out: np.ndarray, n: int, m: int) -> int:
    if n < out.shape[0]:
        out[n] = m
        return n + 1
    return n + 1  # caller sees n > capacity: overflow


@njit(cache=True, nogil=True)
def _onto_columns(
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
                    n = _add(out, n, code | (t << 15))
        return n
    for w in range(2):
        t = mark[SCR_TOP + (TG1[card] if w == 0 else TG2[card])] - 1
        if t >= 0 and t != skip:
            n = _add(out, n, code | (t << 15))
    return n


@njit(cache=True, nogil=True)
def _mark_tops(S: np.ndarray, mark: np.ndarray) -> int:
    """Set ``mark[SCR_TOP + top] = column + 1`` for every column top; return the first empty
    column (-1: none)."""
    first_empty = -1
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln == 0:
            if first_empty < 0:
                first_empty = t
        else:
            mark[SCR_TOP + S[O_COLS + t * CAP + ln - 1]] = t + 1
    return first_empty


@njit(cache=True, nogil=True)
def _unmark_tops(S: np.ndarray, mark: np.ndarray) -> None:
    for t in range(NCOL):
        ln = S[O_LEN + t]
        if ln > 0:
            mark[SCR_TOP + S[O_COLS + t * CAP + ln - 1]] = 0


@njit(cache=True, nogil=True)
def _sort_moves(out: np.ndarray, n: int) -> None:
    """Highest priority first, stable (insertion sort on a handful of moves)."""
    m = min(n, out.shape[0])
    for i in range(1, m):
        v = out[i]
        j = i - 1
        while j >= 0 and (out[j] >> 24) < (v >> 24):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = v


@njit(cache=True, nogil=True)
def _landing(S: np.ndarray, mark: np.ndarray, card: int, first_empty: int) -> int:
    """One column ``card`` can go onto (a top it stacks on, or for a King the first empty
    column); -1 if none. In twin classes any such column gives the same class."""
    if RANK[card] == 12:
        return first_empty
    t = mark[SCR_TOP + TG1[card]] - 1
    if t < 0:
        t = mark[SCR_TOP + TG2[card]] - 1
    return t


@njit(cache=True, nogil=True)
def twin(card: int) -> int:
    """The other card of the same rank and colour."""
    return (3 - SUIT[card]) * 13 + RANK[card]


@njit(cache=True, nogil=True)
def _from_foundations(
    S: np.ndarray,
    out: np.ndarray,
    n: int,
    mark: np.ndarray,
    first_empty: int,
    prune: bool,
    one_target: bool,
) -> int:
    """Add the foundation-to-column moves (none if the rules forbid them); return the count.

    With ``prune`` a card that would at once go back up stays; with ``one_target`` (twin
    classes) each card gets one target column, else every column that takes it.
    """
    if S[O_F2T] == 0:
        return n
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 0:
            continue
        card = suit * 13 + h - 1
        if prune and (S[O_ALW] & ALW_BACK_UP) != 0 and would_go_back_up(S, card):
            continue
        if one_target:
            t = _landing(S, mark, card, first_empty)
            if t >= 0:
                n = _add(out, n, encode(K_FND_COL, card, suit, t, 1, 10))
        else:
            code = encode(K_FND_COL, card, suit, 0, 1, 10)
            kings = prune and (S[O_ALW] & ALW_KINGS) != 0
            n = _onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    return n


@njit(cache=True, nogil=True)
def gen_abstract(S: np.ndarray, out: np.ndarray, mark: np.ndarray) -> int:
    """The moves between twin classes (bit 32 of ``S[O_DOM]``), best first; return how many.

    Two cards of the same rank and colour are *twins*. Positions with the same
    :func:`abstract_key` differ only in which of two twins each placed card lies on (and in the
    order of the columns), and they are equally winnable:

    * a placed run lying on one twin while the other is a column top moves onto it and back
      (two legal moves), so such positions reach each other;
    * when both twins are covered, by placed runs headed by X and X', swapping the two runs
      changes nothing any move can see until X or X' leaves: neither can go onto its other
      parent (covered) nor, not being a King, to an empty column, so the first to leave goes
      to its foundation, after which the two positions differ by a swap of the first kind.

    So one move per class is enough, and only these change the class: a card to its foundation
    (a covered card whose twin is a column top goes up as :data:`K_SWAP_FND`: its run moves
    onto the twin first); a talon card or a foundation card onto a column (one target: every
    column top of the right rank and colour gives the same class); and a root's run onto a
    column (the *reveal*, which turns up the card under it or empties the column). Moving a
    placed run only moves it between twins or, for a King, between empty columns: the same
    class, never generated.
    """
    n = 0
    first_empty = _mark_tops(S, mark)
    # to the foundations, from the columns
    for suit in range(4):
        h = S[O_FND + suit]
        if h == 13:
            continue
        card = suit * 13 + h
        col = mark[SCR_TOP + card] - 1
        if col >= 0:
            ln = S[O_LEN + col]
            prio = 70 if ln - 1 == S[O_FD + col] and S[O_FD + col] > 0 else 60
            n = _add(out, n, encode(K_COL_FND, card, col, 0, 1, prio))
            continue
        t = mark[SCR_TOP + twin(card)] - 1
        if t < 0:
            continue
        for c in range(NCOL):
            ln = S[O_LEN + c]
            fd = S[O_FD + c]
            for k in range(fd, ln - 1):
                if S[O_COLS + c * CAP + k] == card:
                    prio = 70 if k == fd and fd > 0 else 60
                    n = _add(out, n, encode(K_SWAP_FND, card, c, t, ln - 1 - k, prio))
    # talon cards, fewest taps first: the waste top, on through the stock, then after a recycle
    # (in draw 1 every talon card is reachable)
    draw1 = S[O_DRAW] == 1
    if not draw1:
        reachable_talon(S, mark)
    tn = S[O_TN]
    start = S[O_TP] - 1 if S[O_TP] > 0 else 0
    for j in range(tn):
        i = start + j
        if i >= tn:
            i -= tn
        if not draw1 and mark[i] == 0:
            continue
        card = S[O_TAL + i]
        if S[O_FND + SUIT[card]] == RANK[card]:
            n = _add(out, n, encode(K_TAL_FND, card, i, 0, 1, 55))
        t = _landing(S, mark, card, first_empty)
        if t >= 0:
            n = _add(out, n, encode(K_TAL_COL, card, i, t, 1, 40))
    # reveals: a root and everything on it
    for s in range(NCOL):
        if structure_count(S, s) == S[O_FD + s]:
            continue  # no root
        fd = S[O_FD + s]
        root = S[O_COLS + s * CAP + fd]
        # a King on face-down cards goes to an empty column, any other root onto a column
        t = first_empty if RANK[root] == 12 else _landing(S, mark, root, -1)
        if t >= 0:
            prio = 50 + fd if fd > 0 else 35
            n = _add(out, n, encode(K_COL_COL, root, s, t, S[O_LEN + s] - fd, prio))
    n = _from_foundations(S, out, n, mark, first_empty, True, True)
    _unmark_tops(S, mark)
    _sort_moves(out, n)
    return n


@njit(cache=True, nogil=True)
def gen_moves(S: np.ndarray, out: np.ndarray, mark: np.ndarray, prune: bool) -> int:
    """Write the moves of the position into ``out`` (best first); return how many.

    Returns more than ``out.shape[0]`` if they did not fit (the caller treats that as an
    incomplete search). With ``prune`` false every legal move is generated (talon cards reachable
    by taps and recycles, each with its plays), which the differential tests compare with the
    engine; with ``prune`` true moves that only lead to an equivalent position are left out:
    a King that is alone in its column moving to an empty column, a King moving to any empty
    column but the first, and a card moving down from a foundation that would at once be moved
    back up automatically. The King prunes (switch ``ALW_KINGS``) only drop moves to a
    position that equals one kept up to the order of the columns, which the key ignores (a King
    alone moving to another empty column; a King, from anywhere, going to an empty column other
    than the first: empty columns are interchangeable), whatever the foundation rule. The
    foundation card prune is argued in :func:`would_go_back_up`. Talon moves are macro moves:
    every talon card taps and recycles can bring to the top (:func:`reachable_talon`) gets its
    plays, and the line expands the taps (``bridge.engine_moves``), so the talon moves are
    exactly the engine's, up to the taps in between, which change nothing else.
    With bit 1 of ``S[O_DOM]`` set, a run split off a longer run moves
    only when the card under it can then go to its foundation (the dominance Solvitaire and
    lonelybot use: exposing a face-up card for any other purpose can be had by moving the other
    run).
    """
    if prune and (S[O_DOM] & 32) != 0:
        return gen_abstract(S, out, mark)
    kings = prune and (S[O_ALW] & ALW_KINGS) != 0
    n = 0
    first_empty = _mark_tops(S, mark)
    # columns to foundations
    for c in range(NCOL):
        ln = S[O_LEN + c]
        if ln > 0:
            card = S[O_COLS + c * CAP + ln - 1]
            if S[O_FND + SUIT[card]] == RANK[card]:
                prio = 60
                if ln - 1 == S[O_FD + c] and S[O_FD + c] > 0:
                    prio = 70
                n = _add(out, n, encode(K_COL_FND, card, c, 0, 1, prio))
    # talon cards
    reachable_talon(S, mark)
    for i in range(S[O_TN]):
        if mark[i] == 0:
            continue
        card = S[O_TAL + i]
        if S[O_FND + SUIT[card]] == RANK[card]:
            n = _add(out, n, encode(K_TAL_FND, card, i, 0, 1, 55))
        code = encode(K_TAL_COL, card, i, 0, 1, 40)
        n = _onto_columns(out, n, S, mark, code, card, -1, first_empty if kings else -1)
    # column to column
    for s in range(NCOL):
        ln = S[O_LEN + s]
        fd = S[O_FD + s]
        k = ln - 1
        while k >= fd and ln > 0:
            card = S[O_COLS + s * CAP + k]
            count = ln - k
            if k == fd and fd > 0:
                prio = 50 + fd
            elif k == 0:
                prio = 35
            else:
                prio = 20
                under = S[O_COLS + s * CAP + k - 1]
                if (
                    prune
                    and (S[O_DOM] & 1) != 0
                    and stacks(card, under)
                    and S[O_FND + SUIT[under]] != RANK[under]
                ):
                    # a run split off a longer run moves only to let the card under it go up
                    k -= 1
                    continue
            empty = -1 if not kings else (first_empty if k > 0 else -2)
            code = encode(K_COL_COL, card, s, 0, count, prio)
            n = _onto_columns(out, n, S, mark, code, card, s, empty)
            if k > fd and not stacks(card, S[O_COLS + s * CAP + k - 1]):
                break
            k -= 1
    n = _from_foundations(S, out, n, mark, first_empty, prune, False)
    _unmark_tops(S, mark)
    _sort_moves(out, n)
    return n


@njit(cache=True, nogil=True)
def lands_on_class(S: np.ndarray, v: int, card: int) -> bool:
    """True if move ``v`` puts a card on ``card`` or its twin, or sends that twin up through a
    swap onto ``card`` (twin classes: the moves that need ``card`` where it now lies)."""
    kind = v & 7
    if kind in (K_SWAP_FND, K_COL_FND):
        return ((v >> 3) & 63) == twin(card)
    if kind == K_TAL_FND:
        return False
    dst = (v >> 15) & 7
    ln = S[O_LEN + dst]
    if ln == 0:
        return False
    top = S[O_COLS + dst * CAP + ln - 1]
    return top == card or top == twin(card)


@njit(cache=True, nogil=True)
def abstract_follow_ups(S: np.ndarray, moves: np.ndarray, n: int, card: int, more: int) -> int:
    """Twin classes: keep the moves that need ``card`` where it now lies, and those of kind
    ``more`` (-1: none); return the count (see :func:`follow_ups`)."""
    k = 0
    for i in range(n):
        v = moves[i]
        if (v & 7) == more or lands_on_class(S, v, card):
            moves[k] = v
            k += 1
    return k


@njit(cache=True, nogil=True)
def follow_ups(moves: np.ndarray, n: int, m: int) -> int:
    """Keep only the moves that may follow foundation-to-column move ``m``; return the count.

    Those are the moves onto the card that came down and further foundation-to-column moves.
    Any winning line can be rearranged so: a card that came down can wait in its foundation
    until just before the first move that involves it, its target or its foundation, unless
    another card comes down first. That move is either a move onto it or a foundation-to-column
    move, or else it can be rewritten away: moving the run under it (move the run first, then
    bring the card down onto it), moving the card alone on (bring it down there directly) or
    putting it back up (drop both moves). Each rewrite moves a card's coming down later or
    shortens the line, so rewriting ends.

    With twin classes the search uses :func:`abstract_follow_ups` instead: a class move that
    does not land on the card's rank and colour (nor sends its twin up by a swap onto it) was
    already possible before the card came down, and leaves a top of the rank it came down onto
    (there was a second one if that move took one), so the card can still come down after it.
    """
    dst = (m >> 15) & 7
    k = 0
    for i in range(n):
        v = moves[i]
        kind = v & 7
        onto = K_TAL_COL <= kind <= K_COL_COL and ((v >> 15) & 7) == dst
        if kind == K_FND_COL or onto:
            moves[k] = v
            k += 1
    return k


@njit(cache=True, nogil=True)
def talon_follow_ups(moves: np.ndarray, n: int, m: int) -> int:
    """Keep only the moves that may follow talon-to-column move ``m`` in draw 1; return the count.

    Those are the moves from or onto the column the card went to. Any winning line can be
    rearranged so: in draw 1 every talon card can be reached from any talon pointer, so a card
    played from the talon onto a column can wait in the talon until just before the first move
    that involves that column (the card lies on top of it, so nothing else there can move or be
    covered meanwhile). That move is a move onto the card (play the card just before it), a move
    of the card alone (play it from the talon straight to where it goes) or a move of a run that
    carries the card (move the run first, then play the card onto it). The moves in between stay
    legal and unpruned: the talon still reaches every other card; should the played card become
    safe, it goes up from the talon as it would have from the column. The card it would cover,
    left uncovered, may go up automatically meanwhile (:func:`is_safe` allows that while the
    played card is still out): that step rests on automatic moves keeping a win, not on the
    rearrangement, so the default prunings together are also checked against the unpruned search
    in the tests. Each rewrite moves a talon play later or shortens the line, so rewriting ends.
    Only used when the move triggered no automatic move (none can follow it in draw 1).
    With twin classes :func:`abstract_follow_ups` keeps the moves that land on the card's rank
    and colour or send its twin up through a swap onto it, by the argument of
    :func:`follow_ups` (sending the card itself up is the talon-to-foundation move).
    """
    col = (m >> 15) & 7
    k = 0
    for i in range(n):
        v = moves[i]
        kind = v & 7
        keep = False
        if kind == K_COL_FND:
            keep = ((v >> 9) & 63) == col
        elif kind == K_COL_COL:
            keep = ((v >> 9) & 63) == col or ((v >> 15) & 7) == col
        elif kind in (K_TAL_COL, K_FND_COL):
            keep = ((v >> 15) & 7) == col
        if keep:
            moves[k] = v
            k += 1
    return k


@njit(cache=True, nogil=True)
def king_fills(S: np.ndarray, moves: np.ndarray, n: int) -> int:
    """Keep only the moves that put a King into an empty column; return the count."""
    k = 0
    for i in range(n):
        v = moves[i]
        kind = v & 7
        if (
            K_TAL_COL <= kind <= K_FND_COL
            and RANK[(v >> 3) & 63] == 12
            and S[O_LEN + ((v >> 15) & 7)] == 0
        ):
            moves[k] = v
            k += 1
    return k


@njit(cache=True, nogil=True)
def drop_reverse(moves: np.ndarray, n: int, m: int) -> int:
    """Remove from ``moves[:n]`` the move that exactly undoes ``m``; return the new count.

    Only called when ``m`` turned no card up and triggered no automatic move, so its reverse
    leads straight back to the parent position, which is on the search path (switch:
    ``ALW_REVERSE``). Reaching a position that is being searched adds nothing: any winning
    line through it is found from its own node. This holds for foundation-to-column moves and
    their reverse (the card goes back up) as for column moves. Where the parent was searched
    under a restricted key (bit 8), its restricted moves are enough by the argument of
    :func:`talon_follow_ups`, so the unrestricted copy is not needed either.
    """
    kind = m & 7
    card = (m >> 3) & 63
    src = (m >> 9) & 63
    dst = (m >> 15) & 7
    count = (m >> 18) & 31
    if kind == K_COL_COL:
        rev = encode(K_COL_COL, card, dst, src, count, 0)
    elif kind == K_COL_FND:
        rev = encode(K_FND_COL, card, SUIT[card], src, 1, 0)
    elif kind == K_FND_COL:
        rev = encode(K_COL_FND, card, dst, 0, 1, 0)
    else:
        return n
    for i in range(n):
        if (moves[i] & 0xFFFFFF) == rev:
            for j in range(i, n - 1):
                moves[j] = moves[j + 1]
            return n - 1
    return n


@njit(cache=True, nogil=True)
def _buried(W: np.ndarray, card: int) -> bool:
    """True if ``card`` lies under the highest still-suspected card of its column."""
    c = W[SCR_LOCC + card]
    return c >= 0 and W[SCR_LOCI + card] < W[SCR_H + c]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def tt_slot(TT: np.ndarray, a: np.uint64, b: np.uint64) -> np.uint64:
    """The row holding key ``(a, b)`` in the open-addressing table ``TT`` (rows of two words;
    an empty row has ``b == 0``, which no key has), or the empty row it would take."""
    mask = np.uint64(TT.shape[0] - 1)
    i = mix64(a + mix64(b)) & mask
    while TT[i, 1] != U0 and (TT[i, 0] != a or TT[i, 1] != b):
        i = (i + U1) & mask
    return i


@njit(cache=True, nogil=True)
def tt_insert(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """Insert key ``(a, b)`` into the table; False if it was already there."""
    i = tt_slot(TT, a, b)
    if TT[i, 1] != U0:
        return False
    TT[i, 0] = a
    TT[i, 1] = b
    return True


@njit(cache=True, nogil=True)
def tt_contains(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """True if key ``(a, b)`` is in the table."""
    return bool(TT[tt_slot(TT, a, b), 1] != U0)


@njit(cache=True, nogil=True)
def tt_rehash(old: np.ndarray, new: np.ndarray) -> None:
    """Move every key of ``old`` into the (larger, empty) table ``new``."""
    for i in range(old.shape[0]):
        if old[i, 1] != U0:
            tt_insert(new, old[i, 0], old[i, 1])


@njit(cache=True, nogil=True)
def is_won(S: np.ndarray) -> bool:
    """All 52 cards on the foundations."""
    return S[O_FND] + S[O_FND + 1] + S[O_FND + 2] + S[O_FND + 3] == 52


@njit(cache=True, nogil=True)
def start_search(
    S: np.ndarray,
    H: np.ndarray,
    TT: np.ndarray,
    MV: np.ndarray,
    NM: np.ndarray,
    IX: np.ndarray,
    AUM: np.ndarray,
    AUU: np.ndarray,
    mark: np.ndarray,
    ctl: np.ndarray,
) -> int:
    """Set up the root: automatic moves, its key, its moves. Returns R_WON or R_BUDGET."""
    compute_hashes(S, H)
    aun = apply_autos(S, H, AUM, AUU, 0)
    ctl[C_AUN] = aun
    ctl[C_ROOTAUN] = aun
    ctl[C_DEPTH] = 0
    ctl[C_NODES] = 1
    ctl[C_OVERFLOW] = 0
    ctl[C_MAXDEPTH] = 0
    if is_won(S):
        return R_WON
    a, b = table_key(S, H, 0)
    tt_insert(TT, a, b)
    ctl[C_TTCOUNT] = 1
    n = gen_moves(S, MV[0], mark, True)
    if n > MV.shape[1]:
        ctl[C_OVERFLOW] = 1
        n = MV.shape[1]
    if (S[O_DOM] & 2) != 0 and is_dead(S, mark):
        n = 0
    NM[0] = n
    IX[0] = 0
    return R_BUDGET


@njit(cache=True, nogil=True)
def run_chunk(
    S: np.ndarray,
    H: np.ndarray,
    TT: np.ndarray,
    MV: np.ndarray,
    NM: np.ndarray,
    IX: np.ndarray,
    UD: np.ndarray,
    AUM: np.ndarray,
    AUU: np.ndarray,
    AUS: np.ndarray,
    mark: np.ndarray,
    ctl: np.ndarray,
    max_nodes: int,
) -> int:
    """Run the depth-first search for up to ``max_nodes`` new positions.

    Returns R_WON (the path on the stack wins), R_EXHAUSTED (every position reachable from the
    root was searched), R_BUDGET (call again to continue) or R_GROW (the table is half full:
    grow it with :func:`tt_rehash` and call again). All search state lives in the arrays, so a
    chunk can stop anywhere and the next one carries on.
    """
    depth = ctl[C_DEPTH]
    nodes = ctl[C_NODES]
    aun = ctl[C_AUN]
    ttcount = ctl[C_TTCOUNT]
    limit = nodes + max_nodes
    grow_at = TT.shape[0] // 2
    result = R_BUDGET
    while True:
        if IX[depth] >= NM[depth]:
            if depth == 0:
                result = R_EXHAUSTED
                break
            depth -= 1
            start = AUS[depth]
            while aun > start:
                aun -= 1
                undo_move(S, H, AUM[aun], AUU[aun])
            undo_move(S, H, MV[depth, IX[depth] - 1], UD[depth])
            continue
        if nodes >= limit:
            break
        if ttcount >= grow_at:
            result = R_GROW
            break
        m = MV[depth, IX[depth]]
        IX[depth] += 1
        UD[depth] = do_move(S, H, m)
        AUS[depth] = aun
        if needs_autos(S, m):
            aun = apply_autos(S, H, AUM, AUU, aun)
        if is_won(S):
            depth += 1
            result = R_WON
            break
        # after a card comes down from a foundation only a move onto it or another card
        # coming down may follow (see follow_ups): such a position is stored under its own
        # key, which also names the card that came down
        restricted = (S[O_DOM] & 4) != 0 and (m & 7) == K_FND_COL
        # the same after a talon card goes onto a column in draw 1 (see talon_follow_ups)
        t_restricted = (
            (S[O_DOM] & 8) != 0 and S[O_DRAW] == 1 and (m & 7) == K_TAL_COL and aun == AUS[depth]
        )
        # after a column is emptied (nothing turned up, nothing went up) only a King may follow
        k_restricted = (
            (S[O_DOM] & 16) != 0
            and (m & 7) == K_COL_COL
            and S[O_LEN + ((m >> 9) & 63)] == 0
            and aun == AUS[depth]
        )
        full = aun >= AUM.shape[0] or depth + 1 >= MV.shape[0]
        fresh = False
        if full:
            ctl[C_OVERFLOW] = 1
        else:
            a, b = table_key(S, H, 0)
            seen = False
            if restricted or t_restricted or k_restricted:
                # the unrestricted position, if searched, covers the restricted one
                seen = tt_contains(TT, a, b)
                if k_restricted:
                    tag = TAG_KING
                else:
                    tag = (TAG_FND if restricted else TAG_TALON) | ((m >> 3) & 63)
                a, b = table_key(S, H, tag)
            fresh = not seen and tt_insert(TT, a, b)
        if not fresh:
            while aun > AUS[depth]:
                aun -= 1
                undo_move(S, H, AUM[aun], AUU[aun])
            undo_move(S, H, m, UD[depth])
            continue
        ttcount += 1
        nodes += 1
        depth += 1
        if (
            (S[O_DOM] & 2) != 0
            and S[O_F2T] == 0
            and ((m & 7) <= K_TAL_FND or (m & 7) == K_SWAP_FND or aun > AUS[depth - 1])
            and is_dead(S, mark)
        ):
            # see is_dead: only a card going up can make a position dead (and only when cards
            # may not come back down); otherwise dead ends are found at the root
            NM[depth] = 0
            IX[depth] = 0
            continue
        n = gen_moves(S, MV[depth], mark, True)
        if n > MV.shape[1]:
            ctl[C_OVERFLOW] = 1
            n = MV.shape[1]
        abstract = (S[O_DOM] & 32) != 0
        if restricted and abstract:
            n = abstract_follow_ups(S, MV[depth], n, (m >> 3) & 63, K_FND_COL)
        elif t_restricted and abstract:
            n = abstract_follow_ups(S, MV[depth], n, (m >> 3) & 63, -1)
        elif restricted:
            n = follow_ups(MV[depth], n, m)
        elif t_restricted:
            n = talon_follow_ups(MV[depth], n, m)
        elif k_restricted:
            n = king_fills(S, MV[depth], n)
        elif (UD[depth - 1] & 1) == 0 and aun == AUS[depth - 1] and (S[O_ALW] & ALW_REVERSE) != 0:
            n = drop_reverse(MV[depth], n, m)
        NM[depth] = n
        IX[depth] = 0
        if depth > ctl[C_MAXDEPTH]:
            ctl[C_MAXDEPTH] = depth
    ctl[C_DEPTH] = depth
    ctl[C_NODES] = nodes
    ctl[C_AUN] = aun
    ctl[C_TTCOUNT] = ttcount
    return result
