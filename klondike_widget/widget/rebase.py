"""Fast clicks: a move made on an older view of the board, rebased onto the position now.

The front end sends every click at once, stamped with the ``seq`` of the view it was made on.
:class:`SeenStates` remembers the positions the last views showed; :func:`same_move` finds the
move on the table now that means what the click meant then (or None: the click is stale).
"""

from __future__ import annotations

from klondike_widget.engine.cards import SUIT_LETTERS
from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import GameState
from klondike_widget.widget.view import move_target

__all__ = ["SeenStates", "same_move"]

_STOCK_ACTIONS = (MoveKind.DRAW, MoveKind.RECYCLE)


def _pile_cards(state: GameState, pile: str) -> tuple[int, ...]:
    """The cards of pile ``pile`` (a view pile id), bottom first; face-down cards are -1."""
    if pile == "w":
        return tuple(state.waste)
    if pile == "s":
        return (-1,) * len(state.stock)
    if pile[0] == "f":
        top = state.foundation_top(SUIT_LETTERS.index(pile[1]))
        return () if top is None else (top,)
    index = int(pile[1:]) - 1
    down = state.face_down[index]
    column = tuple(state.columns[index])
    return (-1,) * down + column[down:]


def _meaning(state: GameState, move: Move) -> tuple[object, ...]:
    """What the player sees a move do: the cards it takes, from where, onto which top card."""
    if move.kind in _STOCK_ACTIONS:
        return ("stock",)
    src, count, dst = move_target(move, state)
    cards = _pile_cards(state, src)[-count:]
    onto = _pile_cards(state, dst)[-1:]
    return (src, cards, dst, onto)


def same_move(seen: GameState, now: GameState, text: str) -> Move | None:
    """The move in ``now`` that means what ``text`` meant in ``seen``, or None.

    The front end sends every click at once, stamped with the view it was made on; when the
    kernel is slow, several clicks are made on the same (older) view. Such a click still counts
    when, in the position on the table, it takes the same cards from the same pile onto the same
    card (or the same empty pile). A tap on the stock always means "tap the stock": it draws, or
    turns the waste over when the stock is empty, whichever is legal now. Anything else (the
    cards changed, the move is no longer legal, the text does not parse) gives None.

    >>> from klondike_widget.engine.deals import deal
    >>> seen = deal(2)
    >>> now = seen.apply("s")          # a stock tap landed since the view was drawn
    >>> same_move(seen, now, "t3-t2")  # 8 of diamonds onto 9 of clubs: still the same move
    Move.parse('t3-t2')
    >>> same_move(seen, now.apply("t3-t2"), "t3-t2") is None  # it was played already
    True
    >>> empty = seen
    >>> for _ in range(24): empty = empty.apply("s")
    >>> same_move(seen, empty, "s")    # the stock ran out: the same tap turns the waste over
    Move.parse('r')
    """
    try:
        before = seen.parse_move(text)
        if not seen.is_legal(before):
            return None
        if before.kind in _STOCK_ACTIONS:
            for move in now.legal_moves:
                if move.kind in _STOCK_ACTIONS:
                    return move
            return None
        move = now.parse_move(text)
    except (InvalidMoveError, IllegalMoveError, ValueError):
        return None
    if not now.is_legal(move) or _meaning(seen, before) != _meaning(now, move):
        return None
    return move


class SeenStates:
    """The positions the last views showed, by ``seq``, so that a late click can be rebased.

    >>> from klondike_widget.engine.deals import deal
    >>> seen = SeenStates(limit=2)
    >>> seen.remember(1, deal(1)); seen.remember(2, deal(2)); seen.remember(3, deal(3))
    >>> seen.get(1) is None, seen.get(3) == deal(3)
    (True, True)
    """

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._states: dict[int, GameState] = {}

    def remember(self, seq: int, state: GameState) -> None:
        """Record that view ``seq`` showed ``state`` (the oldest entries are dropped)."""
        self._states[seq] = state
        while len(self._states) > self.limit:
            del self._states[next(iter(self._states))]

    def get(self, seq: int) -> GameState | None:
        """The position view ``seq`` showed, if it is still known."""
        return self._states.get(seq)
