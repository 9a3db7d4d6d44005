"""Line: a start position and a sequence of moves, such as a solver's winning line.

A line is a sequence of positions: ``line[0]`` is the start, ``line[k]`` the position after
``k`` moves and ``len(line)`` is one more than the number of moves. The positions are computed
once, checking every move, so a broken line says exactly where it breaks.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> line = Line(deal(2), ["s", "s", "t3-t2"])
>>> len(line), len(line.moves), line.text()
(4, 3, 's s t3-t2')
>>> line[3] == deal(2).apply("s").apply("s").apply("t3-t2")
True
>>> Line.parse(line.text(), deal(2)) == line
True
>>> Line(deal(2), ["s", "w-f"])
Traceback (most recent call last):
...
klondike_widget.engine.line.BrokenLineError: move 2 (w-f) is illegal: ...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError
from klondike_widget.engine.moves import Move, apply_move
from klondike_widget.engine.state import GameState

__all__ = ["Line", "BrokenLineError"]


class BrokenLineError(IllegalMoveError):
    """A line whose move ``index`` (1-based) cannot be played; ``index`` and ``move`` say which."""

    def __init__(self, index: int, move: object, reason: str) -> None:
        super().__init__(f"move {index} ({move}) is illegal: {reason}")
        self.index = index
        self.move = move


class Line(Sequence[GameState]):
    """A start position and the moves played from it.

    Parameters
    ----------
    start : GameState
    moves : iterable of Move or str, or str
        Moves or their text (``"t3-t6"``), or one text of moves separated by spaces or commas
        (``"s s t3-t2"``, as :meth:`text` writes); each must be legal where it is played.

    Raises
    ------
    BrokenLineError
        Naming the first move that is not legal (or not a move), 1-based.
    """

    __slots__ = ("_moves", "_states")

    def __init__(self, start: GameState, moves: Iterable[Move | str] | str = ()) -> None:
        if not isinstance(start, GameState):
            raise TypeError(f"a line starts at a GameState, not {type(start).__name__}")
        if isinstance(moves, str):  # one text of moves, not one move per character
            moves = moves.replace(",", " ").split()
        states = [start]
        played: list[Move] = []
        for i, move in enumerate(moves, start=1):
            state = states[-1]
            try:
                parsed = state.parse_move(move) if isinstance(move, str) else move
                if not isinstance(parsed, Move):
                    raise InvalidMoveError(f"not a move: {move!r}")
                states.append(apply_move(state, parsed))
            except (InvalidMoveError, IllegalMoveError) as exc:
                raise BrokenLineError(i, move, str(exc)) from None
            played.append(parsed)
        self._states = tuple(states)
        self._moves = tuple(played)

    @classmethod
    def parse(cls, text: str, start: GameState) -> Line:
        """The line whose moves are written in ``text``, separated by spaces or commas.

        >>> from klondike_widget.engine.deals import deal
        >>> Line.parse("s, s t3-t2", deal(2)) == Line(deal(2), "s s t3-t2")
        True
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a line's text is a str, not {type(text).__name__}")
        return cls(start, text)

    @property
    def start(self) -> GameState:
        """The first position."""
        return self._states[0]

    @property
    def end(self) -> GameState:
        """The last position."""
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves, in order."""
        return self._moves

    @property
    def is_winning(self) -> bool:
        """True if the line ends with all 52 cards on the foundations."""
        return self._states[-1].is_won

    def states(self) -> tuple[GameState, ...]:
        """Every position along the line, start and end included."""
        return self._states

    def text(self) -> str:
        """The moves in notation, separated by spaces (``Line.parse`` reads it back)."""
        return " ".join(str(m) for m in self._moves)

    def replay(self) -> GameState:
        """Play the moves again from the start through the engine and return the end.

        A line is checked when it is built; ``replay`` checks it again from scratch (for a line
        that came from elsewhere, e.g. a solver) and raises :class:`BrokenLineError` at the first
        move that does not hold.
        """
        return Line(self.start, self._moves).end

    @overload
    def __getitem__(self, index: int) -> GameState: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[GameState]: ...

    def __getitem__(self, index: int | slice) -> GameState | Sequence[GameState]:
        return self._states[index]

    def __len__(self) -> int:
        return len(self._states)

    def __iter__(self) -> Iterator[GameState]:
        return iter(self._states)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return self._states[0] == other._states[0] and self._moves == other._moves

    def __hash__(self) -> int:
        return hash((self._states[0], self._moves))

    def __repr__(self) -> str:
        return f"Line.parse({self.text()!r}, {self.start!r})"

    def _repr_svg_(self) -> str:
        """The line as one SVG picture of small boards (at most 12: the first 11 and the end)."""
        from klondike_widget.render import line_svg

        return str(line_svg(self._states, self._moves))

    def _repr_html_(self) -> str:
        """The same frames as :meth:`_repr_svg_`, each an ``<img>``, with the moves as text."""
        from klondike_widget.render import filmstrip_html

        return filmstrip_html(self._states, self._moves, max_frames=12)
