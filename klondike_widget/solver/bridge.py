"""Between the engine and the compiled core: positions to arrays, move codes to engine moves.

The array layout is defined in :mod:`klondike_widget.solver.core`. This module is plain Python
(it imports numpy and the core's constants, which loads numba but compiles nothing).

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> S = encode_state(deal(1))
>>> decode_state(S, deal(1).rules) == deal(1)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import numpy as np

from klondike_widget.engine.cards import can_stack
from klondike_widget.engine.moves import Move, apply_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver.coldstart import CORE as core  # no numba import needed

__all__ = [
    "encode_state",
    "decode_state",
    "talon_sequence",
    "code_fields",
    "engine_moves",
    "engine_line",
    "reach_waste_card",
    "taps_to_waste_card",
    "with_override",
]


def talon_sequence(state: GameState) -> tuple[int, ...]:
    """The talon in the order the core sees it: the waste, then the stock in tap order.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(1).apply("s")
    >>> talon_sequence(s)[0] == s.waste[-1]
    True
    """
    return state.waste + state.stock[::-1]


def encode_state(
    state: GameState,
    foundation_to_tableau: bool | None = None,
    dominances: bool | int = True,
    always: int = core.ALW_ALL,
) -> np.ndarray:
    """The int32 array ``S`` of ``state`` (``foundation_to_tableau`` overrides the rules).

    ``dominances`` switches on the prunings that need an argument (``core.O_DOM``): all of them
    (True), none (False) or the given bits (an int, for tests). ``always`` holds the switches of
    the always-on rules (``core.O_ALW``; tests turn them off one at a time).
    """
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    for c, col in enumerate(state.columns):
        S[core.O_COLS + c * core.CAP : core.O_COLS + c * core.CAP + len(col)] = col
        S[core.O_LEN + c] = len(col)
        S[core.O_FD + c] = state.face_down[c]
    S[core.O_FND : core.O_FND + 4] = state.foundations
    talon = talon_sequence(state)
    S[core.O_TAL : core.O_TAL + len(talon)] = talon
    S[core.O_TN] = len(talon)
    S[core.O_TP] = len(state.waste)
    S[core.O_DRAW] = state.rules.draw
    f2t = (
        state.rules.foundation_to_tableau
        if foundation_to_tableau is None
        else foundation_to_tableau
    )
    S[core.O_F2T] = 1 if f2t else 0
    if isinstance(dominances, bool):
        S[core.O_DOM] = core.DOM_ALL if dominances else 0
    else:
        S[core.O_DOM] = dominances & core.DOM_BITS
    S[core.O_ALW] = always & core.ALW_ALL
    if not face_up_runs(state):
        S[core.O_DOM] &= ~32  # twin classes rest on every face-up part being a run
    return S


def face_up_runs(state: GameState) -> bool:
    """True if the face-up cards of every column form a run (alternating colours, down by one).

    Play from a deal keeps it so; a position built by hand may not.

    >>> from klondike_widget.engine.deals import deal
    >>> face_up_runs(deal(1))
    True
    """
    for col, fd in zip(state.columns, state.face_down, strict=True):
        for k in range(fd + 1, len(col)):
            if not can_stack(col[k], col[k - 1]):
                return False
    return True


def decode_state(S: np.ndarray, rules: Rules) -> GameState:
    """The :class:`GameState` of array ``S`` (validated)."""
    columns = []
    face_down = []
    for c in range(core.NCOL):
        n = int(S[core.O_LEN + c])
        columns.append(
            [int(x) for x in S[core.O_COLS + c * core.CAP : core.O_COLS + c * core.CAP + n]]
        )
        face_down.append(int(S[core.O_FD + c]))
    tn = int(S[core.O_TN])
    tp = int(S[core.O_TP])
    talon = [int(x) for x in S[core.O_TAL : core.O_TAL + tn]]
    return GameState(
        columns,
        face_down,
        stock=talon[tp:][::-1],
        waste=talon[:tp],
        foundations=[int(x) for x in S[core.O_FND : core.O_FND + 4]],
        rules=rules,
    )


def code_fields(code: int) -> tuple[int, int, int, int, int]:
    """``(kind, card, src, dst, count)`` of a move code.

    >>> code_fields(int(core.encode(core.K_COL_COL, 12, 3, 5, 2, 20)))
    (3, 12, 3, 5, 2)
    """
    return (
        code & 7,
        (code >> 3) & 63,
        (code >> 9) & 63,
        (code >> 15) & 7,
        (code >> 18) & 31,
    )


def taps_to_waste_card(state: GameState, card: int) -> tuple[Move, ...] | None:
    """The taps and recycles that bring talon ``card`` to the top of the waste, or ``None``
    if none do (in draw 3 a card may sit inside every group of three a pass turns).

    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.engine.rules import Rules
    >>> s = deal(1)
    >>> [str(m) for m in taps_to_waste_card(s, s.stock[-3])]
    ['s', 's', 's']
    >>> taps_to_waste_card(deal(1, Rules(draw=3)), deal(1, Rules(draw=3)).stock[-2]) is None
    True
    """
    seq = talon_sequence(state)
    target = seq.index(card) + 1
    p, n, k = len(state.waste), len(seq), state.rules.draw
    taps: list[Move] = []
    for _ in range(2 * (n // k + 2)):
        if p == target:
            return tuple(taps)
        if p < n:
            p = min(p + k, n)
            taps.append(Move.draw())
        else:
            p = 0
            taps.append(Move.recycle())
    return None


def reach_waste_card(state: GameState, card: int) -> tuple[Move, ...]:
    """:func:`taps_to_waste_card` of a card the core plays from the waste (so one that comes
    to the top).

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(1)
    >>> [str(m) for m in reach_waste_card(s, s.stock[-3])]
    ['s', 's', 's']
    """
    taps = taps_to_waste_card(state, card)
    if taps is None:
        raise AssertionError(f"talon card {card} is not reachable")  # the core never asks this
    return taps


@cache
def _board_moves(kind: int, src: int, dst: int, count: int) -> tuple[Move, ...]:
    """The engine moves of a move code that leaves the talon alone (built, and checked, once).

    >>> _board_moves(core.K_SWAP_FND, 2, 4, 1)
    (Move.parse('t3-t5'), Move.parse('t3-f'))
    """
    if kind == core.K_COL_FND:
        return (Move.column_to_foundation(src),)
    if kind == core.K_COL_COL:
        return (Move.column_to_column(src, dst, count),)
    if kind == core.K_FND_COL:
        return (Move.foundation_to_column(src, dst),)
    if kind == core.K_SWAP_FND:
        return (Move.column_to_column(src, dst, count), Move.column_to_foundation(src))
    raise AssertionError(f"internal error: no move code has kind {kind}")  # the core never does


_waste_to_column = cache(Move.waste_to_column)


def engine_moves(state: GameState, code: int) -> list[Move]:
    """The engine moves that carry out one move code in ``state`` (taps and recycles included).

    Moves are values (frozen), so the board moves of a code are built once and shared.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(1)
    >>> code = int(core.encode(core.K_TAL_COL, s.stock[-2], 0, 3, 1, 0))
    >>> [str(m) for m in engine_moves(s, code)]
    ['s', 's', 'w-t4']
    """
    kind, card, src, dst, count = code_fields(code)
    if kind == core.K_TAL_FND:
        return [*reach_waste_card(state, card), Move.waste_to_foundation()]
    if kind == core.K_TAL_COL:
        return [*reach_waste_card(state, card), _waste_to_column(dst)]
    return list(_board_moves(kind, src, dst, count))


def engine_line(state: GameState, codes: Iterable[int]) -> tuple[GameState, tuple[Move, ...]]:
    """The engine moves of move codes played in order from ``state`` (:func:`engine_moves`),
    replayed through the engine, and the position they lead to. Raises the engine's
    :class:`~klondike_widget.engine.errors.IllegalMoveError` where the core and the engine
    disagree.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(1)  # A♦ on column 6, 9♠ on column 1 goes onto 10♦ on column 5
    >>> up = core.encode(core.K_COL_FND, s.columns[5][-1], 5, 0, 1, 0)
    >>> across = core.encode(core.K_COL_COL, s.columns[0][-1], 0, 4, 1, 0)
    >>> end, moves = engine_line(s, [int(up), int(across)])
    >>> [str(m) for m in moves], end.foundations, end.columns[0]
    (['t6-f', 't1-t5'], (0, 1, 0, 0), ())
    """
    played: list[Move] = []
    for code in codes:
        moves = engine_moves(state, int(code))
        state = apply_moves(state, moves)
        played.extend(moves)
    return state, tuple(played)


def with_override(state: GameState, foundation_to_tableau: bool | None) -> GameState:
    """``state`` under its own rules but with ``foundation_to_tableau`` (``None``: unchanged).

    The solver searches, and replays its line, under these rules, so a line found with the
    override is legal under it (and may not be under the position's own rules).

    >>> from klondike_widget.deals import deal
    >>> with_override(deal(1), False).rules
    Rules(draw=1, foundation_to_tableau=False)
    >>> with_override(deal(1), None) is deal(1) or with_override(deal(1), None) == deal(1)
    True
    """
    if foundation_to_tableau is None or foundation_to_tableau == state.rules.foundation_to_tableau:
        return state
    return state.replace(rules=Rules(state.rules.draw, foundation_to_tableau))
