"""One move: :class:`MoveKind`, the :class:`Move` value and its text notation.

Notation (columns are numbered 1..7 in text):

======================  ===========  ==========================================
move                    text         meaning
======================  ===========  ==========================================
DRAW                    ``s``        tap the stock: turn 1 or 3 cards onto the waste
RECYCLE                 ``r``        turn the waste over into an empty stock
WASTE_TO_COLUMN         ``w-t3``     waste top onto column 3
WASTE_TO_FOUNDATION     ``w-f``      waste top to its foundation
COLUMN_TO_FOUNDATION    ``t3-f``     top of column 3 to its foundation
COLUMN_TO_COLUMN        ``t3-t6``    top card of column 3 onto column 6
                        ``t3:4-t6``  the top 4 cards of column 3 onto column 6
FOUNDATION_TO_COLUMN    ``fh-t3``    top of the hearts foundation onto column 3
======================  ===========  ==========================================

Examples
--------
>>> m = Move.parse("t3:2-t6")
>>> m
Move.parse('t3:2-t6')
>>> m.kind.name, m.source, m.target, m.count
('COLUMN_TO_COLUMN', 2, 5, 2)
>>> Move.parse(str(m)) == m
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from klondike_widget.engine.cards import (
    RANKS,
    SUIT_LETTERS,
)
from klondike_widget.engine.errors import InvalidMoveError, as_whole, is_whole, quote
from klondike_widget.engine.rules import NUM_COLUMNS

__all__ = ["Move", "MoveKind", "parse_or_none"]


class MoveKind(IntEnum):
    """The seven kinds of action in Klondike."""

    DRAW = 0
    RECYCLE = 1
    WASTE_TO_COLUMN = 2
    WASTE_TO_FOUNDATION = 3
    COLUMN_TO_FOUNDATION = 4
    COLUMN_TO_COLUMN = 5
    FOUNDATION_TO_COLUMN = 6


_K = MoveKind
_SOURCE_IS_COLUMN = frozenset({_K.COLUMN_TO_FOUNDATION, _K.COLUMN_TO_COLUMN})
_TARGET_IS_COLUMN = frozenset({_K.WASTE_TO_COLUMN, _K.COLUMN_TO_COLUMN, _K.FOUNDATION_TO_COLUMN})


@dataclass(frozen=True, slots=True)
class Move:
    """One action. Build with the class methods or :meth:`parse`.

    Parameters
    ----------
    kind : MoveKind
    source : int
        The source column (0-based) for moves from a column, the suit (0..3) for
        ``FOUNDATION_TO_COLUMN``, otherwise 0.
    target : int
        The target column (0-based) for moves onto a column, otherwise 0.
    count : int
        Cards moved: more than 1 only for ``COLUMN_TO_COLUMN``.
    """

    kind: MoveKind
    source: int = 0
    target: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        kind = self.kind
        if not isinstance(kind, MoveKind):
            raise InvalidMoveError(f"not a move kind: {quote(kind)}")
        for name in ("source", "target", "count"):
            value = getattr(self, name)
            if not is_whole(value):  # 0.0 or True would index a column later and fail there
                whole = as_whole(value)  # an integer scalar (numpy's) counts, stored as an int
                if whole is None:
                    raise InvalidMoveError(
                        f"malformed {kind.name} move: {name} must be a whole number, "
                        f"not {quote(value)}"
                    )
                object.__setattr__(self, name, whole)
        src_ok = (
            0 <= self.source < NUM_COLUMNS
            if kind in _SOURCE_IS_COLUMN
            else (0 <= self.source < 4 if kind is _K.FOUNDATION_TO_COLUMN else self.source == 0)
        )
        tgt_ok = 0 <= self.target < NUM_COLUMNS if kind in _TARGET_IS_COLUMN else self.target == 0
        cnt_ok = 1 <= self.count <= RANKS if kind is _K.COLUMN_TO_COLUMN else self.count == 1
        if not (src_ok and tgt_ok and cnt_ok):
            raise InvalidMoveError(
                f"malformed {kind.name} move: source={self.source}, target={self.target}, "
                f"count={self.count}"
            )
        if kind is _K.COLUMN_TO_COLUMN and self.source == self.target:
            raise InvalidMoveError("a column cannot move onto itself")

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def draw(cls) -> Move:
        """Tap the stock."""
        return _DRAW

    @classmethod
    def recycle(cls) -> Move:
        """Turn the waste over into the empty stock."""
        return _RECYCLE

    @classmethod
    def waste_to_column(cls, column: int) -> Move:
        """Waste top onto ``column`` (0-based)."""
        return cls(_K.WASTE_TO_COLUMN, 0, column)

    @classmethod
    def waste_to_foundation(cls) -> Move:
        """Waste top to its foundation."""
        return _WASTE_TO_FOUNDATION

    @classmethod
    def column_to_foundation(cls, column: int) -> Move:
        """Top of ``column`` (0-based) to its foundation."""
        return cls(_K.COLUMN_TO_FOUNDATION, column)

    @classmethod
    def column_to_column(cls, source: int, target: int, count: int = 1) -> Move:
        """The top ``count`` cards of column ``source`` onto column ``target`` (0-based)."""
        return cls(_K.COLUMN_TO_COLUMN, source, target, count)

    @classmethod
    def foundation_to_column(cls, suit: int, column: int) -> Move:
        """Top of the foundation of ``suit`` (0..3) onto ``column`` (0-based)."""
        return cls(_K.FOUNDATION_TO_COLUMN, suit, column)

    # -- text ---------------------------------------------------------------------------------

    def __str__(self) -> str:
        kind = self.kind
        if kind is _K.DRAW:
            return "s"
        if kind is _K.RECYCLE:
            return "r"
        if kind is _K.WASTE_TO_COLUMN:
            return f"w-t{self.target + 1}"
        if kind is _K.WASTE_TO_FOUNDATION:
            return "w-f"
        if kind is _K.COLUMN_TO_FOUNDATION:
            return f"t{self.source + 1}-f"
        if kind is _K.COLUMN_TO_COLUMN:
            count = f":{self.count}" if self.count > 1 else ""
            return f"t{self.source + 1}{count}-t{self.target + 1}"
        return f"f{SUIT_LETTERS[self.source]}-t{self.target + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the notation above; raise :class:`InvalidMoveError` for anything else.

        >>> Move.parse("fH-T3") == Move.foundation_to_column(2, 2)
        True
        >>> Move.parse("t8-f")
        Traceback (most recent call last):
        ...
        klondike_widget.engine.errors.InvalidMoveError: not a move: 't8-f' (examples: s, r, w-t3, \
w-f, t3-f, t3-t6, t3:4-t6, fh-t3)
        """
        move = parse_or_none(text)
        if move is None:
            raise InvalidMoveError(
                f"not a move: {quote(text)} (examples: s, r, w-t3, w-f, t3-f, t3-t6, t3:4-t6, "
                "fh-t3)"
            )
        return move


_DRAW = Move(_K.DRAW)
_RECYCLE = Move(_K.RECYCLE)
_WASTE_TO_FOUNDATION = Move(_K.WASTE_TO_FOUNDATION)

_MAX_MOVE_TEXT = 64  # the longest move is "t3:13-t6"; anything far longer is not a move
_MOVE_RE = re.compile(
    r"^(?:(?P<draw>s)|(?P<recycle>r)"
    r"|w-(?:t(?P<wt>[1-7])|(?P<wf>f))"
    r"|t(?P<src>[1-7])(?::(?P<count>[1-9]|1[0-3]))?-(?:t(?P<tt>[1-7])|(?P<tf>f))"
    r"|f(?P<suit>[cdhs])-t(?P<ft>[1-7]))$"
)


def parse_or_none(text: object) -> Move | None:
    """The move ``text`` names, or None when it is not a move (never raises).

    >>> parse_or_none("t3-f"), parse_or_none("t9-f")
    (Move.parse('t3-f'), None)
    """
    if not isinstance(text, str) or len(text) > _MAX_MOVE_TEXT:
        return None
    m = _MOVE_RE.match(text.strip().lower())
    if m is None:
        return None
    g = m.groupdict()
    try:
        if g["draw"]:
            return _DRAW
        if g["recycle"]:
            return _RECYCLE
        if g["wt"]:
            return Move(_K.WASTE_TO_COLUMN, 0, int(g["wt"]) - 1)
        if g["wf"]:
            return _WASTE_TO_FOUNDATION
        if g["src"]:
            source = int(g["src"]) - 1
            if g["tf"]:
                return None if g["count"] else Move(_K.COLUMN_TO_FOUNDATION, source)
            count = int(g["count"]) if g["count"] else 1
            return Move(_K.COLUMN_TO_COLUMN, source, int(g["tt"]) - 1, count)
        return Move(_K.FOUNDATION_TO_COLUMN, SUIT_LETTERS.index(g["suit"]), int(g["ft"]) - 1)
    except InvalidMoveError:
        return None
