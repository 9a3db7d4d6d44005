# mypy: disable-error-code="no-any-return"
"""The order moves are tried in: each kind of move's priority in the four move orders.

A move code carries a priority of 7 bits (:func:`~.codes.encode`), and move generation sorts
the moves by it, highest first, keeping the order of generation among equals. A priority
changes which move is tried first, never which moves there are, so no verdict rests on these
numbers. The orders (``S[O_ORDER]``) are ours (``ORDER_DEFAULT``), lonelybot's
(``ORDER_REVEALS``), talon first (``ORDER_TALON``) and talon last (``ORDER_TALON_LAST``); a
solve searches the first, and later the others beside it on one table (``turns.take_turns``):

======================================================  =========  ===============  ======  ======
move                                                    default    reveals          talon   last
======================================================  =========  ===============  ======  ======
a root onto a column, ``fd`` face-down cards under it   ``50+fd``  ``127 - index``  50+fd   50+fd
a root at the bottom of its column onto another column  35         ``127 - index``  35      35
a column top (or a covered card) that turns a card up   70         75               70      70
another column top (or covered card) to its foundation  60         75               60      60
a talon card onto a column                              40         ``74 - index``   90      12
a talon card to its foundation                          55         20               85      15
a placed run onto a column (no twin classes)            20         (none)           (none)  (none)
a foundation card onto a column                         10         10               10      10
======================================================  =========  ===============  ======  ======

``index`` is the card's :data:`~.layout.LONELY_INDEX` (0-51): lonelybot tries the cards of one
kind lowest bit first, by rank and of one rank by suit. Its order's bands keep its order of
kinds: reveals (76-127), then cards going up (75), then talon cards onto columns (23-74),
then talon cards up, then foundation cards down. The talon orders are the default one with the
talon's plays first, or last but for foundation cards (fewest taps first, as generated). Moves
without twin classes (every legal move, ``gen_moves`` unpruned, or a search with ``DOM_TWINS``
off) always take the default order.

Each order wins won deals the others search long (``drive.LATER_ORDERS``). Lonelybot's (the
only later order until December 2026) wins fresh draw-3 deal 1007087304433024738 in 53
positions, where the talon-first order alone needs millions. Alone, at most 4 M positions each, on
the 73 won draw-3 deals that cost the solve most (over 400,000 positions; fresh seeds 31-60,
numbered 1-5000): the talon-first order won 25 in under 100,000 positions, lonelybot's 4, the
default none (55.5, 113.2 and 82.4 M positions in all). The solve with the talon-first order as
a third, beside the first two and in the draw-1 relaxation, 30 s a deal, M positions (no
verdict changed, none undecided):

==========================  =====  ================  ================  ================
deals                       draw   all               won               lost
==========================  =====  ================  ================  ================
fresh, seeds 31-60 (6000)   3      332.42 -> 305.25  90.37 -> 65.36    242.04 -> 239.89
numbered 1-5000             3      232.23 -> 217.65  87.12 -> 73.65    145.10 -> 143.99
fresh, seeds 31-60 (6000)   1      164.68 -> 155.24  26.54 -> 20.05    138.14 -> 135.19
numbered 1-5000             1      98.42 -> 90.45    26.16 -> 18.99    72.26 -> 71.46
==========================  =====  ================  ================  ================

The talon-last order (December 7, 2026), alone on the 55 won draw-3 deals of over 400,000
positions (the same sets, at most 4 M positions each), wins few deals early (2 under 100,000)
but some the other three search longest: numbered 1521 in 560,714 positions (the others 3.8 M
or more), 4296 in 4,824 (the others 286,635 or more). The best of the first three orders costs
34.09 M positions over the 55, of all four 29.71 M. As a fourth order, 30 s a deal, M
positions (no verdict changed, none undecided; seeds 91-120 were not used in choosing it):

==========================  =====  ================  ================
deals                       draw   all               won
==========================  =====  ================  ================
fresh, seeds 31-60 (6000)   3      305.25 -> 304.67  65.36 -> 64.77
fresh, seeds 91-120 (6000)  3      280.36 -> 274.70  89.36 -> 83.63
numbered 1-5000             3      217.65 -> 206.40  73.65 -> 62.62
fresh, seeds 31-60 (6000)   1      155.24 -> 154.58  20.05 -> 19.16
numbered 1-5000             1      90.45 -> 90.64    18.99 -> 19.09
==========================  =====  ================  ================

Lost deals changed by under 0.2%. Reveals with the fewest face-down cards first (the default
order otherwise) was tried as well: alone it searched much as the default does (60.77 M
against 60.09 M over the 55) and added nothing to the best of the others.

In draw 3 the talon-first order in place of lonelybot's: fresh won 95.00 M, 22.68 M of it deal
1007087304433024738; the talon-first order first and lonelybot's second: fresh won 111.52 M (it is
the worse first order on the deals decided early).

>>> from klondike_widget.solver.core.layout import ORDER_DEFAULT as D, ORDER_REVEALS as R
>>> from klondike_widget.solver.core.layout import ORDER_TALON as T, ORDER_TALON_LAST as L
>>> up_priority(D, True), up_priority(D, False), up_priority(R, False), up_priority(T, True)
(70, 60, 75, 70)
>>> reveal_priority(D, 0, 3), reveal_priority(T, 0, 0), reveal_priority(R, 0, 3)
(53, 35, 125)
>>> [talon_up_priority(order) for order in (D, R, T, L)]
[55, 20, 85, 15]
>>> [talon_onto_column_priority(order, 51) for order in (D, R, T, L)]
[40, 23, 90, 12]
"""

from __future__ import annotations

from .layout import (
    LONELY_INDEX,
    ORDER_REVEALS,
    ORDER_TALON,
    ORDER_TALON_LAST,
    core_jit_inline,
    ix,
)

__all__ = [
    "FROM_FOUNDATION",
    "PLACED_RUN",
    "reveal_priority",
    "talon_onto_column_priority",
    "talon_up_priority",
    "up_priority",
]

#: A placed run (one that does not turn a card up or empty its column) onto another column.
PLACED_RUN = 20
#: A foundation's top card down onto a column, in every order: last.
FROM_FOUNDATION = 10


@core_jit_inline
def up_priority(order: int, turns_card: bool) -> int:
    """A card going up from a column (also :data:`~.codes.K_SWAP_FND`); ``turns_card``: it is
    its column's last face-up card, on face-down cards."""
    if order == ORDER_REVEALS:
        return 75
    return 70 if turns_card else 60


@core_jit_inline
def reveal_priority(order: int, root: int, face_down: int) -> int:
    """Card ``root``, the lowest face-up card of its column with ``face_down`` face-down cards
    under it (0: the bottom card, which empties the column), moving onto another column."""
    if order == ORDER_REVEALS:
        return 127 - LONELY_INDEX[ix(root)]
    return 50 + face_down if face_down > 0 else 35


@core_jit_inline
def talon_up_priority(order: int) -> int:
    """A talon card going to its foundation."""
    if order == ORDER_TALON:
        return 85
    if order == ORDER_TALON_LAST:
        return 15
    return 20 if order == ORDER_REVEALS else 55


@core_jit_inline
def talon_onto_column_priority(order: int, card: int) -> int:
    """Talon card ``card`` onto a column."""
    if order == ORDER_TALON:
        return 90
    if order == ORDER_TALON_LAST:
        return 12
    if order == ORDER_REVEALS:
        return 74 - LONELY_INDEX[ix(card)]
    return 40
