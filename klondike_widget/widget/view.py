"""The board as the widget publishes it: a small JSON-ready dict the front end only draws.

The front end holds no rules. Everything it shows or allows comes from this dict: the piles, the
legal moves grouped by the pile they start from, the counters and the solver's status.

Pile ids (the same letters as the move notation): ``"s"`` stock, ``"w"`` waste, ``"fc" "fd" "fh"
"fs"`` the foundations of clubs, diamonds, hearts, spades, ``"t1"`` .. ``"t7"`` the columns.
Cards are ints 0..51 (see :mod:`klondike_widget.engine.cards`); their faces come from
:func:`deck_table`.

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> g = Game.new(deal=2)
>>> v = board_view(g, seq=0)
>>> v["stock"], v["cols"][2][0], len(v["cols"][2][1]), v["legal"]["t3"]
(24, 2, 1, [[1, 't2', 't3-t2']])
>>> move_target(g.state.parse_move("t3-t2"))
('t3', 1, 't2')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from klondike_widget.engine.cards import CARD_RANK, CARD_RED, CARD_SUIT, SUIT_LETTERS, SUIT_SYMBOLS
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import GameState

if TYPE_CHECKING:  # the protocol module imports this one
    from klondike_widget.widget.protocol import Announce, Clock, Hint, LineStep, View

__all__ = [
    "PILES",
    "RANK_LABELS",
    "board_view",
    "deck_table",
    "move_target",
    "move_source",
    "legal_by_source",
    "waste_fan",
]

#: Rank labels drawn on the card faces (the same in every language, never mirrored).
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Every pile id, in reading order.
PILES = ("s", "w", "fc", "fd", "fh", "fs", "t1", "t2", "t3", "t4", "t5", "t6", "t7")

_K = MoveKind


def _col(index: int) -> str:
    return f"t{index + 1}"


def _foundation_of(card: int) -> str:
    return "f" + SUIT_LETTERS[CARD_SUIT[card]]


def move_source(state: GameState, move: Move) -> str:
    """The pile id a move takes its cards from (``"s"`` for a stock tap or recycle).

    >>> from klondike_widget.engine.deals import deal
    >>> move_source(deal(2), Move.parse("t3-t2")), move_source(deal(2), Move.draw())
    ('t3', 's')
    """
    return move_target(move, state)[0]


def move_target(move: Move, state: GameState | None = None) -> tuple[str, int, str]:
    """``(source pile, card count, target pile)`` of ``move``.

    A move onto a foundation needs ``state`` to know which foundation (the moving card's suit);
    without it the target is ``"f"``. A stock tap and a recycle go from ``"s"`` to ``"w"`` with
    count 0.

    >>> move_target(Move.parse("t3:4-t6"))
    ('t3', 4, 't6')
    >>> move_target(Move.parse("fh-t1")), move_target(Move.parse("w-f"))
    (('fh', 1, 't1'), ('w', 1, 'f'))
    """
    kind = move.kind
    if kind in (_K.DRAW, _K.RECYCLE):
        return ("s", 0, "w")
    if kind is _K.WASTE_TO_COLUMN:
        return ("w", 1, _col(move.target))
    if kind is _K.FOUNDATION_TO_COLUMN:
        return ("f" + SUIT_LETTERS[move.source], 1, _col(move.target))
    if kind is _K.COLUMN_TO_COLUMN:
        return (_col(move.source), move.count, _col(move.target))
    # Onto a foundation: from the waste or a column.
    src = "w" if kind is _K.WASTE_TO_FOUNDATION else _col(move.source)
    if state is None:
        return (src, 1, "f")
    card = state.waste_top if kind is _K.WASTE_TO_FOUNDATION else state.top(move.source)
    return (src, 1, "f" if card is None else _foundation_of(card))


def legal_by_source(state: GameState, moves: Iterable[Move]) -> dict[str, list[list[Any]]]:
    """Moves grouped by source pile: ``{source: [[count, target, text], ...]}``.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(2)
    >>> legal_by_source(s, s.legal_moves)["s"]
    [[0, 'w', 's']]
    """
    out: dict[str, list[list[Any]]] = {}
    for move in moves:
        src, count, dst = move_target(move, state)
        out.setdefault(src, []).append([count, dst, str(move)])
    return out


def waste_fan(game: Game) -> int:
    """How many waste cards a draw-3 table shows fanned: what is left of the last group turned.

    A tap in draw 3 turns up to three cards and fans them; playing the top one leaves the two
    under it showing (not the top three of the waste, which would reveal a card of an older
    group). When the whole group is gone, the new top card shows alone. Draw 1 shows one card.
    This depends on the history, so Python decides it; the front end only draws the cards.

    >>> g = Game.new(deal=5, draw=3)
    >>> g.play("s") and None
    >>> waste_fan(g)
    3
    >>> waste_fan(Game.new(deal=5, draw=1))
    0
    """
    state = game.state
    total = len(state.waste)
    if not total:
        return 0
    if state.rules.draw == 1:
        return 1
    history = game.history
    states = game.states
    before = None
    for i in range(len(history) - 1, -1, -1):
        if history[i].kind in (_K.DRAW, _K.RECYCLE):
            before = len(states[i].waste) if history[i].kind is _K.DRAW else 0
            break
    if before is None:  # a game set up with cards on the waste: no group is known
        return min(3, total)
    left = total - before
    return min(3, left) if left > 0 else 1


def deck_table() -> list[list[Any]]:
    """The face of every card for the front end: ``[rank label, suit symbol, red]``.

    The spoken names (which depend on the language) are in the ``strings`` bundle.

    >>> deck_table()[9], deck_table()[51]
    (['10', '♣', 0], ['K', '♠', 0])
    """
    return [
        [RANK_LABELS[CARD_RANK[card]], SUIT_SYMBOLS[CARD_SUIT[card]], int(CARD_RED[card])]
        for card in range(52)
    ]


def _play_status(won: bool, finishing: bool) -> str:
    return "won" if won else ("finishing" if finishing else "playing")


def _columns(state: GameState) -> list[list[Any]]:
    """``view["cols"]``: per column, how many cards are face down, and the face-up cards."""
    return [
        [down, list(col[down:])] for col, down in zip(state.columns, state.face_down, strict=True)
    ]


def board_view(
    game: Game,
    *,
    seq: int,
    analysis: str | None = None,
    finish_block: str | None = None,
    hint: Hint | None = None,
    finishing: bool = False,
    clock: Clock | None = None,
    announce: Announce | None = None,
    shown: GameState | None = None,
    line: LineStep | None = None,
    lines: bool = False,
) -> View:
    """The ``view`` trait for ``game``: piles, legal moves, counters and status.

    Parameters
    ----------
    game : Game
        The game on the table.
    seq : int
        The state sequence number; every intent must carry the one it was sent against.
    analysis : str or None
        ``"solving"``, ``"winnable"``, ``"unwinnable"``, ``"unknown"`` or ``None`` (won/no solver).
    finish_block : str or None
        ``None`` when Finish is available, otherwise the strings key saying why not.
    hint : mapping or None
        The highlighted hint: ``{"src", "n", "dst", "text"}``.
    finishing : bool
        True while Finish plays the winning line: no legal moves are offered then.
    clock : mapping or None
        ``{"ms": elapsed ms at "at", "at": epoch ms, "run": bool}``.
    announce : mapping or None
        ``{"n": counter, "text": ...}``: the latest action in words, for the aria-live region.
    shown : GameState or None
        A position to draw instead of the game's (a step of a solver line). The board is then
        read-only (no legal moves, no undo/redo), the status is ``"analysis"``, and the
        counters are still the game's: stepping through a line never changes them.
    line : mapping or None
        The analysis panel's step (see
        :meth:`klondike_widget.widget.line_panel.LinePanel.view_part`).
    lines : bool
        True when a line can be opened (the "Solver line" button is enabled).
    """
    analysing = shown is not None
    state = game.state if shown is None else shown
    won = game.state.is_won
    waste = state.waste
    # A step of a solver line has no history of groups: show what draw 3 shows at most.
    most = 3 if state.rules.draw == 3 else 1
    fan = waste_fan(game) if shown is None else min(len(waste), most)
    status = "analysis" if analysing else _play_status(won, finishing)
    frozen = won or finishing or analysing
    legal = {} if frozen else legal_by_source(state, state.legal_moves)
    view: View = {
        "seq": seq,
        "deal": game.deal_number,
        "draw": state.rules.draw,
        "stock": len(state.stock),
        "waste": list(waste[len(waste) - fan :]),
        "wn": len(waste),
        "found": [state.foundation_top(suit) for suit in range(4)],
        "cols": _columns(state),
        "legal": legal,
        "moves": game.moves_count,
        "undo": game.can_undo and not (finishing or analysing),
        "redo": game.can_redo and not (finishing or analysing),
        "status": status,
        "analysis": None if won else analysis,
        "finish": None if won else finish_block,
        "hint": None if (won or analysing) else (hint.copy() if hint else None),
        "clock": clock.copy() if clock else {"ms": 0, "at": 0, "run": False},
        "announce": announce.copy() if announce else None,
        "line": line.copy() if line else None,
        "lines": lines,
    }
    return view
