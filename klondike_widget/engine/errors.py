"""The engine's errors: all are ``ValueError`` subclasses with a specific meaning.

Two small helpers keep every error message honest and short: :func:`is_whole` (a ``bool`` or a
``float`` is never a count, an index or a version here) and :func:`quote` (an error message
shows at most a short, cut ``repr`` of what it refuses, never a whole 10 MB input).

>>> is_whole(3), is_whole(True), is_whole(3.0)
(True, False, False)
>>> quote("x" * 1000)
"'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
>>> quote([[[[[1]]]]])
'[[[[...]]]]'
"""

from __future__ import annotations

import numbers
import operator
import reprlib
from collections.abc import Iterable
from typing import TypeGuard

__all__ = [
    "IllegalMoveError",
    "InvalidGameError",
    "InvalidMoveError",
    "InvalidStateError",
    "as_whole",
    "is_whole",
    "positive_seconds",
    "quote",
    "quote_keys",
]

#: The longest quote of a refused value inside an error message, in characters.
QUOTE_LIMIT = 80

_repr = reprlib.Repr()
_repr.maxlevel = 3
_repr.maxstring = 40
_repr.maxother = 40
_repr.maxlong = 40
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 6


def is_whole(value: object) -> TypeGuard[int]:
    """True for an ``int`` that is not a ``bool`` (``True`` is not 1, ``3.0`` is not 3 here).

    >>> is_whole(0), is_whole(False), is_whole(1.0), is_whole("1")
    (True, False, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def as_whole(value: object) -> int | None:
    """``value`` as a plain ``int`` if it is a whole number given from Python, else None.

    An ``int`` or an integer scalar (numpy's ``np.int64(5)``, as ``np.arange`` gives) counts; a
    ``bool``, a ``float`` (even ``3.0``) or a text does not. For arguments of the Python API;
    what arrives as JSON (saved games, the front end's messages) is checked by :func:`is_whole`.

    >>> import numpy as np
    >>> as_whole(5), as_whole(np.int64(5)), type(as_whole(np.uint8(5))).__name__
    (5, 5, 'int')
    >>> as_whole(True), as_whole(np.True_), as_whole(5.0), as_whole(np.float64(5)), as_whole("5")
    (None, None, None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def positive_seconds(value: object, name: str) -> float:
    """``value`` as a positive number of seconds (``inf`` too), else a ``ValueError`` naming
    ``name``: a bool, ``nan``, zero, a negative number or a text is refused.

    >>> positive_seconds(2, "solve_seconds"), positive_seconds(float("inf"), "seconds")
    (2.0, inf)
    >>> positive_seconds(0, "solve_seconds")
    Traceback (most recent call last):
    ...
    ValueError: solve_seconds must be a positive number of seconds, not 0
    """
    seconds = (
        0.0 if isinstance(value, bool) or not isinstance(value, numbers.Real) else float(value)
    )
    if not seconds > 0:  # also nan
        raise ValueError(f"{name} must be a positive number of seconds, not {quote(value)}")
    return seconds


def quote(value: object) -> str:
    """A short ``repr`` of ``value`` for an error message (at most :data:`QUOTE_LIMIT` chars).

    Deep nesting, long texts, long lists and huge numbers are cut with ``...``.

    >>> quote({"draw": 1.0})
    "{'draw': 1.0}"
    >>> len(quote(list(range(10**6)))) <= QUOTE_LIMIT
    True
    """
    try:
        text = _repr.repr(value)
    except (ValueError, RecursionError, MemoryError):  # e.g. an int of 5000 digits
        text = f"<{type(value).__name__}>"
    except Exception:  # an object whose own __repr__ fails
        text = f"<{type(value).__name__}>"
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 3] + "..."
    return text


def quote_keys(keys: Iterable[object]) -> str:
    """The sorted quotes of some keys, cut like :func:`quote` (keys of mixed types sort too).

    >>> quote_keys({"b": 1, 2: 3, "a": 4})
    "['a', 'b', 2]"
    """
    text = "[" + ", ".join(sorted(map(quote, keys))) + "]"
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 4] + "...]"
    return text


class InvalidMoveError(ValueError):
    """Text that is not a move in our notation (``"t3-t6"``, ``"s"``, ...)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the given position.

    ``reason`` holds the explanation, also used as the message.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidStateError(ValueError):
    """A position that cannot occur: wrong or duplicate cards, a face-down card on top, ..."""


class InvalidGameError(ValueError):
    """A saved game that is malformed, tampered with or of an unknown format version."""
