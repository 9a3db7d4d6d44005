"""klondike-widget: Klondike solitaire to play, solve and teach in a notebook.

The engine (cards, rules, state, moves, game, deals, notation, render) is pure Python and importing
this package loads no ipywidgets, anywidget or traitlets: the widget class is imported lazily.

>>> from klondike_widget import Game
>>> Game.new(deal=42, draw=3).deal_number
42
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from klondike_widget import _moved
from klondike_widget.engine import deals
from klondike_widget.engine.cards import card_name, card_symbol, parse_card
from klondike_widget.engine.errors import (
    IllegalMoveError,
    InvalidGameError,
    InvalidMoveError,
    InvalidStateError,
)
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.outcome import StopReason, Verdict
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState

if TYPE_CHECKING:
    from klondike_widget.solver import Limit, SolveResult, hint, solve
    from klondike_widget.widget import KlondikeWidget
    from klondike_widget.widget.lesson_coach import lesson_board

__all__ = [
    "Game",
    "GameState",
    "IllegalMoveError",
    "InvalidGameError",
    "InvalidMoveError",
    "InvalidStateError",
    "KlondikeWidget",
    "Limit",
    "Move",
    "MoveKind",
    "Rules",
    "SolveResult",
    "Status",
    "StopReason",
    "Verdict",
    "card_name",
    "card_symbol",
    "deals",
    "hint",
    "lesson_board",
    "parse_card",
    "solve",
]

__version__ = "0.1.0"

# Old module paths (klondike_widget.state, klondike_widget.study_results, ...) keep working.
_moved.install()

#: The solver's old name for :class:`Verdict` (the same enum; importing it loads no solver).
Status = Verdict

# Loaded on first use, so that importing the engine loads neither ipywidgets nor numba.
_LAZY = {
    "KlondikeWidget": ("klondike_widget.widget", "KlondikeWidget"),
    "lesson_board": ("klondike_widget.widget.lesson_coach", "lesson_board"),
    "solve": ("klondike_widget.solver", "solve"),
    "hint": ("klondike_widget.solver", "hint"),
    "Limit": ("klondike_widget.solver", "Limit"),
    "SolveResult": ("klondike_widget.solver", "SolveResult"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module_name, attr = _LAZY[name]
        value = getattr(importlib.import_module(module_name), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'klondike_widget' has no attribute {name!r}")
