"""What each step of a line achieves, in words: the narration of the line panel.

:func:`purpose` names the first of these that a move does (engine only): turns up a face-down
card, empties a column, brings a King to an empty column, frees the card the next move plays,
builds a foundation. :func:`tap_runs` finds the runs of stock taps and recycles, each shown as
one step, "turn the stock until 7♥", that :func:`run_text` words with its count of moves.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.engine.line import Line
>>> line = Line(deal(2), ["t4-f", "s", "s", "t3-t2"])
>>> [why(line, k, "en") for k in range(4)]
['turns up J♦', '', '', 'turns up 6♦']
>>> tap_runs(line.moves)
[(1, 2)]
>>> run_text(line, 1, 2, "en")
'turn the stock until 5♠ (2 taps)'
"""

from __future__ import annotations

from collections.abc import Sequence

from klondike_widget import i18n
from klondike_widget.engine.cards import CARD_RANK, KING, card_symbol
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move, MoveKind, moved_card
from klondike_widget.engine.state import GameState

__all__ = ["purpose", "run_text", "tap_runs", "why"]

_TALON = (MoveKind.DRAW, MoveKind.RECYCLE)
_FROM_COLUMN = (MoveKind.COLUMN_TO_COLUMN, MoveKind.COLUMN_TO_FOUNDATION)
_TO_FOUNDATION = (MoveKind.COLUMN_TO_FOUNDATION, MoveKind.WASTE_TO_FOUNDATION)


def _source_card(state: GameState, move: Move) -> int | None:
    """The card ``move`` picks up (the lowest of a run), or None for taps and recycles."""
    return None if move.kind in _TALON else moved_card(state, move)


def purpose(
    before: GameState, move: Move, after: GameState, next_move: Move | None
) -> tuple[str, dict[str, object]] | None:
    """``(key, values)`` of what ``move`` (from ``before`` to ``after``) achieves, or None.

    Keys: ``narrate.reveal`` (card), ``narrate.empty`` (column), ``narrate.king`` (card,
    column), ``narrate.frees`` (card), ``narrate.foundation`` (card).

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(2)
    >>> purpose(s, Move.parse("t4-f"), s.apply("t4-f"), None)
    ('narrate.reveal', {'card': 23})
    """
    kind = move.kind
    if kind in _TALON:
        return None
    if kind in _FROM_COLUMN:
        src = move.source
        if after.face_down[src] < before.face_down[src]:
            return "narrate.reveal", {"card": after.columns[src][-1]}
        if not after.columns[src]:
            return "narrate.empty", {"column": src + 1}
    card = _source_card(before, move)
    onto_column = kind in (MoveKind.COLUMN_TO_COLUMN, MoveKind.WASTE_TO_COLUMN)
    king = card is not None and CARD_RANK[card] == KING
    if onto_column and king and not before.columns[move.target]:
        return "narrate.king", {"card": card, "column": move.target + 1}
    if next_move is not None and next_move.kind not in _TALON:
        freed = _source_card(after, next_move)
        uncovered = (
            (kind in _FROM_COLUMN and next_move.source == move.source)
            if next_move.kind in _FROM_COLUMN
            else (
                next_move.kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION)
                and kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION)
            )
        )
        if uncovered and freed is not None:
            return "narrate.frees", {"card": freed}
    if kind in _TO_FOUNDATION and card is not None:
        return "narrate.foundation", {"card": card}
    return None


def _symbol(card: int, locale: str) -> str:
    rtl = i18n.load_locale(i18n.negotiate_locale(locale)).meta.dir == "rtl"
    return f"\u2066{card_symbol(card)}\u2069" if rtl else card_symbol(card)


def why(line: Line, k: int, locale: str) -> str:
    """What move ``k`` (0-based) of ``line`` achieves, in ``locale``; ``""`` when nothing.

    Raises ``IndexError`` if ``k`` is not a move of the line.
    """
    if not 0 <= k < len(line.moves):
        raise IndexError(f"move {k} is not on this line (0..{len(line.moves) - 1})")
    moves = line.moves
    found = purpose(line[k], moves[k], line[k + 1], moves[k + 1] if k + 1 < len(moves) else None)
    if found is None:
        return ""
    key, values = found
    if "card" in values:
        values = {**values, "card": _symbol(int(str(values["card"])), locale)}
    return i18n.text(key, locale, **values)


def tap_runs(moves: Sequence[Move]) -> list[tuple[int, int]]:
    """``(start, length)`` of every run of two or more taps and recycles in ``moves``.

    >>> tap_runs([Move.draw(), Move.parse("w-f"), Move.draw(), Move.recycle(), Move.draw()])
    [(2, 3)]
    """
    runs: list[tuple[int, int]] = []
    start = -1
    for i, move in enumerate((*moves, None)):
        talon = move is not None and move.kind in _TALON
        if talon and start < 0:
            start = i
        elif not talon and start >= 0:
            if i - start >= 2:
                runs.append((start, i - start))
            start = -1
    return runs


def run_text(line: Line, start: int, length: int, locale: str) -> str:
    """The step that stands for moves ``start .. start + length - 1`` (taps and recycles).

    Names the card on top of the waste after them ("turn the stock until 7♥") and counts them.
    """
    end = line[start + length]
    if not end.waste:
        return i18n.plural_text("narrate.turn_over", length, locale)
    card = _symbol(end.waste[-1], locale)
    return i18n.plural_text("narrate.stock_until", length, locale, card=card)
