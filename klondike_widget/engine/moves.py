"""Legal moves: why a move is illegal, the legal moves of a position, and playing a move.

The move itself (:class:`Move`, :class:`MoveKind`, the text notation) is in
:mod:`klondike_widget.engine.move`; both names are importable from here too.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> s = deal(2)
>>> moves = s.legal_moves
>>> Move.draw() in moves, len(moves) == len(list(moves)), bool(moves)
(True, True, True)
>>> apply_move(s, Move.parse("t3-t2")).columns[1][-1] == s.columns[2][-1]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from klondike_widget.engine.cards import (
    CARD_RANK,
    CARD_SUIT,
    KING,
    RANKS,
    STACKS_ON,
    SUIT_LETTERS,
    card_symbol,
)
from klondike_widget.engine.errors import (
    IllegalMoveError,
    InvalidMoveError,
    quote,
)
from klondike_widget.engine.move import Move, MoveKind, parse_or_none
from klondike_widget.engine.rules import NUM_COLUMNS

if TYPE_CHECKING:  # the position module imports this one
    from klondike_widget.engine.state import Cards, GameState

__all__ = [
    "ALL_MOVES",
    "LegalMoves",
    "Move",
    "MoveKind",
    "apply_move",
    "apply_moves",
    "apply_unchecked",
    "generate_moves",
    "moved_card",
    "parse_move_in",
    "why_illegal",
]


_K = MoveKind
_ALL_HOME = (RANKS, RANKS, RANKS, RANKS)
_DRAW = Move.draw()
_RECYCLE = Move.recycle()
_WASTE_TO_FOUNDATION = Move.waste_to_foundation()
# Every move built once, looked up by index in the hot paths (target index last).
# ``_COLUMN_TO[source][count - 1][target]``; a column's own index holds a placeholder that the
# generator never reaches (it skips the source column).
_WASTE_TO = tuple(Move(_K.WASTE_TO_COLUMN, 0, t) for t in range(NUM_COLUMNS))
_COLUMN_TO_FOUNDATION = tuple(Move(_K.COLUMN_TO_FOUNDATION, s) for s in range(NUM_COLUMNS))
_COLUMN_TO: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(
        tuple(Move(_K.COLUMN_TO_COLUMN, s, t, n) if t != s else _DRAW for t in range(NUM_COLUMNS))
        for n in range(1, RANKS + 1)
    )
    for s in range(NUM_COLUMNS)
)
_FOUNDATION_TO = tuple(
    tuple(Move(_K.FOUNDATION_TO_COLUMN, u, t) for t in range(NUM_COLUMNS)) for u in range(4)
)


def parse_move_in(state: GameState, text: str) -> Move:
    """Parse ``text`` in ``state``: ``"t3-t6"`` resolves to the legal run move if one exists.

    >>> from klondike_widget.engine.deals import deal
    >>> parse_move_in(deal(1), "s")
    Move.parse('s')
    """
    move = Move.parse(text)
    if move.kind is _K.COLUMN_TO_COLUMN and ":" not in text and why_illegal(state, move):
        for candidate in generate_moves(state):
            if (
                candidate.kind is _K.COLUMN_TO_COLUMN
                and candidate.source == move.source
                and candidate.target == move.target
            ):
                return candidate
    return move


# -- legality ------------------------------------------------------------------------------------


def _fits_column(card: int, target_top: int | None) -> bool:
    if target_top is None:
        return CARD_RANK[card] == KING
    return target_top in STACKS_ON[card]


def _is_run(cards: tuple[int, ...]) -> bool:
    return all(cards[i] in STACKS_ON[cards[i + 1]] for i in range(len(cards) - 1))


def _placement_problem(card: int, state: GameState, column: int) -> str | None:
    top = state.top(column)
    if _fits_column(card, top):
        return None
    if top is None:
        return (
            "only a King or a run headed by a King may go to an empty column, "
            f"not {card_symbol(card)}"
        )
    return (
        f"{card_symbol(card)} cannot go on {card_symbol(top)} in column {column + 1}: "
        "a card goes on one rank higher of the other colour"
    )


def why_illegal(state: GameState, move: Move) -> str | None:
    """``None`` if ``move`` is legal in ``state``, otherwise the reason in plain English.

    >>> from klondike_widget.engine.deals import deal
    >>> why_illegal(deal(1), Move.recycle())
    'the stock is not empty: tap it instead of recycling'
    """
    if state.is_won:
        return _GAME_OVER
    kind = move.kind
    if kind is _K.DRAW or kind is _K.RECYCLE:
        return _turn_problem(state.stock, state.waste, kind)
    if kind in (_K.WASTE_TO_COLUMN, _K.WASTE_TO_FOUNDATION):
        if not state.waste:
            return "the waste is empty"
        card = state.waste[-1]
        if kind is _K.WASTE_TO_FOUNDATION:
            return _foundation_problem(state, card)
        return _placement_problem(card, state, move.target)
    if kind is _K.COLUMN_TO_FOUNDATION:
        top = state.top(move.source)
        if top is None:
            return f"column {move.source + 1} is empty"
        return _foundation_problem(state, top)
    if kind is _K.COLUMN_TO_COLUMN:
        up = state.face_up(move.source)
        if not up:
            return f"column {move.source + 1} is empty"
        if move.count > len(up):
            return (
                f"column {move.source + 1} has only {len(up)} face-up cards, "
                f"cannot move {move.count}"
            )
        run = up[-move.count :]
        if not _is_run(run):
            return (
                f"the top {move.count} cards of column {move.source + 1} do not form a run "
                "descending in alternating colours"
            )
        return _placement_problem(run[0], state, move.target)
    # FOUNDATION_TO_COLUMN
    if not state.rules.foundation_to_tableau:
        return "these rules do not allow moving a card back from a foundation"
    card_or_none = state.foundation_top(move.source)
    if card_or_none is None:
        return f"the {SUIT_LETTERS[move.source]} foundation is empty"
    return _placement_problem(card_or_none, state, move.target)


_GAME_OVER = "the game is won: all 52 cards are on the foundations"


def _turn_problem(stock: Cards, waste: Cards, kind: MoveKind) -> str | None:
    """Why a tap (``kind`` DRAW) or a recycle cannot be made with this stock and waste, or
    ``None``: the whole rule of both, the game not being over aside."""
    if kind is _K.DRAW:
        return None if stock else "the stock is empty: turn the waste over instead"
    if stock:
        return "the stock is not empty: tap it instead of recycling"
    return None if waste else "the stock and the waste are both empty"


def _turn(stock: Cards, waste: Cards, kind: MoveKind, draw: int) -> tuple[Cards, Cards]:
    """The stock and the waste after a legal tap (``kind`` DRAW, ``draw`` cards or what is
    left) or recycle (the waste turned over)."""
    if kind is _K.DRAW:
        turned = stock[-draw:]
        return stock[: -len(turned)], waste + turned[::-1]
    return waste[::-1], ()


def _foundation_problem(state: GameState, card: int) -> str | None:
    need = state.foundations[CARD_SUIT[card]]
    if CARD_RANK[card] == need:
        return None
    return f"{card_symbol(card)} cannot go to its foundation yet: it needs rank {need + 1} next"


# -- generation ----------------------------------------------------------------------------------


def generate_moves(state: GameState) -> Iterator[Move]:
    """Yield every legal move of ``state`` once, in a fixed order.

    Order: waste to foundation, waste to columns, columns to foundations, column to column
    (single cards first, then longer runs), foundation to columns, then the stock tap or recycle.
    A won position has no moves: the game is over.

    >>> from klondike_widget.engine.deals import deal
    >>> [str(m) for m in generate_moves(deal(2))]
    ['t4-f', 't6-f', 't3-t2', 't4-t1', 's']
    """
    return iter(legal_move_list(state))


def legal_move_list(state: GameState) -> list[Move]:
    """The legal moves of ``state`` as a new list (the order of :func:`generate_moves`)."""
    found = state.foundations
    out: list[Move] = []
    if found == _ALL_HOME:
        return out
    columns = state.columns
    face_down = state.face_down
    tops = [col[-1] if col else -1 for col in columns]
    empties = [t for t in range(NUM_COLUMNS) if tops[t] < 0]
    if state.waste:
        card = state.waste[-1]
        if found[CARD_SUIT[card]] == CARD_RANK[card]:
            out.append(_WASTE_TO_FOUNDATION)
        _onto_columns(out, card, tops, empties, _WASTE_TO, -1)
    for s in range(NUM_COLUMNS):
        card = tops[s]
        if card >= 0 and found[CARD_SUIT[card]] == CARD_RANK[card]:
            out.append(_COLUMN_TO_FOUNDATION[s])
    for s in range(NUM_COLUMNS):
        col = columns[s]
        n = len(col)
        down = face_down[s]
        i = n - 1
        while i >= down:
            card = col[i]
            _onto_columns(out, card, tops, empties, _COLUMN_TO[s][n - i - 1], s)
            if i > down and col[i - 1] not in STACKS_ON[card]:
                break
            i -= 1
    if state.rules.foundation_to_tableau:
        for suit in range(4):
            height = found[suit]
            if height:
                _onto_columns(
                    out, suit * RANKS + height - 1, tops, empties, _FOUNDATION_TO[suit], -1
                )
    if state.stock:
        out.append(_DRAW)
    elif state.waste:
        out.append(_RECYCLE)
    return out


def _onto_columns(
    out: list[Move],
    card: int,
    tops: list[int],
    empties: list[int],
    by_target: tuple[Move, ...],
    skip: int,
) -> None:
    targets = STACKS_ON[card]
    for t in range(NUM_COLUMNS):
        if t != skip and tops[t] in targets:
            out.append(by_target[t])
    if empties and CARD_RANK[card] == KING:
        for t in empties:
            out.append(by_target[t])


class LegalMoves:
    """A lazy view of a position's legal moves, in the order of :func:`generate_moves`.

    >>> from klondike_widget.engine.deals import deal
    >>> lm = deal(2).legal_moves
    >>> len(lm), lm.count(), Move.parse("t3-t2") in lm, "s" in lm, list(lm)[0]
    (5, 5, True, True, Move.parse('t4-f'))
    """

    __slots__ = ("_state",)

    def __init__(self, state: GameState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return generate_moves(self._state)

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            parsed = parse_or_none(move)
            return parsed is not None and why_illegal(self._state, parsed) is None
        return isinstance(move, Move) and why_illegal(self._state, move) is None

    def __len__(self) -> int:
        return sum(1 for _ in generate_moves(self._state))

    def count(self) -> int:
        """Number of legal moves."""
        return len(self)

    def __bool__(self) -> bool:
        return any(True for _ in generate_moves(self._state))

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


def moved_card(state: GameState, move: Move) -> int:
    """The card ``move`` picks up in ``state``: the lowest of the run it moves.

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.engine.cards import card_name
    >>> card_name(moved_card(deal(2), Move.parse("t3-t2")))
    '8d'
    >>> moved_card(deal(2), Move.draw())
    Traceback (most recent call last):
    ...
    klondike_widget.engine.errors.InvalidMoveError: a tap or a recycle moves no single card
    """
    kind = move.kind
    if kind in (_K.WASTE_TO_COLUMN, _K.WASTE_TO_FOUNDATION):
        return state.waste[-1]
    if kind is _K.COLUMN_TO_FOUNDATION:
        return state.columns[move.source][-1]
    if kind is _K.COLUMN_TO_COLUMN:
        return state.columns[move.source][-move.count]
    if kind is _K.FOUNDATION_TO_COLUMN:
        return move.source * RANKS + state.foundations[move.source] - 1
    raise InvalidMoveError("a tap or a recycle moves no single card")


# -- application ---------------------------------------------------------------------------------


def apply_move(state: GameState, move: Move) -> GameState:
    """The position after ``move``; raise :class:`IllegalMoveError` (with the reason) if illegal.

    >>> from klondike_widget.engine.deals import deal
    >>> apply_move(deal(1), Move.recycle())
    Traceback (most recent call last):
    ...
    klondike_widget.engine.errors.IllegalMoveError: the stock is not empty: tap it instead of \
recycling
    """
    if not isinstance(move, Move):
        raise InvalidMoveError(f"not a move: {quote(move)}")
    reason = why_illegal(state, move)
    if reason is not None:
        raise IllegalMoveError(reason)
    return apply_unchecked(state, move)


def apply_moves(state: GameState, moves: Iterable[Move]) -> GameState:
    """The position after ``moves``, played in order; raise :class:`IllegalMoveError` (with
    the reason) at the first illegal one.

    The same as :func:`apply_move` move by move, in less time when taps and recycles follow
    each other (as in a solver's line: more than half its moves in draw 1): they change only
    the stock and the waste, which are turned by the same rule (:func:`_turn_problem`,
    :func:`_turn`) with one position built at the end of the run.

    >>> from klondike_widget.engine.deals import deal
    >>> s = t = deal(1)
    >>> line = [Move.draw()] * 24 + [Move.recycle(), Move.draw(), Move.parse("t6-f")]
    >>> for move in line:
    ...     t = apply_move(t, move)
    >>> apply_moves(s, line) == t, len(t.stock), len(t.waste), t.foundations
    (True, 23, 1, (0, 1, 0, 0))
    >>> apply_moves(s, [Move.draw()] * 25)
    Traceback (most recent call last):
    ...
    klondike_widget.engine.errors.IllegalMoveError: the stock is empty: turn the waste over instead
    """
    talon: tuple[Cards, Cards] | None = None  # the stock and the waste of a run of turns
    for move in moves:
        kind = move.kind if isinstance(move, Move) else None
        if kind is not _K.DRAW and kind is not _K.RECYCLE:
            if talon is not None:
                state = _with_talon(state, *talon)
                talon = None
            state = apply_move(state, move)
            continue
        if talon is None:
            if state.is_won:
                raise IllegalMoveError(_GAME_OVER)
            talon = (state.stock, state.waste)
        reason = _turn_problem(*talon, kind)
        if reason is not None:
            raise IllegalMoveError(reason)
        talon = _turn(*talon, kind, state.rules.draw)
    return state if talon is None else _with_talon(state, *talon)


def _with_talon(state: GameState, stock: Cards, waste: Cards) -> GameState:
    """``state`` with this stock and waste (turned from its own by legal taps and recycles)."""
    return state._unchecked(
        state.columns, state.face_down, stock, waste, state.foundations, state.rules
    )


def apply_unchecked(state: GameState, move: Move) -> GameState:
    """The position after a move already known to be legal (no checks: fast path)."""
    kind = move.kind
    columns = state.columns
    face_down = state.face_down
    stock = state.stock
    waste = state.waste
    found = state.foundations
    if kind is _K.DRAW or kind is _K.RECYCLE:
        stock, waste = _turn(stock, waste, kind, state.rules.draw)
        return state._unchecked(columns, face_down, stock, waste, found, state.rules)
    if kind is _K.WASTE_TO_FOUNDATION:
        return state._unchecked(
            columns, face_down, stock, waste[:-1], _raise(found, waste[-1]), state.rules
        )
    if kind is _K.WASTE_TO_COLUMN:
        cols = list(columns)
        cols[move.target] = columns[move.target] + waste[-1:]
        return state._unchecked(tuple(cols), face_down, stock, waste[:-1], found, state.rules)
    if kind is _K.FOUNDATION_TO_COLUMN:
        suit = move.source
        height = found[suit]
        cols = list(columns)
        cols[move.target] = columns[move.target] + (suit * RANKS + height - 1,)
        new_found = list(found)
        new_found[suit] = height - 1
        return state._unchecked(tuple(cols), face_down, stock, waste, tuple(new_found), state.rules)
    source = move.source
    col = columns[source]
    count = move.count
    remaining = col[:-count]
    cols = list(columns)
    cols[source] = remaining
    down = face_down[source]
    if down and len(remaining) == down:
        fd = list(face_down)
        fd[source] = down - 1
        face_down = tuple(fd)
    if kind is _K.COLUMN_TO_FOUNDATION:
        return state._unchecked(
            tuple(cols), face_down, stock, waste, _raise(found, col[-1]), state.rules
        )
    cols[move.target] = columns[move.target] + col[-count:]
    return state._unchecked(tuple(cols), face_down, stock, waste, found, state.rules)


def _raise(found: tuple[int, ...], card: int) -> tuple[int, ...]:
    new = list(found)
    new[CARD_SUIT[card]] += 1
    return tuple(new)


#: Every well-formed move (legal somewhere or not): a brute-force reference for generators.
ALL_MOVES: tuple[Move, ...] = (
    _DRAW,
    _RECYCLE,
    _WASTE_TO_FOUNDATION,
    *_WASTE_TO,
    *_COLUMN_TO_FOUNDATION,
    *(m for s in range(NUM_COLUMNS) for row in _COLUMN_TO[s] for m in row if m is not _DRAW),
    *(m for row in _FOUNDATION_TO for m in row),
)
