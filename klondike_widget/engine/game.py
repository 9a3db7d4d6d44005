"""Game: a game in progress: history, undo and redo, the Moves counter, saving and loading.

The Moves counter counts every action the player takes: each move, each stock tap and waste
recycle, and also each undo and each redo. So it never goes down: undoing a move costs an action
instead of giving one back.

Examples
--------
>>> g = Game.new(deal=2, draw=1)
>>> g.play("t3-t2")
Move.parse('t3-t2')
>>> g.play("s"); g.moves_count
Move.parse('s')
2
>>> g.undo(); g.moves_count, len(g.history), g.can_redo
Move.parse('s')
(3, 1, True)
>>> g.redo(); g.moves_count
Move.parse('s')
4
>>> Game.from_json(g.to_json()) == g
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from klondike_widget.engine.errors import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
    is_whole,
    quote,
    quote_keys,
)
from klondike_widget.engine.moves import LegalMoves, Move, apply_move
from klondike_widget.engine.notation import state_from_dict, state_to_dict
from klondike_widget.engine.ratings import DealLevelError, pick_deal, rated_deals
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.shuffle import check_deal_number, random_deal_number
from klondike_widget.engine.shuffle import deal as deal_position
from klondike_widget.engine.state import GameState

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "Game"]

SAVE_FORMAT = "klondike-widget/game"
SAVE_VERSION = 1


class Game:
    """A game in progress over immutable :class:`GameState` snapshots.

    Parameters
    ----------
    start : GameState
        The starting position (a fresh deal or any valid position).
    deal_number : int or None
        The deal number the start position came from, if any (checked here, so that the game
        saves to a file that loads again).
    """

    def __init__(self, start: GameState, deal_number: int | None = None) -> None:
        if not isinstance(start, GameState):
            raise TypeError(f"start must be a GameState, not {type(start).__name__}")
        self._states: list[GameState] = [start]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self._count = 0
        self.deal_number = None if deal_number is None else check_deal_number(deal_number)

    @classmethod
    def new(
        cls,
        deal: int | None = None,
        draw: int = 1,
        *,
        foundation_to_tableau: bool = True,
        rules: Rules | None = None,
        level: str = "any",
    ) -> Game:
        """A new game of deal number ``deal`` (a random deal number when ``None``).

        ``level`` chooses the random deal: ``"any"`` deal, a ``"winnable"`` one, or a winnable
        one that is ``"easy"``, ``"medium"`` or ``"hard"`` (from the shipped table of rated
        deals, :mod:`klondike_widget.engine.ratings`: no search, so no wait). With a ``deal`` number
        too, the deal must be of that level.

        >>> g = Game.new(deal=42, draw=3)
        >>> g.deal_number, g.rules.draw, g.moves_count
        (42, 3, 0)
        >>> from klondike_widget.engine.ratings import rating
        >>> rating(Game.new(draw=3, level="easy").deal_number, draw=3)
        'easy'
        """
        rules = rules or Rules(draw=draw, foundation_to_tableau=foundation_to_tableau)
        if level != "any":
            f2t = rules.foundation_to_tableau
            if deal is None:
                deal = pick_deal(level, rules.draw, foundation_to_tableau=f2t)
            elif deal not in rated_deals(level, rules.draw, foundation_to_tableau=f2t):
                raise DealLevelError(
                    f"deal {deal} is not a rated {level} deal in draw {rules.draw}"
                )
        number = random_deal_number() if deal is None else deal
        return cls(deal_position(number, rules), deal_number=number)

    # -- reading --------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current position."""
        return self._states[-1]

    @property
    def start(self) -> GameState:
        """The starting position."""
        return self._states[0]

    @property
    def states(self) -> Sequence[GameState]:
        """Every position from the start to the current one (a read-only copy)."""
        return tuple(self._states)

    @property
    def history(self) -> Sequence[Move]:
        """The moves played from the start to reach the current position."""
        return tuple(self._moves)

    @property
    def redo_stack(self) -> Sequence[Move]:
        """Undone moves that :meth:`redo` would replay, the next one first."""
        return tuple(reversed(self._redo))

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self.state.rules

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the current position (a lazy view)."""
        return self.state.legal_moves

    @property
    def moves_count(self) -> int:
        """The Moves counter: every action, undo and redo included (never goes down)."""
        return self._count

    @property
    def is_won(self) -> bool:
        """True when all 52 cards are on the foundations."""
        return self.state.is_won

    @property
    def can_undo(self) -> bool:
        """True if there is a move to undo."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """True if there is an undone move to redo."""
        return bool(self._redo)

    # -- acting ---------------------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`Move` or its text) and return it.

        Raises ``InvalidMoveError`` for bad text and ``IllegalMoveError`` (saying why) for an
        illegal move; the game is unchanged then. Playing clears the redo stack unless the move
        is the one :meth:`redo` would replay.
        """
        state = self.state
        parsed = state.parse_move(move) if isinstance(move, str) else move
        if not isinstance(parsed, Move):
            raise InvalidMoveError(f"not a move: {quote(move)}")
        new_state = apply_move(state, parsed)
        self._states.append(new_state)
        self._moves.append(parsed)
        if self._redo and self._redo[-1] == parsed:
            self._redo.pop()
        else:
            self._redo.clear()
        self._count += 1
        return parsed

    def play_line(self, moves: Iterable[Move | str]) -> None:
        """Play several moves; if one is illegal, nothing of the line stays played.

        >>> g = Game.new(deal=2)
        >>> g.play_line(["s", "s", "t9-f"])
        Traceback (most recent call last):
        ...
        klondike_widget.engine.errors.InvalidMoveError: move 3 of the line: not a move: 't9-f' \
(examples: s, r, w-t3, w-f, t3-f, t3-t6, t3:4-t6, fh-t3)
        >>> g.moves_count
        0
        """
        snapshot = (list(self._states), list(self._moves), list(self._redo), self._count)
        try:
            for i, move in enumerate(moves):
                try:
                    self.play(move)
                except (InvalidMoveError, IllegalMoveError) as exc:
                    raise type(exc)(f"move {i + 1} of the line: {exc}") from None
        except BaseException:
            self._states, self._moves, self._redo, self._count = snapshot
            raise

    def undo(self) -> Move:
        """Take back the last move and return it; raise ``IllegalMoveError`` if there is none."""
        if not self._moves:
            raise IllegalMoveError("nothing to undo")
        self._states.pop()
        move = self._moves.pop()
        self._redo.append(move)
        self._count += 1
        return move

    def redo(self) -> Move:
        """Play the last undone move again and return it; raise if there is none."""
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        move = self._redo[-1]
        self._states.append(apply_move(self.state, move))
        self._moves.append(self._redo.pop())
        self._count += 1
        return move

    def restart(self) -> Game:
        """A new game from the same starting position (counter at 0)."""
        return Game(self.start, self.deal_number)

    # -- saving ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to resume exactly: rules, deal, start, history, redo, counter."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "deal": self.deal_number,
            "start": state_to_dict(self.start),
            "moves": [str(m) for m in self._moves],
            "redo": [str(m) for m in reversed(self._redo)],
            "moves_count": self._count,
        }

    def to_json(self) -> str:
        """The saved game as JSON text (see :meth:`from_json`)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """Load a saved game; raise :class:`InvalidGameError` if malformed or tampered with.

        Checks the format and version, the start position (every card once, no face-down card on
        top, possible foundations), that the start matches the deal number, that every move of
        the history and of the redo stack is legal in turn, and that the counter is at least the
        number of actions the history and redo stack imply.
        """
        if not isinstance(data, dict):
            raise InvalidGameError("a saved game is a JSON object")
        if data.get("format") != SAVE_FORMAT:
            raise InvalidGameError(
                f"not a saved klondike-widget game (format {quote(data.get('format'))})"
            )
        version = data.get("version")
        # 1.0 and true compare equal to 1 in Python; neither is a version number.
        if not (is_whole(version) and version == SAVE_VERSION):
            raise InvalidGameError(
                f"unknown saved-game version {quote(version)} (this version reads {SAVE_VERSION})"
            )
        expected = {"format", "version", "deal", "start", "moves", "redo", "moves_count"}
        if set(data) != expected:
            # keys may be of mixed types (a dict built in Python): quote_keys sorts their quotes
            raise InvalidGameError(
                f"saved game: keys must be {sorted(expected)}, got {quote_keys(data)}"
            )
        try:
            start = state_from_dict(data["start"])
        except InvalidStateError as exc:
            raise InvalidGameError(f"saved game: start position: {exc}") from None
        number = data["deal"]
        if number is not None and not is_whole(number):
            raise InvalidGameError(
                f"saved game: a deal number is a whole number, not {quote(number)}"
            )
        if number is not None:
            try:
                dealt = deal_position(number, start.rules)
            except ValueError as exc:
                raise InvalidGameError(f"saved game: {exc}") from None
            if dealt != start:
                raise InvalidGameError(
                    f"saved game: the start position is not deal {quote(number)}"
                )
        moves, redo, count = data["moves"], data["redo"], data["moves_count"]
        for name, value in (("moves", moves), ("redo", redo)):
            if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
                raise InvalidGameError(f"saved game: {name!r} must be a list of move texts")
        if isinstance(count, bool) or not isinstance(count, int):
            raise InvalidGameError("saved game: 'moves_count' must be a whole number")
        game = cls(start, number)
        for i, text in enumerate(moves):
            _play_saved(game, text, f"move {i + 1} of the history")
        probe = cls(game.state)
        for i, text in enumerate(redo):
            _play_saved(probe, text, f"move {i + 1} of the redo stack")
        if count < len(moves) + 2 * len(redo):
            raise InvalidGameError(
                f"saved game: a Moves counter of {count} is too low for {len(moves)} moves played "
                f"and {len(redo)} undone"
            )
        game._redo = list(reversed(probe._moves))
        game._count = count
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Load a game saved by :meth:`to_json`; raise :class:`InvalidGameError` if bad."""
        try:
            data = json.loads(text)
        except RecursionError:
            # a save is nested 4 levels deep; thousands of brackets are not a save
            raise InvalidGameError("a saved game must be JSON: nested too deeply") from None
        except (TypeError, ValueError) as exc:
            raise InvalidGameError(f"a saved game must be JSON: {exc}") from None
        return cls.from_dict(data)

    # -- dunder ---------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self._states == other._states
            and self._redo == other._redo
            and self._count == other._count
            and self.deal_number == other.deal_number
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        deal_text = f"deal {self.deal_number}" if self.deal_number is not None else "custom start"
        return (
            f"<Game {deal_text}, draw {self.rules.draw}, {len(self._moves)} moves played, "
            f"Moves counter {self._count}{', won' if self.is_won else ''}>"
        )

    def __str__(self) -> str:
        from klondike_widget.render import board_text

        header = f"Deal {self.deal_number}" if self.deal_number is not None else "Custom position"
        return f"{header} · draw {self.rules.draw} · Moves {self._count}\n{board_text(self.state)}"

    def _repr_svg_(self) -> str:
        """The current position as SVG (see :meth:`GameState._repr_svg_`)."""
        from klondike_widget.render import state_svg

        return str(state_svg(self.state))

    def _repr_html_(self) -> str:
        """The current position as an ``<img>`` (it shows in untrusted notebooks too)."""
        from klondike_widget.render import state_svg

        return state_svg(self.state).img()


def _play_saved(game: Game, text: str, where: str) -> None:
    try:
        game.play(Move.parse(text))
    except (InvalidMoveError, IllegalMoveError) as exc:
        raise InvalidGameError(f"saved game: {where} ({quote(text)}): {exc}") from None
