"""Game review: the verdict of every position of a game, and the move that lost it.

:func:`review` replays a game's history and says, for every position, whether it can still be
won (``Status.WON``), can no longer be won (``Status.LOST``, a proof) or could not be decided in
the budget (``Status.UNKNOWN``, never called a loss). It marks **the losing move**: the move after
which a winnable game became unwinnable, with a winning line from the position before it.

Why it is fast
--------------
Winnability is monotone along a game: if a position can be won, so can every earlier position of
the same game (play the game's moves up to it, then its winning line), and if a position is lost,
so is every later one. The winnable positions are therefore a prefix of the game, and the review
only has to find where that prefix ends: it solves the last position, then the first, then bisects,
so a 150-move game costs about ten searches instead of 150. A winning line found from one position
also decides every later position of the game that lies on it, and verdicts already known
(a :class:`VerdictMemory`, such as the widget's ``Verdicts``) are used before anything is
searched, and what the review learns is added to them.

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> from klondike_widget.solver import solve
>>> g = Game.new(deal=2)
>>> g.play_line(solve(g).moves[:3])  # three moves of a winning line: nothing is lost yet
>>> r = review(g)
>>> [row.after.value for row in r], r.losing_move is None
(['won', 'won', 'won'], True)
>>> r.records()[0]["move"] == str(g.history[0]), r.records()[0]["before"]
(True, 'won')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, overload, runtime_checkable

from klondike_widget.engine.errors import positive_seconds
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, Status, solve
from klondike_widget.solver.api import Cancel, _is_cancelled

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DEFAULT_LIMIT", "DEFAULT_SECONDS", "MoveReview", "Review", "VerdictMemory", "review"]

#: The budget of each position's search unless :func:`review` is given another.
DEFAULT_LIMIT = Limit(seconds=1.0)
#: The total time budget of a review unless :func:`review` is given another.
DEFAULT_SECONDS = 10.0

_FROM_CACHE = {"winnable": Status.WON, "unwinnable": Status.LOST}


class _Known(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def line(self) -> tuple[Move, ...]: ...


@runtime_checkable
class VerdictMemory(Protocol):
    """What :func:`review` needs of a memory of verdicts (the widget's ``Verdicts`` is one).

    ``get`` returns something with ``status`` (``"winnable"``, ``"unwinnable"``, ...) and
    ``line`` (a winning line when winnable), or ``None``.
    """

    def get(self, state: GameState) -> _Known | None: ...
    def add_line(self, state: GameState, line: Iterable[Move | str]) -> None: ...
    def add_lost(self, state: GameState) -> None: ...


@dataclass(frozen=True)
class MoveReview:
    """One move of a reviewed game.

    Attributes
    ----------
    index : int
        0-based index of the move in the game's history (move ``index + 1`` to a player).
    move : Move
        The move played.
    before, after : Status
        The verdict on the position before and after the move.
    seconds : float
        Search time spent on the position after the move (0.0 when its verdict was inferred
        from other positions or already known).
    losing : bool
        True for the move after which a winnable game became unwinnable (at most one per game).
    alternative : tuple of Move
        Where the verdict dropped (before WON, after not WON): a winning line from the position
        before the move. Empty elsewhere.
    """

    index: int
    move: Move
    before: Status
    after: Status
    seconds: float = 0.0
    losing: bool = False
    alternative: tuple[Move, ...] = ()

    def record(self) -> dict[str, Any]:
        """Plain values (text and numbers) for a table row.

        >>> from klondike_widget.engine.moves import Move
        >>> MoveReview(0, Move.parse("s"), Status.WON, Status.LOST, 0.5, True).record()["after"]
        'lost'
        """
        return {
            "index": self.index,
            "move": str(self.move),
            "before": self.before.value,
            "after": self.after.value,
            "seconds": self.seconds,
            "losing": self.losing,
            "alternative": " ".join(str(m) for m in self.alternative),
        }


@dataclass(frozen=True)
class Review(Sequence[MoveReview]):
    """What :func:`review` returns: one :class:`MoveReview` per move, and totals.

    A sequence of rows (``pandas.DataFrame(review.records())`` or :meth:`to_dataframe` gives a
    table). ``start`` is the verdict on the starting position (that of an empty game too),
    ``seconds`` the total search time and ``searches`` the number of positions searched.
    """

    rows: tuple[MoveReview, ...]
    start: Status
    seconds: float = 0.0
    searches: int = 0
    start_line: tuple[Move, ...] = field(default=(), repr=False)

    @overload
    def __getitem__(self, index: int) -> MoveReview: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[MoveReview]: ...
    def __getitem__(self, index: int | slice) -> MoveReview | Sequence[MoveReview]:
        return self.rows[index]

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[MoveReview]:
        return iter(self.rows)

    @property
    def losing_move(self) -> MoveReview | None:
        """The row of the move after which the game could no longer be won, if any."""
        return next((row for row in self.rows if row.losing), None)

    @property
    def undecided(self) -> int:
        """How many positions (the start included) the review could not decide."""
        verdicts = [self.start, *(row.after for row in self.rows)]
        return sum(v is Status.UNKNOWN for v in verdicts)

    def records(self) -> list[dict[str, Any]]:
        """The rows as plain dictionaries (see :meth:`MoveReview.record`)."""
        return [row.record() for row in self.rows]

    def to_dataframe(self) -> pd.DataFrame:
        """The rows as a ``pandas.DataFrame`` indexed by move index (pandas is needed)."""
        import pandas as pd

        columns = ["index", "move", "before", "after", "seconds", "losing", "alternative"]
        table: pd.DataFrame = pd.DataFrame(self.records(), columns=columns).set_index("index")
        return table


class _Positions:
    """The verdicts known so far on the positions ``states[0..n]`` of one game."""

    def __init__(self, game: Game, known: VerdictMemory | None) -> None:
        self.states = game.states
        self.moves = game.history
        self.known = known
        self.index = {s: i for i, s in enumerate(self.states)}
        n = len(self.states)
        self.verdict: list[Status | None] = [None] * n
        self.line: dict[int, tuple[Move, ...]] = {}
        self.seconds = [0.0] * n
        self.lo = -1  # the last position known to be winnable
        self.hi = n  # the first position known to be lost

    def won(self, i: int, line: tuple[Move, ...]) -> None:
        """Position ``i`` is winnable by ``line``: so is every earlier one and each one on it."""
        self.line.setdefault(i, line)
        state = self.states[i]
        for k, move in enumerate(line):
            state = state.apply(move)
            j = self.index.get(state)
            if j is not None and j > i:
                self.line.setdefault(j, line[k + 1 :])
                i = max(i, j)
        self.lo = max(self.lo, i)

    def lost(self, i: int) -> None:
        """Position ``i`` is lost: so is every later one."""
        self.hi = min(self.hi, i)

    def use_cache(self) -> None:
        if self.known is None:
            return
        for i, state in enumerate(self.states):
            verdict = self.known.get(state)
            status = _FROM_CACHE.get(verdict.status) if verdict is not None else None
            if status is Status.WON and verdict is not None:
                self.won(i, verdict.line)
            elif status is Status.LOST:
                self.lost(i)

    def remember(self, i: int, status: Status, line: tuple[Move, ...]) -> None:
        if self.known is None:
            return
        if status is Status.WON:
            self.known.add_line(self.states[i], line)
        elif status is Status.LOST:
            self.known.add_lost(self.states[i])

    def next_probe(self, tried: set[int]) -> int | None:
        """The next position to search: the last, then the first, then bisection."""
        candidates = [i for i in range(self.lo + 1, self.hi) if i not in tried]
        if not candidates:
            return None
        last = len(self.states) - 1
        if last in candidates and self.hi == len(self.states):
            return last
        if 0 in candidates and self.lo < 0:
            return 0
        middle = (self.lo + self.hi) / 2
        return min(candidates, key=lambda i: (abs(i - middle), i))

    @property
    def decided(self) -> int:
        """How many positions have a verdict: the winnable prefix and the lost suffix."""
        return self.lo + 1 + len(self.states) - self.hi

    def status(self, i: int) -> Status:
        if i <= self.lo:
            return Status.WON
        if i >= self.hi:
            return Status.LOST
        return Status.UNKNOWN

    def line_from(self, i: int) -> tuple[Move, ...]:
        """A winning line from winnable position ``i`` (the game's moves up to a known line)."""
        j = min(k for k in self.line if k >= i)
        return tuple(self.moves[i:j]) + self.line[j]


def review(
    game: Game,
    limit: Limit | None = None,
    *,
    known: VerdictMemory | None = None,
    seconds: float | None = DEFAULT_SECONDS,
    cancel: Cancel | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``game``: the verdict on every position of its history and the losing move.

    Parameters
    ----------
    game : Game
        Any game (won, lost, abandoned or in progress); its history up to the current position
        is reviewed (undone moves are not part of it).
    limit : Limit, optional
        The budget of each position's search (:data:`DEFAULT_LIMIT`, 1 s, by default).
    known : VerdictMemory, optional
        Verdicts already known (the widget's ``Verdicts``): used first, and what the review
        finds is added to it.
    seconds : float or None, optional
        A total time budget for the whole review (:data:`DEFAULT_SECONDS`, 10 s, by default;
        ``None``: none): once spent, the positions not yet decided are reported as UNKNOWN.
        Without it a game whose positions the searches cannot decide would cost one search
        per move.
    cancel : threading.Event or callable, optional
        Stops the review (the search in progress ends UNKNOWN; nothing is called lost for it).
    progress : callable, optional
        ``progress(decided, total)`` after every search: how many of the game's ``total``
        positions (the start included) have a verdict so far. It is called in the review's
        thread (a widget hands it on to its own).

    Returns
    -------
    Review
        One row per move. A position is only ever LOST by a proof (a search that exhausted it, or
        a lost earlier position); one the searches could not decide is UNKNOWN.

    Examples
    --------
    >>> from klondike_widget.engine.game import Game
    >>> g = Game.new(deal=2)
    >>> g.play_line(["s", "s"])
    >>> r = review(g, Limit(nodes=5))  # far too small a budget: undecided, never lost
    >>> [row.after.value for row in r], r.losing_move
    (['unknown', 'unknown'], None)
    >>> review("deal 2")
    Traceback (most recent call last):
    ...
    TypeError: review() needs a Game, not str
    """
    limit = _checked_arguments(game, limit, known, seconds)
    t0 = time.perf_counter()
    pos = _Positions(game, known)
    if game.is_won:
        pos.won(len(pos.states) - 1, ())
    pos.use_cache()
    tried: set[int] = set()
    searches = 0
    while (i := pos.next_probe(tried)) is not None:
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            break
        if _is_cancelled(cancel):
            break
        tried.add(i)
        res = solve(pos.states[i], limit=limit, cancel=cancel)
        searches += 1
        pos.seconds[i] = res.seconds
        if res.status is Status.WON:
            pos.won(i, res.moves)
        elif res.status is Status.LOST:
            pos.lost(i)
        pos.remember(i, res.status, res.moves)
        if progress is not None:
            progress(pos.decided, len(pos.states))
    for i in range(pos.hi, len(pos.states)):
        pos.remember(i, Status.LOST, ())
    return _build(pos, time.perf_counter() - t0, searches)


def _checked_arguments(game: object, limit: object, known: object, seconds: object) -> Limit:
    """The search limit to use; ``TypeError`` or ``ValueError`` for a bad argument of review()."""
    if not isinstance(game, Game):
        raise TypeError(f"review() needs a Game, not {type(game).__name__}")
    if limit is None:
        limit = DEFAULT_LIMIT
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a Limit, not {type(limit).__name__}")
    if known is not None and not isinstance(known, VerdictMemory):
        raise TypeError(f"known must be a memory of verdicts, not {type(known).__name__}")
    if seconds is not None:
        positive_seconds(seconds, "seconds")
    return limit


def _build(pos: _Positions, seconds: float, searches: int) -> Review:
    rows = []
    for i, move in enumerate(pos.moves):
        before, after = pos.status(i), pos.status(i + 1)
        dropped = before is Status.WON and after is not Status.WON
        rows.append(
            MoveReview(
                index=i,
                move=move,
                before=before,
                after=after,
                seconds=pos.seconds[i + 1],
                losing=dropped and after is Status.LOST,
                alternative=pos.line_from(i) if dropped else (),
            )
        )
    start = pos.status(0)
    start_line = pos.line_from(0) if start is Status.WON else ()
    return Review(tuple(rows), start, seconds, searches, start_line)
