# mypy: disable-error-code="no-any-return"
"""The core's arrays: where everything lives in ``S``, ``H``, the scratch and control arrays.

``S`` (int32) holds the columns, column lengths, face-down counts, foundation heights and the
*talon*: the waste followed by the stock in the order taps turn it, ``T = waste + reversed(stock)``,
with a pointer ``tp = len(waste)``. A tap moves the pointer ``draw`` cards on (capped at the end),
a recycle sets it back to 0 and playing the waste top removes ``T[tp - 1]``. So the talon is always
a subsequence of the starting one and no card ever joins it: its contents are a set.

``S[O_DOM]`` holds the switches of the prunings that rest on an argument (``DOM_*``), and
``S[O_ALW]`` those of the always-on rules (``ALW_*``, off only in tests). Also here: the card
tables (rank, suit, colour, the two cards a card stacks on) and the two card predicates every
other module uses.

>>> int(RANK[12]), int(SUIT[13]), int(RED[13]), bool(stacks(11, 25)), int(twin(0))
(12, 1, 1, True, 39)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit

__all__ = [
    "JIT_OPTIONS",
    "core_jit",
    "core_jit_inline",
    "ix",
    "low_bit",
    "ALW_ALL",
    "ALW_AUTOS",
    "ALW_BACK_UP",
    "ALW_KINGS",
    "ALW_ONE_WORD",
    "ALW_POINTER",
    "ALW_REVERSE",
    "CAP",
    "C_AUN",
    "C_DEPTH",
    "C_MAXDEPTH",
    "C_NODES",
    "C_OVERFLOW",
    "C_ROOTAUN",
    "C_GROWAT",
    "C_SHARED",
    "C_SIZE",
    "C_TTCOUNT",
    "C_VISITS",
    "DOM_ALL",
    "DOM_BITS",
    "DOM_DEAD_ENDS",
    "DOM_FND_FOLLOW_UPS",
    "DOM_KING_FILLS",
    "DOM_LAST_TALON_UP",
    "DOM_PARTIAL_RUNS",
    "DOM_POINTERS",
    "DOM_TALON_FOLLOW_UPS",
    "DOM_TWINS",
    "COL_WEIGHT",
    "FND_WEIGHT",
    "H_CLASS",
    "H_LIVE",
    "H_ONE",
    "H_PACK",
    "H_TMASK",
    "O_TIDX",
    "H_SIZE",
    "LONELY_INDEX",
    "MAXA",
    "MAXD",
    "MAXM",
    "NCOL",
    "ORDER_DEFAULT",
    "ORDER_REVEALS",
    "ORDER_TALON",
    "ORDER_TALON_LAST",
    "O_ALW",
    "O_COLS",
    "O_DOM",
    "O_DRAW",
    "O_F2T",
    "O_FD",
    "O_FND",
    "O_LEN",
    "O_ORDER",
    "O_PHM",
    "O_TAL",
    "O_TN",
    "O_TP",
    "RANK",
    "RED",
    "R_BUDGET",
    "R_EXHAUSTED",
    "R_GROW",
    "R_WON",
    "SCR_H",
    "SCR_LOCC",
    "SCR_LOCI",
    "SCR_SIZE",
    "SCR_TOP",
    "SCR_Z",
    "SUIT",
    "S_SIZE",
    "TAL_CAP",
    "TG1",
    "TG2",
    "stacks",
    "twin",
]

_F = TypeVar("_F", bound=Callable[..., Any])
#: numba's options for every function of the core. ``_nrt=False`` compiles them without numba's
#: runtime: no function of the core allocates, and with the runtime on, every call that passes
#: an array (``S``, ``H``, ...) to a helper costs an atomic reference-count increment and
#: decrement that LLVM cannot remove (calls into the runtime). That was most of the core's time:
#: ``table_key`` took 150-200 ns a call, 8 ns without (measured December 2026, numba 0.68).
#: An allocation in a core function is then a compile error, never a silent slowdown.
JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}


def core_jit(fn: _F) -> _F:
    """Compile ``fn`` as every function of the core is (:data:`JIT_OPTIONS`)."""
    return njit(**JIT_OPTIONS)(fn)


def core_jit_inline(fn: _F) -> _F:
    """:func:`core_jit`, inlined into its callers by numba (``inline="always"``)."""
    return njit(inline="always", **JIT_OPTIONS)(fn)


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
O_DOM = O_F2T + 1  # the pruning switches (DOM_*)

# -- the pruning switches of S[O_DOM] (each rests on an argument, in the docstring named) ---------
DOM_PARTIAL_RUNS = 1  #: a run split off a longer run moves only to free a card (gen_moves)
DOM_DEAD_ENDS = 2  #: positions where some cards can never move are lost (is_dead)
DOM_FND_FOLLOW_UPS = 4  #: what may follow a foundation-to-column move (follow_ups)
DOM_TALON_FOLLOW_UPS = 8  #: what may follow a talon-to-column move in draw 1 (talon_follow_ups)
DOM_KING_FILLS = 16  #: only a King may follow emptying a column (king_fills)
DOM_TWINS = 32  #: twin classes (abstract_key, gen_abstract)
DOM_LAST_TALON_UP = 64  #: the last talon card goes up automatically in draw 3 (apply_autos)
DOM_POINTERS = 128  #: a draw-3 position is covered by itself under a stronger pointer (pointers)
#: The pruning switches on by default. DOM_FND_FOLLOW_UPS and DOM_KING_FILLS are sound one at a
#: time but not beside DOM_TALON_FOLLOW_UPS: each rests on rearranging a winning line (a card
#: coming down later, an emptied column filled at once, a talon card played later), and two
#: such rearrangements can undo each other, so the search may prune every order of a winning
#: line (a draw-1 position where 10♦ from the talon must go onto J♣ brought down, and 10♣ down
#: elsewhere, before 9♣ comes down onto 10♦: see ``tests/test_solver_classes.py``).
#: DOM_TALON_FOLLOW_UPS alone gives most of the gain, so it is the one kept.
DOM_BITS = 255  #: every pruning switch there is
DOM_ALL = DOM_BITS & ~(DOM_FND_FOLLOW_UPS | DOM_KING_FILLS)

#: Switches of the always-on rules, for tests only (``encode_state(..., always=...)``): each is
#: sound (the argument is in the docstring named) and on in every real search; a test turns one
#: off and checks that no verdict changes.
O_ALW = O_DOM + 1
ALW_AUTOS = 1  #: safe foundation moves played automatically (apply_autos, is_safe)
ALW_BACK_UP = 2  #: no foundation card brought down that would be safe at once (would_go_back_up)
ALW_KINGS = 4  #: no King alone moved to an empty column, only the first empty one (gen_moves)
ALW_REVERSE = 8  #: no move that undoes the last one (drop_reverse)
ALW_POINTER = 16  #: the key's pointer classes (key_pointer; draw 1 leaves the pointer out)
ALW_ONE_WORD = 32  #: one-word keys and table rows where they fit (one_word.row_words)
ALW_ALL = 63
#: The move order of twin-class searches (``gen_abstract``; each kind's priority in either:
#: ``priorities``): it changes which move is tried first, never which moves there are, so
#: every verdict stands whatever it is.
O_ORDER = O_ALW + 1
ORDER_DEFAULT = 0  #: foundation plays that turn a card, talon plays (fewest taps first), reveals
ORDER_REVEALS = 1  #: lonelybot's: reveals, foundation plays, talon cards (by LONELY_INDEX)
ORDER_TALON = 2  #: the default order with the talon's plays first (fewest taps first)
ORDER_TALON_LAST = 3  #: the default order with the talon's plays last (before foundation cards)
S_SIZE = O_ORDER + 1
#: ``H[H_CLASS]``: each column's structure count (6 bits at ``6 * c``) and each foundation's
#: height (4 bits at ``42 + 4 * suit``), the first word of a twin-class key (``keys.table_key``).
H_CLASS = NCOL + 1
#: ``H[H_PACK]``: the same counts and heights as one number in mixed radix (column ``c``'s
#: count times :data:`COL_WEIGHT` ``[c]``, a foundation's height times :data:`FND_WEIGHT`), the
#: class part of a one-word key (``one_word``); exact while column ``c``'s count is at most
#: ``c + 1``, as in every position dealt (``one_word.fits_one_word``).
H_PACK = NCOL + 2
#: ``H[H_TMASK]``: the talon as a set of the root talon's indices (bit ``i``: the card at ``i``
#: at the root, ``H[O_TIDX + card] == i``), kept only while ``H[H_ONE]`` is 1.
H_TMASK = NCOL + 3
#: ``H[H_ONE]``: 1 if the search stores one-word keys (``one_word.fill_one_word``), else 0.
H_ONE = NCOL + 4
H_LIVE = NCOL + 5  # the words of H that do and undo keep up to date (column sums, talon, class)
O_TIDX = H_LIVE  # per card: its index in the root's talon (one-word keys)
O_PHM = O_TIDX + 52  # per column and structure count: the column's part of abstract_key
H_SIZE = O_PHM + NCOL * (CAP + 1)  # the live words + those tables
#: Mixed-radix weights of ``H[H_PACK]``: column ``c`` counts in radix ``c + 2`` (0 to ``c + 1``),
#: then each foundation in radix 14; the largest value, ``40320 * 14**4 - 1``, needs 31 bits.
COL_WEIGHT = np.array([1, 2, 6, 24, 120, 720, 5040], dtype=np.uint64)
FND_WEIGHT = np.array([40320 * 14**s for s in range(4)], dtype=np.uint64)

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
C_TTCOUNT = 3  # the table's full rows (a key written over a twin it covers takes none)
C_OVERFLOW = 4
C_ROOTAUN = 5
C_MAXDEPTH = 6
C_GROWAT = 7  # table entries at which run_chunk returns R_GROW (set by the driver)
C_VISITS = 8  # children visited: every move taken, its position new to the table or not
C_SHARED = 9  # positions entered that the partner had entered (see search.enters_shared)
C_SIZE = 10

# -- results of run_chunk --------------------------------------------------------------------------
R_BUDGET = 0
R_WON = 1
R_EXHAUSTED = 2
R_GROW = 3

# -- card tables ----------------------------------------------------------------------------------
RANK = np.array([c % 13 for c in range(52)], dtype=np.int32)
SUIT = np.array([c // 13 for c in range(52)], dtype=np.int32)
RED = np.array([1 if c // 13 in (1, 2) else 0 for c in range(52)], dtype=np.int32)
#: Each card's bit in lonelybot's card masks: rank * 4 plus its suit's place in hearts, diamonds,
#: clubs, spades. ``ORDER_REVEALS`` tries reveals, and then talon cards onto columns, in this
#: order, as lonelybot does (lowest bit first): by rank, and of one rank by suit. Until December
#: 2026 it ranked them by rank alone, and of one rank took the first generated (the column
#: order; the talon card fewest taps away), as the first order does: the two orders broke every
#: tie alike, and a wrong tie near the root held both. Fresh draw-3 deal 1007087304433024738
#: (lonelybot: won in 116 states): the second order alone won in 18.29 M positions, the first
#: not in 20 M, the solve undecided at 10 s; by suit the second order wins in 53. Positions
#: (no verdict changed): fresh seeds 58-60 (the deal's, 600 a mode) draw 3 43.13 -> 28.84 M;
#: seeds 31-57 (5400 a mode) draw 3 301.79 -> 303.58 M (+0.6%), draw 1 149.86 -> 148.13 M;
#: numbered 1-5000 draw 3 231.94 -> 232.23 M, draw 1 99.53 -> 98.42 M. Elsewhere a gain here
#: and a loss there (numbered draw-3 1521: 4.68 -> 6.59 M; 4608: 1.18 -> 0.18 M), none undecided.
LONELY_INDEX = np.array([4 * (c % 13) + (2, 1, 0, 3)[c // 13] for c in range(52)], dtype=np.int32)
#: The two cards a card can be placed on (one rank higher, other colour); -1 for Kings.
TG1 = np.full(52, -1, dtype=np.int32)
TG2 = np.full(52, -1, dtype=np.int32)
for _c in range(51, -1, -1):
    if _c % 13 != 12:
        _other = [s for s in range(4) if (s in (1, 2)) != (_c // 13 in (1, 2))]
        TG1[_c] = _other[0] * 13 + _c % 13 + 1
        TG2[_c] = _other[1] * 13 + _c % 13 + 1
del _c, _other


@core_jit_inline
def ix(i: int) -> np.uint64:
    """``i`` (never negative) as an array index numba reads as is.

    numba turns every signed index into ``i + len`` when ``i < 0`` (three instructions an
    access, and a loop LLVM can no longer turn into vector moves); an unsigned index has no
    such test. Only for indices known not to be negative (no bounds are checked either way).
    """
    return np.uint64(i)


#: ``DEBRUIJN_BITS[(b * DEBRUIJN) >> 58] == i`` for ``b == 1 << i``: the index of a single bit
#: in a multiplication, a shift and a read (the ``tzcnt`` intrinsic would not run uncompiled).
DEBRUIJN = np.uint64(0x022FDD63CC95386D)
DEBRUIJN_BITS = np.zeros(64, dtype=np.int64)
for _i in range(64):
    DEBRUIJN_BITS[((1 << _i) * int(DEBRUIJN) % (1 << 64)) >> 58] = _i
del _i


@core_jit_inline
def low_bit(m: np.uint64) -> int:
    """The index of the lowest set bit of ``m`` (not 0).

    >>> int(low_bit(np.uint64(0b101000))), int(low_bit(np.uint64(1) << np.uint64(63)))
    (3, 63)
    """
    return DEBRUIJN_BITS[ix(((m & (np.uint64(0) - m)) * DEBRUIJN) >> np.uint64(58))]  # wraps


@core_jit
def stacks(card: int, onto: int) -> bool:
    """True if ``card`` may lie on ``onto`` in a column."""
    return RANK[onto] == RANK[card] + 1 and RED[card] != RED[onto]


@core_jit
def twin(card: int) -> int:
    """The other card of the same rank and colour."""
    return (3 - SUIT[card]) * 13 + RANK[card]
