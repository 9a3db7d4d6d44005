"""Scores of a game: Standard and Vegas, as Windows Solitaire keeps them.

Sources: Microsoft Knowledge Base article Q101766 ("Solitaire scoring", the time bonus) and the
tables of Windows Solitaire's own help as reproduced at
https://solitairecat.com/articles/rules/solitaire-scoring and in Windows CE/Mobile Solitaire
manuals; where they differ we follow the Windows desktop game.

Standard
    ======================================  =========
    waste to a column                       +5
    waste to a foundation                   +10
    column to a foundation                  +10
    a column card turned face up            +5
    foundation back to a column             -15
    recycling the waste, draw 1             -100 (every time)
    recycling the waste, draw 3             -20 for the 4th recycle and every one after it
    every 10 seconds of play                -2
    a win after more than 30 seconds        + 700000 // seconds (whole seconds)
    ======================================  =========

    A move between columns scores nothing. The total never shows below 0 (our choice: the move
    points and the time penalty are added up, then a negative total shows as 0; the time bonus
    comes on top).

Vegas
    -52 for the deal (the ante), +5 for every card moved onto a foundation and -5 for every card
    taken back off one (so moving a card down and up again earns nothing). Vegas custom allows
    one pass through the stock in draw 1 and three in draw 3, but our rules allow unlimited
    recycling and **scoring never restricts the rules**: recycles cost nothing in Vegas. No time
    penalty or bonus. The cumulative Vegas total (optional, see
    :meth:`klondike_widget.play.stats.Statistics.vegas_total`) adds up the recorded games.

Undo
    A score is a function of the moves on the history, so undoing a move takes back exactly
    what it scored (and redo scores it again); there is no penalty for undo. The clock keeps
    running, so the time penalty still grows.

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> g = Game.new(deal=2)
>>> g.play("t3-t2"); standard_score(g, seconds=0)  # a column card turned face up: +5
Move.parse('t3-t2')
5
>>> vegas_score(g)
-52
>>> standard_score(g, seconds=25)  # two ten-second penalties: 5 - 4
1
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import GameState

__all__ = [
    "SCORINGS",
    "Score",
    "move_points",
    "standard_points",
    "standard_score",
    "time_bonus",
    "time_penalty",
    "vegas_score",
    "score",
]

#: The scoring settings: Standard, Vegas, or no score shown.
SCORINGS = ("standard", "vegas", "none")

_K = MoveKind
_FREE_RECYCLES_DRAW3 = 3
#: Standard points of the moves that score by their kind alone.
_POINTS = {
    _K.WASTE_TO_COLUMN: 5,
    _K.WASTE_TO_FOUNDATION: 10,
    _K.COLUMN_TO_FOUNDATION: 10,
    _K.FOUNDATION_TO_COLUMN: -15,
}
VEGAS_ANTE = 52
VEGAS_PER_CARD = 5


@dataclass(frozen=True)
class Score:
    """Both scores of a game at some moment.

    >>> Score(standard=10, vegas=-47)
    Score(standard=10, vegas=-47)
    """

    standard: int
    vegas: int


def _steps(game: Game) -> Iterator[tuple[GameState, Move, GameState]]:
    states = game.states
    for i, move in enumerate(game.history):
        yield states[i], move, states[i + 1]


def move_points(before: GameState, move: Move, after: GameState, recycles: int = 0) -> int:
    """Standard points of one move; ``recycles`` is how many recycles came before it.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(2)
    >>> move_points(s, Move.parse("t3-t2"), s.apply("t3-t2"))
    5
    >>> move_points(s, Move.draw(), s.apply("s"))
    0
    """
    kind = move.kind
    if kind is _K.RECYCLE:
        if before.rules.draw == 1:
            return -100
        return -20 if recycles >= _FREE_RECYCLES_DRAW3 else 0
    points = _POINTS.get(kind, 0)
    from_column = kind in (_K.COLUMN_TO_FOUNDATION, _K.COLUMN_TO_COLUMN)
    if from_column and after.face_down[move.source] < before.face_down[move.source]:
        points += 5  # the card under the moved ones was turned face up
    return points


def standard_points(game: Game) -> int:
    """The Standard points of the moves on the history (no time, no floor).

    >>> g = Game.new(deal=2, draw=1)
    >>> for _ in range(24): _ = g.play("s")
    >>> g.play("r") and standard_points(g)
    -100
    """
    total = 0
    recycles = 0
    for before, move, after in _steps(game):
        total += move_points(before, move, after, recycles)
        if move.kind is _K.RECYCLE:
            recycles += 1
    return total


def time_penalty(seconds: float) -> int:
    """-2 for every full 10 seconds, as a positive number.

    >>> time_penalty(9.9), time_penalty(10), time_penalty(61)
    (0, 2, 12)
    """
    _check_seconds(seconds)
    return 2 * (int(seconds) // 10)


def time_bonus(seconds: float) -> int:
    """The bonus of a win after ``seconds``: 700000 // seconds when more than 30 s, else 0.

    >>> time_bonus(30), time_bonus(31), time_bonus(350)
    (0, 22580, 2000)
    """
    _check_seconds(seconds)
    whole = int(seconds)
    return 700_000 // whole if whole > 30 else 0


def standard_score(game: Game, seconds: float) -> int:
    """The Standard score of ``game`` after ``seconds`` of play (the bonus once it is won)."""
    total = max(0, standard_points(game) - time_penalty(seconds))
    return total + (time_bonus(seconds) if game.is_won else 0)


def vegas_score(game: Game) -> int:
    """The Vegas score: -52 + 5 for every card this game put on the foundations (net).

    >>> vegas_score(Game.new(deal=7))
    -52
    """
    gained = game.state.cards_on_foundations - game.start.cards_on_foundations
    return -VEGAS_ANTE + VEGAS_PER_CARD * gained


def score(game: Game, seconds: float) -> Score:
    """Both scores of ``game`` after ``seconds`` of play.

    >>> score(Game.new(deal=7), 0)
    Score(standard=0, vegas=-52)
    """
    return Score(standard_score(game, seconds), vegas_score(game))


def _check_seconds(seconds: float) -> None:
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0:
        raise ValueError(f"seconds must be a number >= 0, not {seconds!r}")
