# mypy: disable-error-code="no-any-return"
"""Move codes: the search's edges packed into one int32, and the helpers that read them.

A move code packs ``kind | card << 3 | src << 9 | dst << 15 | count << 18`` and a priority in
bits 24..30 used only for ordering (:data:`MOVE_MASK` leaves it out). Talon moves are macro
moves: "tap and recycle until ``T[src]`` is the waste top, then play it"; ``src`` is the talon
index and ``card`` the card. A foundation-to-column move has the suit as ``src``.

>>> m = encode(K_COL_COL, 12, 3, 5, 2, 40)
>>> int(move_kind(m)), int(move_card(m)), int(move_src(m)), int(move_dst(m)), int(move_count(m))
(3, 12, 3, 5, 2)
>>> int(move_prio(m)), int(with_dst(encode(K_COL_COL, 12, 3, 0, 2, 40), 5)) == m
(40, True)
"""

from __future__ import annotations

from .layout import core_jit_inline

__all__ = [
    "K_COL_COL",
    "K_COL_FND",
    "K_FND_COL",
    "K_SWAP_FND",
    "K_TAL_COL",
    "K_TAL_FND",
    "MOVE_MASK",
    "SHIFT_DST",
    "encode",
    "move_card",
    "move_count",
    "move_dst",
    "move_kind",
    "move_prio",
    "move_src",
    "with_dst",
]

# -- move kinds -----------------------------------------------------------------------------------
K_COL_FND = 0
K_TAL_FND = 1
K_TAL_COL = 2
K_COL_COL = 3
K_FND_COL = 4
K_SWAP_FND = 5  # move the run on a card onto the card's twin, then the card to its foundation

#: The bits of a code that name the move (all but the priority).
MOVE_MASK = 0xFFFFFF
SHIFT_DST = 15


@core_jit_inline
def encode(kind: int, card: int, src: int, dst: int, count: int, prio: int) -> int:
    """Pack a move code (see the module docstring)."""
    return kind | (card << 3) | (src << 9) | (dst << SHIFT_DST) | (count << 18) | (prio << 24)


@core_jit_inline
def move_kind(m: int) -> int:
    """The kind of move ``m`` (``K_*``)."""
    return m & 7


@core_jit_inline
def move_card(m: int) -> int:
    """The card move ``m`` moves (for a run, its bottom card)."""
    return (m >> 3) & 63


@core_jit_inline
def move_src(m: int) -> int:
    """Where move ``m`` takes from: a column, a talon index or (foundation moves) a suit."""
    return (m >> 9) & 63


@core_jit_inline
def move_dst(m: int) -> int:
    """The column move ``m`` goes onto (0 for moves to a foundation)."""
    return (m >> SHIFT_DST) & 7


@core_jit_inline
def move_count(m: int) -> int:
    """How many cards move ``m`` moves."""
    return (m >> 18) & 31


@core_jit_inline
def move_prio(m: int) -> int:
    """The ordering priority of move ``m`` (higher first)."""
    return m >> 24


@core_jit_inline
def with_dst(code: int, dst: int) -> int:
    """Move code ``code`` (built with target 0) with target column ``dst``."""
    return code | (dst << SHIFT_DST)
