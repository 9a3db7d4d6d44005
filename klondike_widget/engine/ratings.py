"""The shipped table of rated deals: winnable deals by difficulty, chosen with no search at all.

``ratings.json`` (next to this module) holds, for each draw mode, one letter per deal number of
the study that wrote it (``python -m klondike_widget ratings``, see
:mod:`klondike_widget.study.difficulty` for how deals are rated): ``e`` easy, ``m`` medium,
``h`` hard, ``f`` hard because its win needs a foundation card back down (all four proved
winnable by the solver, with a line replayed through the engine), ``l`` lost (proved), ``u``
undecided in the study's budget. With foundation-to-column moves forbidden, ``f`` deals are not
offered. Deal numbers are the ordinary ones of :func:`klondike_widget.engine.deals.deal`, so
"deal 17, easy in draw 3" is the same deal everywhere.
This module reads the table only; it imports nothing of the solver.

Examples
--------
>>> rating(2, draw=1) in {"easy", "medium", "hard"}
True
>>> n = pick_deal("easy", draw=3)
>>> rating(n, draw=3)
'easy'
>>> pick_deal("impossible")
Traceback (most recent call last):
...
klondike_widget.engine.ratings.DealLevelError: a deal level is one of any, winnable, easy, medium, \
hard; not 'impossible'
"""

from __future__ import annotations

import functools
import json
import random
from importlib import resources
from typing import Any

from klondike_widget.engine.errors import as_whole

__all__ = [
    "LEVELS",
    "TABLE_FORMAT",
    "DealLevelError",
    "pick_deal",
    "rated_deals",
    "rating",
    "table_text",
]

#: The new-deal options: any deal, a winnable one, or a winnable one of a difficulty.
LEVELS = ("any", "winnable", "easy", "medium", "hard")
TABLE_FORMAT = "klondike-widget/ratings"
_TABLE_VERSION = 1
_CODES = {"e": "easy", "m": "medium", "h": "hard", "f": "hard", "l": "lost", "u": "unknown"}
_LETTERS = {"easy": "e", "medium": "m", "hard": "h", "hard-f2t": "f", "lost": "l", "unknown": "u"}


class DealLevelError(ValueError):
    """An unknown deal level, or a draw mode the table does not cover."""


def table_text(first: int, codes: dict[int, dict[int, str]], rule: dict[str, Any]) -> str:
    """The JSON text of a ratings table (what ``python -m klondike_widget ratings`` writes).

    ``codes[draw][deal]`` is ``"easy"``, ``"medium"``, ``"hard"``, ``"hard-f2t"`` (hard: needs a
    foundation card back down), ``"lost"`` or ``"unknown"`` for every deal from ``first`` on,
    without gaps.

    >>> t = json.loads(table_text(1, {1: {1: "easy", 2: "lost"}}, {}))
    >>> t["draw 1"]
    'el'
    """
    data: dict[str, Any] = {"format": TABLE_FORMAT, "version": _TABLE_VERSION, "first": first}
    data["rule"] = rule
    for draw, by_deal in sorted(codes.items()):
        numbers = sorted(by_deal)
        if numbers != list(range(first, first + len(numbers))):
            raise ValueError(f"draw {draw}: the rated deals must run from {first} without gaps")
        data[f"draw {draw}"] = "".join(_LETTERS[by_deal[n]] for n in numbers)
    return json.dumps(data, indent=1) + "\n"


@functools.lru_cache(maxsize=1)
def _table() -> tuple[int, dict[int, str]]:
    text = resources.files("klondike_widget.engine").joinpath("ratings.json").read_text("utf-8")
    data = json.loads(text)
    if data.get("format") != TABLE_FORMAT or data.get("version") != _TABLE_VERSION:
        raise RuntimeError("engine/ratings.json is not a ratings table of this version")
    letters = {int(k.split()[1]): v for k, v in data.items() if k.startswith("draw ")}
    return int(data["first"]), letters


@functools.lru_cache(maxsize=32)
def _deals(level: str, draw: int, foundation_to_tableau: bool = True) -> tuple[int, ...]:
    first, letters = _table()
    wanted = set("emhf") if level == "winnable" else {_LETTERS[level]}
    if level in ("winnable", "hard") and foundation_to_tableau:
        wanted.add("f")
    else:
        wanted.discard("f")
    return tuple(first + i for i, c in enumerate(_letters(letters, draw)) if c in wanted)


def _letters(letters: dict[int, str], draw: int) -> str:
    if draw not in letters or isinstance(draw, bool):
        raise DealLevelError(f"the ratings table covers draw {sorted(letters)}, not {draw!r}")
    return letters[draw]


def _check_level(level: object) -> str:
    if not isinstance(level, str) or level not in LEVELS:
        raise DealLevelError(f"a deal level is one of {', '.join(LEVELS)}; not {level!r}")
    return level


def rating(number: int, draw: int = 1) -> str | None:
    """The rating of deal ``number``: easy, medium, hard, lost, unknown; ``None`` if not rated.

    >>> rating(10**9)  # outside the study: not rated
    """
    first, letters = _table()
    codes = _letters(letters, draw)
    whole = as_whole(number)  # numpy's integers count, True and 5.0 do not
    if whole is None:
        raise ValueError(f"a deal number is a whole number, not {number!r}")
    i = whole - first
    return _CODES[codes[i]] if 0 <= i < len(codes) else None


def rated_deals(level: str, draw: int = 1, foundation_to_tableau: bool = True) -> tuple[int, ...]:
    """The deal numbers of ``level`` (``winnable``, ``easy``, ``medium`` or ``hard``), ascending.

    With ``foundation_to_tableau=False`` the deals whose win needs a foundation card back down
    are left out (they cannot be won under those rules).

    >>> deals = rated_deals("hard", draw=1)
    >>> len(deals) > 10, all(rating(n, 1) == "hard" for n in deals)
    (True, True)
    """
    if _check_level(level) == "any":
        raise DealLevelError("every deal is 'any': give winnable, easy, medium or hard")
    return _deals(level, draw, bool(foundation_to_tableau))


def pick_deal(
    level: str = "any",
    draw: int = 1,
    rng: random.Random | None = None,
    foundation_to_tableau: bool = True,
) -> int:
    """A deal number of ``level`` chosen at random (``any``: any deal number at all).

    ``rng`` makes the choice repeatable (``random.Random(seed)``); without it the choice is
    random. ``any`` returns :func:`klondike_widget.engine.deals.random_deal_number`'s choice.

    >>> import random
    >>> pick_deal("medium", 1, random.Random(7)) == pick_deal("medium", 1, random.Random(7))
    True
    """
    if _check_level(level) == "any":
        from klondike_widget.engine.shuffle import random_deal_number

        _letters(_table()[1], draw)
        return random_deal_number() if rng is None else rng.randrange(1, 2**31)
    deals = _deals(level, draw, bool(foundation_to_tableau))
    return (rng or random.SystemRandom()).choice(deals)
