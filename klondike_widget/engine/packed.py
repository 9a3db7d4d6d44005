"""A compact numpy encoding of a position: one fixed-size ``int8`` array, and its inverse.

Layout (``ENCODED_SIZE`` = 80 entries):

========  =====================================================================
index     meaning
========  =====================================================================
0         draw (1 or 3)
1         1 if foundation-to-column moves are allowed, else 0
2..5      foundation heights (clubs, diamonds, hearts, spades)
6..12     face-down count of each column
13..19    length of each column
20        stock length
21        waste length
22..73    the cards of columns 1..7 (bottom to top), then the stock, then the waste
          (bottom to top); unused slots (cards on the foundations) hold -1
74..79    reserved, -1
========  =====================================================================

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> a = encode(deal(9))
>>> a.shape, a.dtype.name, int(a[0]), int(a[20])
((80,), 'int8', 1, 24)
>>> decode(a) == deal(9)
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from klondike_widget.engine.errors import InvalidStateError
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import NUM_COLUMNS, GameState

__all__ = ["ENCODED_SIZE", "decode", "encode"]

ENCODED_SIZE = 80
_CARDS_AT = 22


def encode(state: GameState) -> npt.NDArray[np.int8]:
    """The ``int8`` array of ``state`` (layout in the module docstring)."""
    out = np.full(ENCODED_SIZE, -1, dtype=np.int8)
    out[0] = state.rules.draw
    out[1] = int(state.rules.foundation_to_tableau)
    out[2:6] = state.foundations
    out[6:13] = state.face_down
    out[13:20] = [len(c) for c in state.columns]
    out[20] = len(state.stock)
    out[21] = len(state.waste)
    cards = [c for col in state.columns for c in col] + list(state.stock) + list(state.waste)
    out[_CARDS_AT : _CARDS_AT + len(cards)] = cards
    return out


def decode(array: npt.ArrayLike) -> GameState:
    """The position encoded in ``array``; raises :class:`InvalidStateError` if it is not valid."""
    a = np.asarray(array)
    if a.shape != (ENCODED_SIZE,) or not np.issubdtype(a.dtype, np.integer):
        raise InvalidStateError(f"an encoded position is {ENCODED_SIZE} integers, got {a.shape}")
    v = [int(x) for x in a]
    lengths = v[13:20]
    if min(lengths + v[20:22]) < 0 or sum(lengths) + v[20] + v[21] > 52:
        raise InvalidStateError("encoded position: impossible pile lengths")
    try:
        rules = Rules(draw=v[0], foundation_to_tableau=bool(v[1]))
    except ValueError as exc:
        raise InvalidStateError(f"encoded position: {exc}") from None
    pos = _CARDS_AT
    columns = []
    for n in lengths:
        columns.append(v[pos : pos + n])
        pos += n
    stock = v[pos : pos + v[20]]
    pos += v[20]
    waste = v[pos : pos + v[21]]
    return GameState(columns, v[6 : 6 + NUM_COLUMNS], stock, waste, v[2:6], rules)
