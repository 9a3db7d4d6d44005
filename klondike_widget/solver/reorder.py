"""Shorter lines from the same moves in another order: :func:`reordered`.

Apart from its stock taps and recycles, a winning line is a sequence of *plays*
(:func:`plays_of`): a card (the one moved, the head of its run) and where it goes (a
foundation, onto a named card, or an empty column). The taps follow from the plays: before a
waste play, tap (and recycle) until that card is the waste's top card, and no sooner
(:func:`realize`). Playing one of the plays elsewhere in the sequence can take a waste card
during an earlier pass of the stock, or before more cards are turned over it, and save the taps
of a whole pass round to it. The beams of :mod:`.shorten` rank positions one layer at a time
and miss such lines: on the reference deals of seeds 1-30 (draw 1 seed 17: 7♥ onto 8♠ during
the first pass, not after the recycle) and on the held-out seeds 31-50 (draw 1 seed 48: 187
engine moves, 144 reordered, its local optimum, within :data:`REORDER_SHARE` of a second).

The search is a first-improvement local search: each play is tried at every other place in the
sequence (the waste plays at every earlier place first), and the first shorter line found
becomes the next one. A candidate that comes back to a position of the line it was made from
takes the rest of that line as it is. Its work is counted in engine moves played
(:data:`MOVES_PER_SECOND`), so a line and a budget give the same result on any machine. Nothing
here decides whether a line is legal or wins: every move is checked by the engine as it is
played (:func:`~klondike_widget.engine.moves.why_illegal`), and :mod:`.shorten` replays what it
returns.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.engine.line import Line
>>> from klondike_widget.solver import Limit, solve
>>> start = deal(2)
>>> found = solve(start, Limit(seconds=30), shorten=False).moves
>>> line = reordered(start, found, work=100_000)
>>> Line(start, line).is_winning, len(line) <= len(found)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from klondike_widget.engine.cards import CARD_SUIT
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move, MoveKind, apply_unchecked, moved_card, why_illegal
from klondike_widget.engine.state import GameState
from klondike_widget.solver.bridge import taps_to_waste_card

__all__ = [
    "EMPTY",
    "FOUNDATION",
    "MOVES_PER_SECOND",
    "REORDER_SHARE",
    "Play",
    "plays_of",
    "realize",
    "reorder_work",
    "reordered",
]

#: A play's destination when it goes to its foundation.
FOUNDATION = -1
#: A play's destination when it goes to an empty column (the first one, left to right).
EMPTY = -2
#: A play: ``(card, destination)``, the destination a card it goes onto, :data:`FOUNDATION`
#: or :data:`EMPTY`.
Play = tuple[int, int]
#: The engine moves :func:`reordered` plays (one for a play that cannot be played) in a second
#: of the shortening budget
#: (:func:`klondike_widget.solver.shorten.shorten`).
MOVES_PER_SECOND = 220_000

#: The reordering's work in a shortening budget, as a share of its seconds (at
#: :data:`MOVES_PER_SECOND`): :func:`~klondike_widget.solver.shorten.shorten` runs it after its
#: beams (whose work it leaves as it was: with a tenth of it taken away, held-out draw 1 seed 37
#: lost the one tail beam that finds its short line, 138 -> 174 engine moves), within the same
#: cap on the clock. At ``benchmarks/lines.py --seconds 1.0 --no-cap``: draw 1 3041 -> 3040
#: engine moves (seed 17 115 -> 114, Klondike-Solver's length), draw 3 2292 unchanged; held-out
#: seeds 31-50 1843 -> 1799 (seed 48 187 -> 144) and 1408 -> 1399 (seed 48 154 -> 145).
REORDER_SHARE = 0.1

_K = MoveKind
_TALON = (_K.DRAW, _K.RECYCLE)
_WASTE_TO_FOUNDATION = Move.waste_to_foundation()


def plays_of(start: GameState, moves: Sequence[Move]) -> list[Play]:
    """The plays of the line ``moves`` from ``start``: every move but taps and recycles.

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.engine.cards import card_name
    >>> [(card_name(c), card_name(d)) for c, d in plays_of(deal(2), [Move.parse("t3-t2")])]
    [('8d', '9c')]
    """
    plays = []
    for state, move in zip(Line(start, moves).states(), moves, strict=False):
        kind = move.kind
        if kind in _TALON:
            continue
        if kind in (_K.WASTE_TO_FOUNDATION, _K.COLUMN_TO_FOUNDATION):
            onto = FOUNDATION
        else:
            target = state.columns[move.target]
            onto = target[-1] if target else EMPTY
        plays.append((moved_card(state, move), onto))
    return plays


def realize(state: GameState, play: Play, moves: list[Move]) -> GameState | None:
    """Play ``play`` from ``state``, appending its engine moves (the taps it needs first, then
    the play) to ``moves``; the position after it, or ``None`` (and ``moves`` as it was) if it
    cannot be played there.

    >>> from klondike_widget.engine.deals import deal
    >>> moves = []
    >>> after = realize(deal(2), plays_of(deal(2), [Move.draw(), Move.parse("t3-t2")])[0], moves)
    >>> [str(m) for m in moves], after == deal(2).apply("t3-t2")
    (['t3-t2'], True)
    """
    card, onto = play
    taps: tuple[Move, ...] = ()
    move = None
    if _in_talon(state, card):
        found = taps_to_waste_card(state, card)
        if found is not None:
            taps = found
            for tap in taps:
                state = apply_unchecked(state, tap)
            move = _waste_move(state, onto)
    elif state.foundation_top(CARD_SUIT[card]) == card:
        target = _target(state, onto, -1)
        if target >= 0:
            move = Move.foundation_to_column(CARD_SUIT[card], target)
    else:
        move = _column_move(state, card, onto)
    if move is None or why_illegal(state, move) is not None:
        return None
    moves.extend(taps)
    moves.append(move)
    return apply_unchecked(state, move)


def _waste_move(state: GameState, onto: int) -> Move | None:
    """The move of the waste's top card to ``onto``, or ``None``."""
    if onto == FOUNDATION:
        return _WASTE_TO_FOUNDATION
    target = _target(state, onto, -1)
    return Move.waste_to_column(target) if target >= 0 else None


def reordered(
    start: GameState,
    moves: Sequence[Move],
    work: int,
    cancel: Callable[[], bool] | None = None,
) -> tuple[Move, ...]:
    """A winning line from ``start`` no longer than ``moves``: its plays in another order.

    Parameters
    ----------
    start : GameState
        Where the line starts.
    moves : sequence of Move
        A winning line from ``start`` (its moves are checked again as they are played).
    work : int
        How many engine moves the search may play (:data:`MOVES_PER_SECOND`).
    cancel : callable, optional
        Returns true to stop early (the shortest line so far is returned).

    Returns
    -------
    tuple of Move
        The shortest line found, ``tuple(moves)`` itself if none was shorter.
    """
    best = tuple(moves)
    left = _Work(work, cancel)
    if left.spent():
        return best
    states, _, realized = _prefixes(start, plays_of(start, best))
    if states[-1].is_won and len(realized) < len(best):
        best = tuple(realized)
    while True:
        line = _one_shorter(start, best, left)
        if line is None:
            return best
        best = line


def reorder_work(seconds: float) -> int:
    """The engine moves :func:`reordered` may play for a shortening budget of ``seconds``:
    :data:`REORDER_SHARE` of it at :data:`MOVES_PER_SECOND`.

    >>> reorder_work(1.0) == int(REORDER_SHARE * MOVES_PER_SECOND)
    True
    """
    return int(REORDER_SHARE * seconds * MOVES_PER_SECOND)


class _Work:
    """The engine moves left to play, and the cancel test."""

    def __init__(self, moves: int, cancel: Callable[[], bool] | None) -> None:
        self.left = moves
        self.cancel = cancel

    def spent(self) -> bool:
        """True if no work is left or the search is cancelled."""
        return self.left <= 0 or (self.cancel is not None and self.cancel())

    def play(self, state: GameState, play: Play, moves: list[Move], most: int) -> GameState | None:
        """:func:`realize` ``play``, charged its engine moves (one if it cannot be played);
        ``None`` if it cannot be played or ``moves`` then pass ``most``."""
        before = len(moves)
        after = realize(state, play, moves)
        self.left -= max(1, len(moves) - before)
        return None if after is None or len(moves) > most else after


def _one_shorter(start: GameState, best: tuple[Move, ...], work: _Work) -> tuple[Move, ...] | None:
    """The first shorter line with one play of ``best`` moved, or ``None`` (no such line, or
    no work left)."""
    plays = plays_of(start, best)
    states, lengths, realized = _prefixes(start, plays)
    if len(states) <= len(plays):
        # in draw 3, a play taken at the first chance leaves another waste, in which a later
        # play may not come to the top: the line cannot be replayed play by play
        return None
    for i, j in _places(states, plays):
        if work.spent():
            return None
        if j < i:
            first, order = j, [plays[i], *plays[j:i]]
        else:
            first, order = i, [*plays[i + 1 : j], plays[i]]
        moves = realized[: lengths[first]]
        state = _realize_all(states[first], order, work, moves, len(best) - 1)
        if state is not None:
            rejoin = first + len(order)
            ending = _Ending(states, lengths, realized, rejoin)
            line = _finish(state, plays[rejoin:], work, moves, len(best) - 1, ending)
            if line is not None:
                return line
    return None


def _places(states: list[GameState], plays: list[Play]) -> Iterator[tuple[int, int]]:
    """``(i, j)``: play ``i`` tried before play ``j`` (after play ``j - 1`` if ``j > i``).
    First the waste plays, each at every earlier place (the likeliest to save taps), then
    every play at every other place."""
    count = len(plays)
    talon = [i for i in range(count) if _in_talon(states[i], plays[i][0])]
    for i in talon:
        yield from ((i, j) for j in range(i - 1, -1, -1))
    for i in range(count):
        if i not in talon:
            yield from ((i, j) for j in range(i - 1, -1, -1))
        yield from ((i, j) for j in range(i + 2, count + 1))


def _in_talon(state: GameState, card: int) -> bool:
    """True if ``card`` is in the stock or the waste of ``state``."""
    return card in state.waste or card in state.stock


def _prefixes(start: GameState, plays: list[Play]) -> tuple[list[GameState], list[int], list[Move]]:
    """The position after each prefix of ``plays`` (realized), its length in engine moves, and
    the moves of them all; up to the first play that cannot be played, if one cannot."""
    states, lengths, moves = [start], [0], list[Move]()
    for play in plays:
        after = realize(states[-1], play, moves)
        if after is None:
            break
        states.append(after)
        lengths.append(len(moves))
    return states, lengths, moves


def _realize_all(
    state: GameState, plays: Sequence[Play], work: _Work, moves: list[Move], most: int
) -> GameState | None:
    """Play ``plays`` from ``state``, appending their engine moves to ``moves``: the position
    after them, or ``None`` if one cannot be played or the moves pass ``most``."""
    current: GameState | None = state
    for play in plays:
        assert current is not None
        current = work.play(current, play, moves, most)
        if current is None:
            return None
    return current


@dataclass(frozen=True)
class _Ending:
    """The line being shortened, realized (:func:`_prefixes`): the position after each
    prefix of its plays, its length, and the moves of them all; ``at`` is the index of the
    next play of it that a candidate line plays."""

    states: list[GameState]
    lengths: list[int]
    moves: list[Move]
    at: int


def _finish(
    state: GameState,
    plays: Sequence[Play],
    work: _Work,
    moves: list[Move],
    most: int,
    ending: _Ending,
) -> tuple[Move, ...] | None:
    """``moves`` and those of ``plays`` from ``state`` (the rest of the line being shortened),
    if they win in at most ``most`` moves in all. Where the position is the line's own one
    (``ending``), the rest is the line's own rest, not played again."""
    current: GameState | None = state
    for k, play in enumerate(plays, ending.at):
        if current == ending.states[k]:
            rest = ending.moves[ending.lengths[k] :]
            return tuple(moves + rest) if len(moves) + len(rest) <= most else None
        assert current is not None
        current = work.play(current, play, moves, most)
        if current is None:
            return None
    return tuple(moves) if current is not None and current.is_won else None


def _target(state: GameState, onto: int, source: int) -> int:
    """The column a play to ``onto`` goes to (not ``source``), or -1."""
    for index, column in enumerate(state.columns):
        if index == source:
            continue
        if (column[-1] == onto) if column else onto == EMPTY:
            return index
    return -1


def _column_move(state: GameState, card: int, onto: int) -> Move | None:
    """The move of ``card`` and the run on it from its column to ``onto``, or ``None``."""
    for source, column in enumerate(state.columns):
        if card in column:
            count = len(column) - column.index(card)
            if onto == FOUNDATION:
                return Move.column_to_foundation(source) if count == 1 else None
            target = _target(state, onto, source)
            return None if target < 0 else Move.column_to_column(source, target, count)
    return None
