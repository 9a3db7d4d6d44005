"""Cards and moves in words: screen-reader card names, move descriptions, announcements."""

from __future__ import annotations

from klondike_widget.engine.cards import card_name, card_symbol
from klondike_widget.engine.errors import IllegalMoveError
from klondike_widget.engine.moves import Move, MoveKind, moved_card, why_illegal
from klondike_widget.engine.state import GameState
from klondike_widget.i18n.catalog import _card_label, default_catalog
from klondike_widget.i18n.plural import format_template

__all__ = ["announce_move", "card_label", "describe_move"]

# Unicode isolates keep "10♠" reading left to right inside right-to-left text.
_LRI, _PDI = "\u2066", "\u2069"


def card_label(card: int, locale: str) -> str:
    """The name of ``card`` (0..51) for screen readers in ``locale``.

    >>> from klondike_widget.engine.cards import parse_card
    >>> [card_label(parse_card(c), "pl") for c in ("Ks", "Qd", "Ac")]
    ['król pik', 'dama karo', 'as trefl']
    >>> card_label(parse_card("Qh"), "tr"), card_label(parse_card("Ks"), "ar")
    ('kupa kızı', 'ملك البستوني')
    """
    card_name(card)  # validates: raises InvalidCardError for anything but 0..51
    return _card_label(default_catalog._strings(default_catalog.negotiate(locale)), card)


def _check_legal(state: GameState, move: Move) -> None:
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, not {state!r}")
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, not {move!r}")
    reason = why_illegal(state, move)
    if reason is not None:
        raise IllegalMoveError(reason)


def describe_move(state: GameState, move: Move, locale: str) -> str:
    """A short readable description of ``move``, played in ``state``, for solver lines and hints.

    Cards appear as symbols (``9♥``); in right-to-left locales each symbol is wrapped in Unicode
    isolates (U+2066 .. U+2069) so that ``10♠`` is never reordered. Columns are numbered from 1.
    Raises :class:`~klondike_widget.engine.errors.IllegalMoveError` if ``move`` is not legal in
    ``state``.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(2)
    >>> describe_move(s, Move.parse("t3-t2"), "en")
    '8♦ from column 3 onto 9♣ in column 2'
    >>> describe_move(s, Move.parse("t3-t2"), "pl")
    '8♦ z kolumny 3 na 9♣ w kolumnie 2'
    >>> describe_move(s, Move.draw(), "tr"), describe_move(s, Move.parse("t4-f"), "en")
    ('çekme destesine dokunun', 'A♠ from column 4 to the foundation')
    """
    _check_legal(state, move)
    code = default_catalog.negotiate(locale)
    strings = default_catalog._strings(code)
    rtl = default_catalog.load(code).meta.dir == "rtl"

    def sym(card: int) -> str:
        return f"{_LRI}{card_symbol(card)}{_PDI}" if rtl else card_symbol(card)

    kind = move.kind
    if kind is MoveKind.DRAW:
        return strings["move.draw"]
    if kind is MoveKind.RECYCLE:
        return strings["move.recycle"]
    card = moved_card(state, move)
    values: dict[str, object] = {"card": sym(card)}
    if kind in (MoveKind.WASTE_TO_FOUNDATION, MoveKind.COLUMN_TO_FOUNDATION):
        values["from"] = move.source + 1
        return format_template(strings[f"move.{kind.name.lower()}"], values)
    target_top = state.top(move.target)
    empty = "_empty" if target_top is None else ""
    if target_top is not None:
        values["target"] = sym(target_top)
    if kind is MoveKind.COLUMN_TO_COLUMN:
        values.update({"from": move.source + 1, "to": move.target + 1})
        if move.count > 1:
            return default_catalog.plural_text(
                f"move.run_to{empty}_column", move.count - 1, code, **values
            )
        return format_template(strings[f"move.column_to{empty}_column"], values)
    values["column"] = move.target + 1
    prefix = "waste" if kind is MoveKind.WASTE_TO_COLUMN else "foundation"
    return format_template(strings[f"move.{prefix}_to{empty}_column"], values)


def _sentence(text: str, code: str) -> str:
    """Upper-case the first letter (Turkish dotted and dotless i kept apart)."""
    if not text:
        return text
    first = text[0]
    if code == "tr" and first in "iı":
        first = "İ" if first == "i" else "I"
    return first.upper() + text[1:]


def announce_move(state: GameState, move: Move, locale: str) -> str:
    """The aria-live sentence for ``move`` played in ``state``, with spoken card names.

    Says which card ends on top of the waste after a stock tap, and which card turned face up
    when a move uncovers one. The first letter is upper case (the card names themselves are
    lower case, as in running text). Raises
    :class:`~klondike_widget.engine.errors.IllegalMoveError` if ``move`` is not legal in ``state``.

    >>> from klondike_widget.engine.deals import deal
    >>> s = deal(2)
    >>> announce_move(s, Move.parse("t4-f"), "en")
    'Ace of spades from column 4 to the foundation. Turned face up in column 4: jack of diamonds.'
    >>> announce_move(s, Move.draw(), "pl")
    'Na wierzchu stosu odkrytego: dziesiątka trefl.'
    """
    _check_legal(state, move)
    code = default_catalog.negotiate(locale)
    strings = default_catalog._strings(code)
    after = state.apply(move)
    kind = move.kind
    if kind is MoveKind.RECYCLE:
        return strings["announce.recycle"]
    if kind is MoveKind.DRAW:
        drawn = len(state.stock) - len(after.stock)
        return _sentence(
            default_catalog.plural_text(
                "announce.draw", drawn, code, card=_card_label(strings, after.waste[-1])
            ),
            code,
        )
    values: dict[str, object] = {"card": _card_label(strings, moved_card(state, move))}
    if kind in (MoveKind.WASTE_TO_FOUNDATION, MoveKind.COLUMN_TO_FOUNDATION):
        values["from"] = move.source + 1
        sentence = format_template(strings[f"announce.{kind.name.lower()}"], values)
    elif kind is MoveKind.COLUMN_TO_COLUMN:
        values.update({"from": move.source + 1, "to": move.target + 1})
        if move.count > 1:
            sentence = default_catalog.plural_text(
                "announce.run_to_column", move.count - 1, code, **values
            )
        else:
            sentence = format_template(strings["announce.column_to_column"], values)
    else:
        values["column"] = move.target + 1
        sentence = format_template(strings[f"announce.{kind.name.lower()}"], values)
    if kind in (MoveKind.COLUMN_TO_FOUNDATION, MoveKind.COLUMN_TO_COLUMN):
        source = move.source
        if after.face_down[source] < state.face_down[source]:
            flipped = _card_label(strings, after.columns[source][-1])
            flip = format_template(
                strings["announce.flip"], {"card": flipped, "column": source + 1}
            )
            sentence = f"{sentence} {flip}"
    return _sentence(sentence, code)
