"""The typed Python <-> JS protocol: message TypedDicts, the intent table, the handler table."""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

import pytest

from klondike_widget import Game, KlondikeWidget
from klondike_widget.widget import _HANDLERS, intents
from klondike_widget.widget.line_panel import LinePanel, line_from
from klondike_widget.widget.protocol import (
    INTENT_MESSAGES,
    INTENTS,
    LineStep,
    View,
    parse_intent,
)
from klondike_widget.widget.view import board_view


def test_every_intent_kind_has_one_handler_function() -> None:
    assert set(_HANDLERS) == set(INTENTS)
    for kind, handler in _HANDLERS.items():
        assert handler is getattr(intents, handler.__name__), kind
        params = set(inspect.signature(handler).parameters) - {"table"}
        spec = INTENTS[kind]
        assert params == set(spec.fields) | set(spec.optional), kind


@pytest.mark.parametrize("kind", sorted(INTENTS))
def test_each_intent_typeddict_matches_its_table_row(kind: str) -> None:
    message = INTENT_MESSAGES[kind]
    spec = INTENTS[kind]
    required: frozenset[str] = message.__required_keys__  # type: ignore[attr-defined]
    optional: frozenset[str] = message.__optional_keys__  # type: ignore[attr-defined]
    assert required == {"kind", "seq", *spec.fields}
    assert optional == {"cid", *spec.optional}
    assert get_type_hints(message)["kind"].__args__ == (kind,)


def test_a_typed_intent_parses() -> None:
    from klondike_widget.widget.protocol import StepIntent

    message: StepIntent = {"kind": "step", "seq": 0, "line": 1, "index": 2, "cid": "v1"}
    assert parse_intent(dict(message)).args == {"line": 1, "index": 2}


def _keys(typed: Any) -> set[str]:
    return set(typed.__required_keys__) | set(typed.__optional_keys__)


def test_the_view_has_exactly_the_typed_keys() -> None:
    game = Game.new(deal=5)
    view = board_view(game, seq=0)
    assert set(view) == View.__required_keys__  # the widget adds the optional play keys
    panel = LinePanel(line_from(["s"], game.state), ident=1)
    step = panel.view_part(True, "en")
    assert set(step) == _keys(LineStep)
    assert set(board_view(game, seq=1, line=step)["line"] or {}) == _keys(LineStep)


def test_the_widget_sends_typed_notices() -> None:
    w = KlondikeWidget(deal=2, analyse=False)
    sent: list[Any] = []
    w.send = sent.append  # type: ignore[method-assign]
    w._on_msg(w, {"kind": "undo", "seq": w.view["seq"]}, None)
    (notice,) = sent
    from klondike_widget.widget.protocol import Notice

    assert set(notice) == _keys(Notice) and notice["key"] == "reject.nothing_to_undo"
    assert set(w.view) == _keys(View)
