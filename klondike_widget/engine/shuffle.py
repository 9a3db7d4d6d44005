"""Numbered deals: the seeded shuffle that gives every deal number its fixed starting position.

The deal algorithm (fixed forever; tests pin deals card by card)
---------------------------------------------------------------
1. The deck starts in card order 0..51 (``card = suit * 13 + rank``; suits clubs, diamonds,
   hearts, spades; ranks Ace..King).
2. A SplitMix64 generator is seeded with the deal number ``n`` (``0 <= n < 2**64``). Each call adds
   ``0x9E3779B97F4A7C15`` to the state (mod 2**64) and returns
   ``z ^ (z >> 31)`` where ``z = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9`` and then
   ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB`` (all mod 2**64), ``x`` being the new state.
3. Fisher-Yates: for ``i`` from 51 down to 1, draw ``r``, let ``j = (r * (i + 1)) >> 64`` and swap
   the cards at ``i`` and ``j``. The deck is now dealt from index 0.
4. Dealing goes row by row, as a person deals: the first card to each of the seven columns from
   left to right, then one to each of columns 2..7, and so on, so column ``k`` (1-based) gets
   ``k`` cards and only the last card dealt to each column is face up.
5. The 24 remaining cards form the stock; the next undealt card (deck index 28) is the stock's top,
   the first one a tap turns over.

Examples
--------
>>> from klondike_widget.engine.cards import card_name
>>> s = deal(1)
>>> [card_name(col[-1]) for col in s.columns]
['9s', 'Jh', '7h', '2h', 'Td', 'Ad', '9c']
>>> [len(col) for col in s.columns], len(s.stock)
([1, 2, 3, 4, 5, 6, 7], 24)
"""

from __future__ import annotations

import secrets

from klondike_widget.engine.cards import NUM_CARDS
from klondike_widget.engine.errors import as_whole, quote
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import NUM_COLUMNS, GameState

__all__ = ["MAX_DEAL_NUMBER", "check_deal_number", "deal", "random_deal_number", "shuffled_deck"]

MAX_DEAL_NUMBER = 2**64 - 1
_MASK = 2**64 - 1


def check_deal_number(number: object) -> int:
    """``number`` as a plain ``int`` deal number, or a ``ValueError`` saying why it is not one.

    >>> import numpy as np
    >>> check_deal_number(7), check_deal_number(np.int64(7))
    (7, 7)
    >>> check_deal_number(7.0)
    Traceback (most recent call last):
    ...
    ValueError: a deal number is a whole number, not 7.0
    """
    whole = as_whole(number)  # numpy's integers count (np.arange), True and 5.0 do not
    if whole is None:
        raise ValueError(f"a deal number is a whole number, not {quote(number)}")
    if not 0 <= whole <= MAX_DEAL_NUMBER:
        raise ValueError(f"a deal number is between 0 and {MAX_DEAL_NUMBER}, not {quote(number)}")
    return whole


def shuffled_deck(number: int) -> list[int]:
    """The deck of deal ``number`` in dealing order (steps 1-3 of the module docstring).

    >>> shuffled_deck(7)[:5]
    [34, 6, 15, 18, 41]
    """
    x = check_deal_number(number)
    deck = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        r = z ^ (z >> 31)
        j = (r * (i + 1)) >> 64
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(number: int, rules: Rules | None = None) -> GameState:
    """The starting position of deal ``number`` (the same on every platform and version).

    >>> deal(42, Rules(draw=3)).rules.draw
    3
    """
    deck = shuffled_deck(number)
    columns: list[list[int]] = [[] for _ in range(NUM_COLUMNS)]
    k = 0
    for row in range(NUM_COLUMNS):
        for col in range(row, NUM_COLUMNS):
            columns[col].append(deck[k])
            k += 1
    return GameState(
        columns=columns,
        face_down=list(range(NUM_COLUMNS)),
        stock=reversed(deck[k:]),
        rules=rules or Rules(),
    )


def random_deal_number() -> int:
    """A random deal number from 1 to 2**31 - 1 (short enough to read out and type back).

    >>> 1 <= random_deal_number() < 2**31
    True
    """
    return 1 + secrets.randbelow(2**31 - 1)
