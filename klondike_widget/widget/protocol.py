"""Intents: the requests the front end sends, checked before anything acts on them.

The front end sends ``model.send({kind: ..., seq: ..., ...})``. :func:`parse_intent` turns such a
message into an :class:`Intent` or raises :class:`Rejected` with a reason code; the reason codes
are the ``reject.<code>`` keys of the locale files, so the front end can say what went wrong in
the active language. :data:`INTENTS` is the one table of every known intent: its fields and whether
it must be sent against the current state (``fresh``); the handler table
:data:`klondike_widget.widget.intents.HANDLERS` maps each kind to the function that runs it.
The messages both ways are typed here (:class:`View`, :class:`Notice`, one TypedDict per intent
in :data:`INTENT_MESSAGES`). Late clicks are rebased by :mod:`klondike_widget.widget.rebase`.

Examples
--------
>>> parse_intent({"kind": "move", "seq": 3, "move": "t3-t6"})
Intent(kind='move', seq=3, args={'move': 't3-t6'}, cid=None)
>>> parse_intent({"kind": "move", "seq": 3})
Traceback (most recent call last):
...
klondike_widget.widget.protocol.Rejected: malformed: move: missing field 'move'
>>> parse_intent({"kind": "fly", "seq": 3}).kind
Traceback (most recent call last):
...
klondike_widget.widget.protocol.Rejected: unknown_intent: 'fly'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from klondike_widget.engine.deals import MAX_DEAL_NUMBER
from klondike_widget.engine.errors import is_whole, quote_keys
from klondike_widget.engine.ratings import LEVELS
from klondike_widget.widget.rebase import SeenStates, same_move  # their home before the split

__all__ = [
    "MAX_INTENT_BYTES",
    "REASONS",
    "Rejected",
    "Intent",
    "IntentSpec",
    "INTENTS",
    "parse_intent",
    "INTENT_MESSAGES",
    "View",
    "Hint",
    "LineStep",
    "NextStep",
    "Clock",
    "Announce",
    "Notice",
    "ViewTexts",
    "StatsView",
    "ReviewProgress",
    "LessonVerdict",
    "LessonView",
    "SeenStates",
    "same_move",
]

#: The largest intent accepted, in bytes of JSON.
MAX_INTENT_BYTES = 1024

#: Every reason code an intent can be rejected with (``reject.<code>`` in the locale files).
REASONS = frozenset(
    {
        "illegal_move",
        "stale",
        "malformed",
        "unknown_intent",
        "busy",
        "game_over",
        "nothing_to_undo",
        "nothing_to_redo",
        "invalid_deal_number",
        "unknown_locale",
        "no_line",
        "step_out_of_range",
        "in_analysis",
        "line_not_current",
        "auto_complete_unavailable",
        "nothing_to_review",
        "no_lesson",
        "in_lesson",
    }
)


class Rejected(ValueError):
    """An intent was refused; ``reason`` is one of :data:`REASONS`, ``detail`` is for logs."""

    def __init__(self, reason: str, detail: str = "") -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown reason code {reason!r}")
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


# -- the messages, typed -----------------------------------------------------------------------
# Python -> JS: the ``view`` trait (View) and custom messages (Notice); JS -> Python: intents,
# one TypedDict per kind. ``js/widget.js`` reads and writes exactly these shapes.


class Hint(TypedDict):
    """``view["hint"]``: the highlighted hint move and its description."""

    src: str
    n: int
    dst: str
    text: str


class NextStep(TypedDict):
    """``view["line"]["next"]``: the piles of the line's next move."""

    src: str
    n: int
    dst: str


class LineStep(TypedDict):
    """``view["line"]``: the analysis panel's step through a solver line.

    The texts are finished in the active language: ``text`` names the step shown ("Step 3 of
    142", or the start), ``said`` is what a screen reader hears when the step is taken ("Step 3
    of 142: move 9♥ …"), ``opened`` when the panel opens (its title and the step).
    """

    id: int
    k: int
    total: int
    next: NextStep | None
    auto: bool
    playable: bool
    text: str
    said: str
    opened: str


class Clock(TypedDict):
    """``view["clock"]``: ``ms`` elapsed at epoch-ms ``at``; ``run`` while it is counting."""

    ms: int
    at: int
    run: bool


class Announce(TypedDict):
    """``view["announce"]``: the latest action in words (``n`` changes with every one)."""

    n: int
    text: str


class _BoardView(TypedDict):
    seq: int
    deal: int | str | None
    draw: int
    stock: int
    waste: list[int]
    wn: int
    found: list[int | None]
    cols: list[list[Any]]
    legal: dict[str, list[list[Any]]]
    moves: int
    undo: bool
    redo: bool
    status: str
    analysis: str | None
    finish: str | None
    hint: Hint | None
    clock: Clock
    announce: Announce | None
    line: LineStep | None
    lines: bool


class ViewTexts(TypedDict):
    """``view["texts"]``: every parameterised text of the view, finished in the active language.

    Made by :func:`klondike_widget.widget.texts.view_texts`; the front end shows them as they are
    (it never fills a template nor picks a plural form).
    """

    piles: dict[str, str]  # pile id: accessible name ("Stock: 12 cards left")
    deal: str | None  # the info line's "Deal 123"; None for a game that is not a numbered deal
    hint: str | None  # "Hint: …" while a hint is shown
    finishing: str | None  # said while Finish plays: "Finishing: 31 cards on the foundations."
    win: str | None  # the win dialog's message (moves and time), once won
    review: str | None  # a running review's progress


class ReviewProgress(TypedDict):
    """``view["review"]``: a review in progress, ``decided`` positions of ``total`` known."""

    running: bool
    decided: int
    total: int


class LessonVerdict(TypedDict):
    """``view["lesson"]["verdict"]``: ``ok`` True (right), False (wrong), None (go on)."""

    ok: bool | None
    text: str


class LessonView(TypedDict):
    """``view["lesson"]``: the lesson's title, question, verdict and hint, in the locale."""

    key: str
    title: str
    question: str
    kind: str  # "move", "line" (played on the board) or "answer" (typed in a cell)
    verdict: LessonVerdict | None
    hint: str | None
    shown: bool


class View(_BoardView, total=False):
    """The ``view`` trait: everything the front end draws.

    ``widget.view.board_view`` gives the board's keys; the widget adds the play keys when it
    publishes: ``score`` (the scoring's view), ``quick`` (one-click targets by source),
    ``auto_complete`` (True when the rest plays itself), ``review`` and ``reviewable`` (the
    game review), ``lesson`` (a lesson board) and ``texts`` (:class:`ViewTexts`).
    """

    score: dict[str, Any] | None
    quick: dict[str, Any]
    auto_complete: bool
    review: ReviewProgress | None
    reviewable: bool
    lesson: LessonView | None
    texts: ViewTexts


class Notice(TypedDict):
    """A custom message to the front end: ``text``, finished in the active language.

    ``key`` is the strings key it was made from (the front end tells rejections by it), ``args``
    what filled it (for logs and tests).
    """

    kind: Literal["notice"]
    n: int
    key: str
    args: dict[str, Any]
    text: str
    cid: str | None


class StatsView(TypedDict):
    """The ``stats_view`` trait: the statistics panel's rows (one per draw mode) and its state.

    ``skipped`` damaged lines of the file, ``error`` why it could not be written (or None),
    ``off`` when there is no file, ``warnings`` those two said in the active language.
    """

    rows: list[dict[str, Any]]
    skipped: int
    error: str | None
    off: bool
    warnings: list[str]


class _IntentBase(TypedDict):
    seq: int


class _Intent(_IntentBase, total=False):
    cid: str  # the sending view's id, echoed in a rejection


class MoveIntent(_Intent):
    kind: Literal["move"]
    move: str


class UndoIntent(_Intent):
    kind: Literal["undo"]


class RedoIntent(_Intent):
    kind: Literal["redo"]


class HintIntent(_Intent):
    kind: Literal["hint"]


class FinishIntent(_Intent):
    kind: Literal["finish"]


class StopIntent(_Intent):
    kind: Literal["stop"]


class RestartIntent(_Intent):
    kind: Literal["restart"]


class _NewDealIntent(_Intent):
    kind: Literal["new_deal"]


class NewDealIntent(_NewDealIntent, total=False):
    deal: int | str | None  # decimal digits: JS numbers lose digits past 2**53


class SetDrawIntent(_Intent):
    kind: Literal["set_draw"]
    draw: int


class SetLocaleIntent(_Intent):
    kind: Literal["set_locale"]
    locale: str


class SetMirrorIntent(_Intent):
    kind: Literal["set_mirror"]
    mirror: str


class SetPaceIntent(_Intent):
    kind: Literal["set_pace"]
    pace: int


class OpenLineIntent(_Intent):
    kind: Literal["open_line"]


class ReviewIntent(_Intent):
    kind: Literal["review"]


class SetDealLevelIntent(_Intent):
    kind: Literal["set_deal_level"]
    level: str


class LessonHintIntent(_Intent):
    kind: Literal["lesson_hint"]


class LessonShowIntent(_Intent):
    kind: Literal["lesson_show"]


class LessonRetryIntent(_Intent):
    kind: Literal["lesson_retry"]


class StepIntent(_Intent):
    kind: Literal["step"]
    line: int
    index: int


class AutoplayIntent(_Intent):
    kind: Literal["autoplay"]
    line: int
    on: bool


class PlayFromHereIntent(_Intent):
    kind: Literal["play_from_here"]
    line: int
    index: int


class BackToGameIntent(_Intent):
    kind: Literal["back_to_game"]


class SetStepPaceIntent(_Intent):
    kind: Literal["set_step_pace"]
    pace: int


class SetBackIntent(_Intent):
    kind: Literal["set_back"]
    back: str


class SetShowAnalysisIntent(_Intent):
    kind: Literal["set_show_analysis"]
    on: bool


class AutoCompleteIntent(_Intent):
    kind: Literal["auto_complete"]


class SetScoringIntent(_Intent):
    kind: Literal["set_scoring"]
    scoring: str


class SetOptionIntent(_Intent):
    kind: Literal["set_option"]
    name: str
    on: bool


class OpenStatsIntent(_Intent):
    kind: Literal["open_stats"]


class _ResetStatsIntent(_Intent):
    kind: Literal["reset_stats"]


class ResetStatsIntent(_ResetStatsIntent, total=False):
    draw: int


#: The message each intent kind arrives as (a test checks it against :data:`INTENTS`).
INTENT_MESSAGES: Mapping[str, type] = {
    "move": MoveIntent,
    "undo": UndoIntent,
    "redo": RedoIntent,
    "hint": HintIntent,
    "finish": FinishIntent,
    "stop": StopIntent,
    "restart": RestartIntent,
    "new_deal": NewDealIntent,
    "set_draw": SetDrawIntent,
    "set_locale": SetLocaleIntent,
    "set_mirror": SetMirrorIntent,
    "set_pace": SetPaceIntent,
    "open_line": OpenLineIntent,
    "review": ReviewIntent,
    "set_deal_level": SetDealLevelIntent,
    "lesson_hint": LessonHintIntent,
    "lesson_show": LessonShowIntent,
    "lesson_retry": LessonRetryIntent,
    "step": StepIntent,
    "autoplay": AutoplayIntent,
    "play_from_here": PlayFromHereIntent,
    "back_to_game": BackToGameIntent,
    "set_step_pace": SetStepPaceIntent,
    "set_back": SetBackIntent,
    "set_show_analysis": SetShowAnalysisIntent,
    "auto_complete": AutoCompleteIntent,
    "set_scoring": SetScoringIntent,
    "set_option": SetOptionIntent,
    "open_stats": OpenStatsIntent,
    "reset_stats": ResetStatsIntent,
}


Check = Callable[[object], Any]


def _text(max_len: int) -> Check:
    def check(value: object) -> str:
        if not isinstance(value, str) or not 0 < len(value) <= max_len:
            raise Rejected("malformed", f"expected text of 1..{max_len} characters")
        return value

    return check


def _choice(*options: object) -> Check:
    def check(value: object) -> object:
        # True == 1 and 3.0 == 3 in Python: only a value of an option's own type counts.
        if not any(type(value) is type(option) and value == option for option in options):
            raise Rejected("malformed", f"expected one of {list(options)}")
        return value

    return check


def _int_range(lo: int, hi: int) -> Check:
    def check(value: object) -> int:
        if not is_whole(value) or not lo <= value <= hi:
            raise Rejected("malformed", f"expected a whole number from {lo} to {hi}")
        return value

    return check


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise Rejected("malformed", "expected true or false")
    return value


def _deal_number(value: object) -> int | None:
    """``None`` (a random deal), an int, or decimal digits (JS numbers lose digits past 2**53)."""
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip()
        if not (0 < len(text) <= 20 and text.isascii() and text.isdigit()):
            raise Rejected("invalid_deal_number", "expected decimal digits")
        value = int(text)
    if not is_whole(value) or not 0 <= value <= MAX_DEAL_NUMBER:
        raise Rejected("invalid_deal_number", f"expected 0..{MAX_DEAL_NUMBER}")
    return value


@dataclass(frozen=True)
class IntentSpec:
    """One row of :data:`INTENTS`.

    Attributes
    ----------
    fields : mapping
        Required fields and the check each value must pass (it returns the value to use).
    optional : mapping
        Fields that may be left out (the handler then gets its default).
    fresh : bool
        True when the intent acts on the position, so it must carry the current ``seq``.
    """

    fields: Mapping[str, Check] = field(default_factory=dict)
    optional: Mapping[str, Check] = field(default_factory=dict)
    fresh: bool = True


#: Every intent kind and what it needs (``widget.intents.HANDLERS`` maps each kind to its handler).
INTENTS: Mapping[str, IntentSpec] = {
    "move": IntentSpec({"move": _text(16)}),
    # Undo and redo do not name a position: a second fast click on Undo means "once more".
    "undo": IntentSpec(fresh=False),
    "redo": IntentSpec(fresh=False),
    "hint": IntentSpec(),
    "finish": IntentSpec(),
    "stop": IntentSpec(fresh=False),
    "restart": IntentSpec(),
    "new_deal": IntentSpec(optional={"deal": _deal_number}, fresh=False),
    "set_draw": IntentSpec({"draw": _choice(1, 3)}, fresh=False),
    "set_locale": IntentSpec({"locale": _text(16)}, fresh=False),
    "set_mirror": IntentSpec({"mirror": _choice("auto", "on", "off")}, fresh=False),
    "set_pace": IntentSpec({"pace": _int_range(0, 5000)}, fresh=False),
    "set_back": IntentSpec({"back": _choice("lattice", "waves", "stars")}, fresh=False),
    "set_show_analysis": IntentSpec({"on": _flag}, fresh=False),
    # The analysis panel. Steps name the line they are about (``line``: its id) instead of the
    # board's seq: an intent about a line that was replaced meanwhile is refused as stale.
    "open_line": IntentSpec(),
    # The game review (the game on the table, or the one it replaced), run in the background.
    "review": IntentSpec(fresh=False),
    "set_deal_level": IntentSpec({"level": _choice(*LEVELS)}, fresh=False),
    # A lesson board (widget.lesson_coach): a hint, "Show me" (plays the answer), start again.
    "lesson_hint": IntentSpec(fresh=False),
    "lesson_show": IntentSpec(fresh=False),
    "lesson_retry": IntentSpec(fresh=False),
    "step": IntentSpec({"line": _int_range(0, 2**31), "index": _int_range(0, 2**31)}, fresh=False),
    "autoplay": IntentSpec({"line": _int_range(0, 2**31), "on": _flag}, fresh=False),
    "play_from_here": IntentSpec({"line": _int_range(0, 2**31), "index": _int_range(0, 2**31)}),
    "back_to_game": IntentSpec(fresh=False),
    "set_step_pace": IntentSpec({"pace": _int_range(50, 5000)}, fresh=False),
    # Scoring, statistics and one-click moves (klondike_widget.play).
    "auto_complete": IntentSpec(),
    "set_scoring": IntentSpec({"scoring": _choice("standard", "vegas", "none")}, fresh=False),
    "set_option": IntentSpec(
        {"name": _choice("one_click", "auto_safe", "vegas_cumulative"), "on": _flag},
        fresh=False,
    ),
    "open_stats": IntentSpec(fresh=False),
    "reset_stats": IntentSpec(optional={"draw": _choice(1, 3)}, fresh=False),
}

_COMMON = frozenset({"kind", "seq", "cid"})


@dataclass(frozen=True)
class Intent:
    """A checked intent: its kind, the ``seq`` it was sent against, its arguments.

    ``cid`` is an optional id the front end chose, echoed in the reply so that only the view
    that sent the intent shows a rejection.
    """

    kind: str
    seq: int
    args: dict[str, Any]
    cid: str | None = None

    @property
    def spec(self) -> IntentSpec:
        """Its row in :data:`INTENTS`."""
        return INTENTS[self.kind]


def parse_intent(content: object, buffers: object = None) -> Intent:
    """Check a raw message from the front end; raise :class:`Rejected` if it is not acceptable.

    Rejected are: anything but a JSON object of at most :data:`MAX_INTENT_BYTES`, binary
    buffers, an unknown ``kind``, a missing or non-integer ``seq``, missing, unknown or badly
    typed fields. Staleness (an old ``seq``) is checked by the widget, which knows the current one.

    >>> parse_intent({"kind": "new_deal", "seq": 0, "deal": "123"}).args
    {'deal': 123}
    >>> parse_intent({"kind": "set_draw", "seq": 0, "draw": True})
    Traceback (most recent call last):
    ...
    klondike_widget.widget.protocol.Rejected: malformed: set_draw: draw: expected one of [1, 3]
    >>> parse_intent({"kind": "set_draw", "seq": 0, "draw": 3.0}).args
    Traceback (most recent call last):
    ...
    klondike_widget.widget.protocol.Rejected: malformed: set_draw: draw: expected one of [1, 3]
    """
    if buffers:
        raise Rejected("malformed", "binary buffers are not accepted")
    if not isinstance(content, dict):
        raise Rejected("malformed", "an intent is a JSON object")
    try:
        size = len(json.dumps(content, ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise Rejected("malformed", f"not JSON: {type(exc).__name__}") from None
    if size > MAX_INTENT_BYTES:
        raise Rejected("malformed", f"{size} bytes is more than {MAX_INTENT_BYTES}")
    kind = content.get("kind")
    if not isinstance(kind, str):
        raise Rejected("malformed", "'kind' must be text")
    spec = INTENTS.get(kind)
    if spec is None:
        raise Rejected("unknown_intent", repr(kind[:40]))
    seq = content.get("seq")
    if not is_whole(seq) or seq < 0:
        raise Rejected("malformed", f"{kind}: 'seq' must be a whole number >= 0")
    cid = content.get("cid")
    if cid is not None and (not isinstance(cid, str) or len(cid) > 40):
        raise Rejected("malformed", f"{kind}: 'cid' must be short text")
    extra = set(content) - _COMMON - set(spec.fields) - set(spec.optional)
    if extra:
        raise Rejected("malformed", f"{kind}: unknown fields {quote_keys(extra)}")
    args: dict[str, Any] = {}
    for name, check in spec.fields.items():
        if name not in content:
            raise Rejected("malformed", f"{kind}: missing field {name!r}")
        args[name] = _checked(kind, name, check, content[name])
    for name, check in spec.optional.items():
        if name in content:
            args[name] = _checked(kind, name, check, content[name])
    return Intent(kind, seq, args, cid)


def _checked(kind: str, name: str, check: Check, value: object) -> Any:
    try:
        return check(value)
    except Rejected as exc:
        raise Rejected(exc.reason, f"{kind}: {name}: {exc.detail}") from None
