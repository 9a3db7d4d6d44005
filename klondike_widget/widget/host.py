"""Where the table controller reads settings and publishes: the widget, or a plain object.

:class:`~klondike_widget.widget.table.Table` holds the game and everything that happens at the
table, but it owns no traits. It reads the player's settings from a :class:`Host` and writes what
the front end shows (``view``, ``strings``, ``line_view``, ``line_index``, ``stats_view``) back
to it, and sends notices with ``host.send``. :class:`~klondike_widget.widget.KlondikeWidget` is
such a host (its traits); :class:`PlainHost` is one without traitlets, for scripts and tests.

Examples
--------
>>> host = PlainHost(locale="pl")
>>> host.draw, host.locale, host.sent
(1, 'pl', [])
>>> host.draw = 2
Traceback (most recent call last):
...
ValueError: draw must be one of (1, 3), not 2
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from klondike_widget.engine.ratings import LEVELS
from klondike_widget.play.scoring import SCORINGS

__all__ = ["Host", "PlainHost", "CHOICES", "OBSERVED"]

#: The settings that take one of a few values, and those values (the widget's traits say the same).
CHOICES: dict[str, tuple[object, ...]] = {
    "draw": (1, 3),
    "deal_level": tuple(LEVELS),
    "mirror": ("auto", "on", "off"),
    "back": ("lattice", "waves", "stars"),
    "scoring": tuple(SCORINGS),
}

#: The host attributes whose change the table reacts to (see ``Table.setting_changed``).
OBSERVED = frozenset(
    {"locale", "scoring", "vegas_cumulative", "one_click", "auto_safe", "line_index"}
)


class Host(Protocol):
    """The settings the table reads, the displays it writes, and the channel for notices."""

    # settings (the front end and Python may change them)
    locale: str
    draw: int
    deal_level: str
    mirror: str
    pace: int
    step_pace: int
    back: str
    show_analysis: bool
    scoring: str
    vegas_cumulative: bool
    one_click: bool
    auto_safe: bool
    # what the front end shows (written only by the table)
    view: dict[str, Any]
    strings: dict[str, Any]
    stats_view: dict[str, Any]
    line_view: dict[str, Any]
    line_index: int

    def send(self, content: dict[str, Any], buffers: Any = None) -> None:
        """Send a custom message (a notice) to the front end."""


@dataclass
class PlainHost:
    """A :class:`Host` without traitlets: settings and displays are plain attributes.

    Setting one of :data:`CHOICES` to a value it does not take raises ``ValueError`` (as the
    widget's traits raise ``TraitError``); messages sent are kept in ``sent``. A change of one of
    :data:`OBSERVED` is told to ``observer(name, value)`` (the table sets it), as the widget's
    trait observers do.
    """

    locale: str = "en"
    draw: int = 1
    deal_level: str = "any"
    mirror: str = "auto"
    pace: int = 300
    step_pace: int = 700
    back: str = "lattice"
    show_analysis: bool = True
    scoring: str = "standard"
    vegas_cumulative: bool = False
    one_click: bool = True
    auto_safe: bool = False
    view: dict[str, Any] = field(default_factory=dict)
    strings: dict[str, Any] = field(default_factory=dict)
    stats_view: dict[str, Any] = field(default_factory=dict)
    line_view: dict[str, Any] = field(default_factory=dict)
    line_index: int = 0
    sent: list[dict[str, Any]] = field(default_factory=list)
    observer: Callable[[str, Any], None] | None = None

    def __setattr__(self, name: str, value: Any) -> None:
        options = CHOICES.get(name)
        if options is not None and not any(
            type(value) is type(option) and value == option for option in options
        ):
            raise ValueError(f"{name} must be one of {options}, not {value!r}")
        old = getattr(self, name, value)
        super().__setattr__(name, value)
        observer = getattr(self, "observer", None)
        if name in OBSERVED and observer is not None and old != value:
            observer(name, value)

    def send(self, content: dict[str, Any], buffers: Any = None) -> None:
        """Keep ``content`` in :attr:`sent`."""
        self.sent.append(content)
