# mypy: disable-error-code="no-any-return"
"""The order moves are tried in: each kind of move's priority in the two move orders.

A move code carries a priority of 7 bits (:func:`~.codes.encode`), and move generation sorts
the moves by it, highest first, keeping the order of generation among equals. A priority
changes which move is tried first, never which moves there are, so no verdict rests on these
numbers. The first order (``ORDER_DEFAULT``) is ours; the second (``ORDER_REVEALS``) is
lonelybot's, which twin-class searches (``gen_abstract``) use in their second move order:

=========================================================  ==============  ===================
move                                                       first order     second order
=========================================================  ==============  ===================
a root onto a column, ``fd`` face-down cards under it      ``50 + fd``     ``127 - index``
a root at the bottom of its column onto another column     35              ``127 - index``
a column top (or a covered card) that turns a card up      70              75
another column top (or covered card) to its foundation     60              75
a talon card onto a column                                 40              ``74 - index``
a talon card to its foundation                             55              20
a placed run onto a column (all moves, no twin classes)    20              (not generated)
a foundation card onto a column                            10              10
=========================================================  ==============  ===================

``index`` is the card's :data:`~.layout.LONELY_INDEX` (0-51): lonelybot tries the cards of one
kind lowest bit first, by rank and of one rank by suit. The second order's bands keep its order
of kinds: reveals (76-127), then cards going up (75), then talon cards onto columns (23-74),
then talon cards up, then foundation cards down. Moves without twin classes (every legal move,
``gen_moves`` unpruned, or a search with ``DOM_TWINS`` off) always take the first order.

>>> up_priority(False, True), up_priority(False, False), up_priority(True, False)
(70, 60, 75)
>>> reveal_priority(False, 0, 3), reveal_priority(False, 0, 0), reveal_priority(True, 0, 3)
(53, 35, 125)
>>> talon_up_priority(False), talon_up_priority(True), talon_onto_column_priority(True, 51)
(55, 20, 23)
"""

from __future__ import annotations

from .layout import LONELY_INDEX, core_jit_inline, ix

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
#: A foundation's top card down onto a column, in both orders: last.
FROM_FOUNDATION = 10


@core_jit_inline
def up_priority(reveals_first: bool, turns_card: bool) -> int:
    """A card going up from a column (also :data:`~.codes.K_SWAP_FND`); ``turns_card``: it is
    its column's last face-up card, on face-down cards."""
    if reveals_first:
        return 75
    return 70 if turns_card else 60


@core_jit_inline
def reveal_priority(reveals_first: bool, root: int, face_down: int) -> int:
    """Card ``root``, the lowest face-up card of its column with ``face_down`` face-down cards
    under it (0: the bottom card, which empties the column), moving onto another column."""
    if reveals_first:
        return 127 - LONELY_INDEX[ix(root)]
    return 50 + face_down if face_down > 0 else 35


@core_jit_inline
def talon_up_priority(reveals_first: bool) -> int:
    """A talon card going to its foundation."""
    return 20 if reveals_first else 55


@core_jit_inline
def talon_onto_column_priority(reveals_first: bool, card: int) -> int:
    """Talon card ``card`` onto a column."""
    if reveals_first:
        return 74 - LONELY_INDEX[ix(card)]
    return 40
