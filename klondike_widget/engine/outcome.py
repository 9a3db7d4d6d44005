"""The one vocabulary of verdicts and stop reasons, shared by solver, analysis, study and view.

A verdict on a position is :class:`Verdict` ``WON`` (a winning line exists and was found),
``LOST`` (no line wins: a proof) or ``UNKNOWN`` (the budget ran out first); when a search ends
without a verdict, :class:`StopReason` says why. Both are ``str`` enums whose values are the words
written to study files and sent to the front end, so they compare equal to those words.

>>> Verdict.WON == "won", Verdict("lost") is Verdict.LOST
(True, True)
>>> Verdict.parse("winnable"), Verdict.WON.widget_word
(<Verdict.WON: 'won'>, 'winnable')
>>> StopReason("seconds") is StopReason.SECONDS, str(StopReason.NODES), StopReason.FINISHED == ""
(True, 'nodes', True)
"""

from __future__ import annotations

from enum import Enum

__all__ = ["StopReason", "Verdict"]


class Verdict(str, Enum):
    """What is known about a position: won, lost (proved) or unknown (budget spent)."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"

    @property
    def widget_word(self) -> str:
        """The word the widget's view uses: ``"winnable"``, ``"unwinnable"`` or ``"unknown"``."""
        return _WIDGET_WORDS[self]

    @classmethod
    def parse(cls, value: object) -> Verdict:
        """A verdict from itself, its value, or the widget's word for it.

        >>> Verdict.parse("unwinnable")
        <Verdict.LOST: 'lost'>
        >>> Verdict.parse("maybe")
        Traceback (most recent call last):
        ...
        ValueError: not a verdict: 'maybe' (won, lost, unknown, winnable, unwinnable)
        """
        if isinstance(value, Verdict):
            return value
        found = _BY_WORD.get(value) if isinstance(value, str) else None
        if found is None:
            raise ValueError(f"not a verdict: {value!r} ({', '.join(_BY_WORD)})")
        return found


_WIDGET_WORDS = {Verdict.WON: "winnable", Verdict.LOST: "unwinnable", Verdict.UNKNOWN: "unknown"}
_BY_WORD: dict[str, Verdict] = {
    **{v.value: v for v in Verdict},
    **{w: v for v, w in _WIDGET_WORDS.items()},
}


class StopReason(str, Enum):
    """Why a search stopped before a verdict (``FINISHED``, the empty string, when it did not)."""

    FINISHED = ""
    SECONDS = "seconds"
    NODES = "nodes"
    CANCELLED = "cancelled"
    MEMORY = "memory"
    DEPTH = "depth"

    def __str__(self) -> str:
        return self.value
