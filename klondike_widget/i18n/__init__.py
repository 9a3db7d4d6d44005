"""Locales: the user-facing texts in English, Polish, Turkish and Arabic.

Every string the widget shows lives in ``locales/<code>.json`` (``en``, ``pl``, ``tr``, ``ar``).
This module finds, validates and caches those files, negotiates a requested language tag to an
available locale, falls back to English (with a :class:`MissingStringWarning`) for any key a
locale lacks, and builds the texts Python composes itself: screen-reader card names
(:func:`card_label`), solver-line move descriptions (:func:`describe_move`) and aria-live move
announcements (:func:`announce_move`). :func:`strings_for` returns the bundle the front end gets.

Where the files are
-------------------
``klondike_widget/locales`` (inside an installed wheel: pyproject force-includes them) is searched
first, then the repository root ``locales/`` (an editable install). The first of these folders that
holds ``en.json`` wins. Loaded files are cached per catalog (:meth:`LocaleCatalog.clear_cache`).

File format
-----------
One JSON object with exactly three members::

    {"meta":    {"code": "pl", "name": "Polski", "english_name": "Polish", "dir": "ltr",
                 "numbering": "latn", "plural_categories": ["one", "few", "many", "other"]},
     "strings": {"button.undo.label": "Cofnij", ...},
     "rules":   {"title": "...", "sections": [{"heading": "...", "paragraphs": ["...", ...]}]}}

``meta.code`` equals the file name; ``meta.name`` is the native name for the language picker;
``meta.dir`` is ``"ltr"`` or ``"rtl"`` (set ``dir`` and ``lang`` on the widget root);
``meta.numbering`` is the CLDR numbering system to format numbers with (``"latn"`` everywhere: the
Arabic texts use Western digits, as the Arabic rules page does, so build number formats as
``new Intl.NumberFormat(meta.code, {numberingSystem: meta.numbering})``);
``meta.plural_categories`` are the CLDR plural categories of the language.

Strings are plain text, never HTML: the front end puts them in the page with ``textContent`` (or
``setAttribute`` for ``aria-label``/``title``), so ``<`` or ``&`` would show literally.
Placeholders are ``{name}`` (lower-case ASCII); they are the same in every language for a key.

Plural families
---------------
A key ending in ``_zero``, ``_one``, ``_two``, ``_few``, ``_many`` or ``_other`` is one form of a
plural family ``<base>_<category>``; each file holds exactly its language's categories (English
and Turkish ``one``/``other``; Polish ``one``/``few``/``many``/``other``; Arabic all six). The
number that selects the form is always the ``{count}`` placeholder. In the browser::

    const cat = new Intl.PluralRules(meta.code).select(count);
    const text = strings[`${base}_${cat}`] ?? strings[`${base}_other`];

A form may leave out ``{count}`` only in the ``zero``/``one``/``two`` categories (Arabic writes
"حركتان", "two moves", with no digit); every other placeholder appears in every form.
:func:`plural_category` implements the same CLDR rules in Python.

Key schema (flat dotted keys; ``*`` marks a plural family, ``{...}`` its placeholders)
-------------------------------------------------------------------------------------
- ``app.title``
- Buttons, each ``.label`` and ``.tooltip``: ``button.new_deal``, ``button.deal_by_number``,
  ``button.restart``, ``button.undo``, ``button.redo``, ``button.hint``, ``button.finish``,
  ``button.stop``, ``button.solver_line``, ``button.rules``, ``button.close``.
- Deal-number input: ``deal_number.label``, ``deal_number.hint`` {max}, ``deal_number.submit``.
- Draw mode: ``option.draw.label``, ``option.draw.one``, ``option.draw.three``,
  ``option.draw.tooltip``. Language picker: ``language.label``, ``language.tooltip``.
- Solver-line panel: ``analysis.title``, ``analysis.play_from_here.label``/``.tooltip``,
  ``analysis.back_to_game.label``/``.tooltip``, ``analysis.first``, ``analysis.previous``,
  ``analysis.next``, ``analysis.last``, ``analysis.autoplay``, ``analysis.pause``,
  ``analysis.speed``, ``analysis.start``, ``analysis.step`` {index} {total}.
- Counters: ``counter.label.moves``, ``counter.label.time``, ``counter.label.stock``,
  ``counter.label.waste``, ``counter.moves_*`` {count}, ``counter.stock_*`` {count},
  ``counter.waste_*`` {count}, ``counter.deal`` {number}.
- Status: ``status.solving``, ``status.winnable``, ``status.unwinnable``, ``status.unknown``,
  ``status.won``, ``status.finishing``, ``status.stopped``.
- Hints and Finish: ``hint.show`` {move}; ``hint.unavailable.<reason>`` for ``not_solved``,
  ``no_win``, ``unknown``, ``game_over``; ``finish.unavailable.<reason>`` for ``not_solved``,
  ``no_win``, ``unknown``.
- Win: ``win.title``, ``win.message_*`` {count} {time} (``time`` preformatted, e.g. ``4:05``).
- Rejections, ``reject.<code>`` for the codes ``illegal_move``, ``stale``, ``malformed``,
  ``unknown_intent``, ``busy``, ``game_over``, ``nothing_to_undo``, ``nothing_to_redo``,
  ``invalid_deal_number``, ``unknown_locale``; ``reject.other`` {code} for any other code.
- Dialogs and errors: ``dialog.confirm_new_deal``, ``dialog.confirm_restart``, ``dialog.ok``,
  ``dialog.cancel``, ``error.solver``, ``error.generic`` {detail}.
- Announcements (aria-live; :func:`announce_move` fills the move ones): ``announce.draw_*``
  {count} {card}, ``announce.recycle``, ``announce.waste_to_column`` {card} {column},
  ``announce.waste_to_foundation`` {card}, ``announce.column_to_foundation`` {card} {from},
  ``announce.column_to_column`` {card} {from} {to}, ``announce.run_to_column_*`` {card} {count}
  {from} {to} (``count`` = cards above the first), ``announce.foundation_to_column`` {card}
  {column}, ``announce.flip`` {card} {column}, ``announce.select`` {card}, ``announce.undo``
  {move}, ``announce.redo`` {move}, ``announce.new_deal`` {number}, ``announce.restart``
  {number}, ``announce.win``.
- Move descriptions (solver lines and hints; :func:`describe_move` fills them; cards as symbols
  such as ``9♥``): ``move.draw``, ``move.recycle``, ``move.waste_to_column`` {card} {target}
  {column}, ``move.waste_to_empty_column`` {card} {column}, ``move.waste_to_foundation`` {card},
  ``move.column_to_foundation`` {card} {from}, ``move.column_to_column`` {card} {from} {target}
  {to}, ``move.column_to_empty_column`` {card} {from} {to}, ``move.run_to_column_*`` {card}
  {count} {from} {target} {to}, ``move.run_to_empty_column_*`` {card} {count} {from} {to},
  ``move.foundation_to_column`` {card} {target} {column}, ``move.foundation_to_empty_column``
  {card} {column}.
- Piles (screen readers): ``pile.stock``, ``pile.waste``, ``pile.foundation`` {suit},
  ``pile.column`` {column}, ``pile.empty``, ``pile.cards_*`` {count}, ``pile.face_down_*``
  {count}.
- Cards: ``card.label`` {rank} {suit}, ``card.face_down``, ``card.rank.0`` .. ``card.rank.12``
  (Ace .. King, in the form ``card.label`` needs), ``card.suit.0`` .. ``card.suit.3`` (clubs,
  diamonds, hearts, spades). :func:`strings_for` also gives all 52 labels ready-made.
- Settings: ``settings.title``, ``settings.mirror.label``, ``settings.mirror.auto``,
  ``settings.mirror.on``, ``settings.mirror.off``, ``settings.animation.label``,
  ``settings.animation.off``, ``settings.animation.slow``, ``settings.animation.normal``,
  ``settings.animation.fast``, ``settings.foundation_to_column.label``.

Examples
--------
>>> available_locales()
('ar', 'en', 'pl', 'tr')
>>> negotiate_locale("pl_PL"), negotiate_locale("AR-eg"), negotiate_locale(["fr-FR", "tr"])
('pl', 'ar', 'tr')
>>> text("button.undo.label", "pl")
'Cofnij'
>>> plural_text("counter.moves", 22, "pl"), plural_text("counter.moves", 25, "pl")
('22 ruchy', '25 ruchów')
>>> card_label(34, "en"), card_label(34, "pl"), card_label(34, "tr")
('nine of hearts', 'dziewiątka kier', 'kupa dokuzu')
"""

from __future__ import annotations

import json
import re
import threading
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from klondike_widget.engine.cards import (
    CARD_RANK,
    CARD_SUIT,
    NUM_CARDS,
    RANKS,
    card_name,
    card_symbol,
)
from klondike_widget.engine.errors import IllegalMoveError
from klondike_widget.engine.moves import Move, MoveKind, why_illegal
from klondike_widget.engine.state import GameState

__all__ = [
    "CLDR_PLURAL_CATEGORIES",
    "COUNT_OPTIONAL_CATEGORIES",
    "DEFAULT_LOCALE",
    "PLURAL_CATEGORIES",
    "Locale",
    "LocaleCatalog",
    "LocaleFileError",
    "LocaleMeta",
    "MissingStringWarning",
    "UnknownLocaleError",
    "announce_move",
    "available_locales",
    "card_label",
    "default_catalog",
    "describe_move",
    "format_template",
    "load_locale",
    "negotiate_locale",
    "placeholders",
    "plural_category",
    "plural_families",
    "family_problem",
    "plural_text",
    "strings_for",
    "text",
]

DEFAULT_LOCALE = "en"
#: Every CLDR plural category, in CLDR order (the order the files list them in).
PLURAL_CATEGORIES: tuple[str, ...] = ("zero", "one", "two", "few", "many", "other")
#: The categories each shipped language needs (CLDR cardinal rules).
CLDR_PLURAL_CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "tr": ("one", "other"),
    "pl": ("one", "few", "many", "other"),
    "ar": PLURAL_CATEGORIES,
}
#: Plural categories in which a form may leave out ``{count}`` (the word says the number).
COUNT_OPTIONAL_CATEGORIES = frozenset({"zero", "one", "two"})

_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$")
_PLACEHOLDER_RE = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_PLURAL_SUFFIX_RE = re.compile(r"^(?P<base>.+)_(?P<cat>zero|one|two|few|many|other)$")
_TOP_KEYS = frozenset({"meta", "strings", "rules"})
_META_KEYS = frozenset({"code", "name", "english_name", "dir", "numbering", "plural_categories"})
# Unicode isolates keep "10♠" reading left to right inside right-to-left text.
_LRI, _PDI = "\u2066", "\u2069"


class UnknownLocaleError(ValueError):
    """A requested language that no locale file provides.

    ``requested`` holds what was asked for and ``available`` the locale codes there are; the
    message lists both.
    """

    def __init__(self, requested: object, available: Sequence[str]) -> None:
        self.requested = requested
        self.available = tuple(available)
        super().__init__(
            f"unknown locale {requested!r}; available locales: {', '.join(self.available)}"
        )


class LocaleFileError(ValueError):
    """A locale file that is missing, is not valid JSON or does not follow the format."""


class MissingStringWarning(UserWarning):
    """A locale lacks a key (or has a malformed one) and English is shown instead."""


@dataclass(frozen=True)
class LocaleMeta:
    """The ``meta`` member of a locale file."""

    code: str
    name: str
    english_name: str
    dir: str
    numbering: str
    plural_categories: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form.

        >>> load_locale("ar").meta.to_dict()["dir"]
        'rtl'
        """
        return {
            "code": self.code,
            "name": self.name,
            "english_name": self.english_name,
            "dir": self.dir,
            "numbering": self.numbering,
            "plural_categories": list(self.plural_categories),
        }


@dataclass(frozen=True)
class Locale:
    """One validated locale file: ``meta``, its own ``strings`` and its ``rules`` page."""

    meta: LocaleMeta
    strings: Mapping[str, str]
    rules: Mapping[str, Any]
    path: Path


# -- plural rules ----------------------------------------------------------------------------


def _operands(number: int | float | Decimal) -> tuple[Decimal, int, int]:
    """CLDR operands ``n`` (absolute value), ``i`` (integer digits), ``v`` (visible decimals)."""
    if isinstance(number, bool) or not isinstance(number, (int, float, Decimal)):
        raise TypeError(f"plural_category needs a number, not {number!r}")
    if isinstance(number, int):
        return Decimal(abs(number)), abs(number), 0
    if isinstance(number, float):
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError(f"plural_category needs a finite number, not {number!r}")
        # A float has no visible trailing zeros, as in the browser: 1.0 is the integer 1.
        if number.is_integer():
            return Decimal(abs(int(number))), abs(int(number)), 0
        number = Decimal(repr(number))
    if not number.is_finite():
        raise ValueError(f"plural_category needs a finite number, not {number!r}")
    n = abs(number)
    exponent = n.as_tuple().exponent
    v = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return n, int(n), v


def plural_category(number: int | float | Decimal, locale: str) -> str:
    """The CLDR cardinal plural category of ``number`` in ``locale`` (any negotiable tag).

    Same answers as the browser's ``new Intl.PluralRules(locale).select(number)`` for these
    languages. A :class:`~decimal.Decimal` keeps its visible decimals (``Decimal("1.0")`` is
    ``"other"`` in English, like "1.0 moves"); a float does not (``1.0`` is the integer 1).

    >>> [plural_category(n, "pl") for n in (1, 2, 5, 12, 22, 1.5)]
    ['one', 'few', 'many', 'many', 'few', 'other']
    >>> [plural_category(n, "ar") for n in (0, 1, 2, 3, 11, 100, 102, 103)]
    ['zero', 'one', 'two', 'few', 'many', 'other', 'other', 'few']
    >>> plural_category(1, "tr"), plural_category(Decimal("1.0"), "en"), plural_category(0, "en")
    ('one', 'other', 'other')
    """
    lang = _primary_subtag(locale)
    if lang not in CLDR_PLURAL_CATEGORIES:
        raise UnknownLocaleError(locale, sorted(CLDR_PLURAL_CATEGORIES))
    n, i, v = _operands(number)
    integral = n == i
    if lang == "en":
        return "one" if i == 1 and v == 0 else "other"
    if lang == "tr":
        return "one" if n == 1 else "other"
    if lang == "pl":
        if v != 0:
            return "other"
        if i == 1:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    # Arabic: n % 100 in a range of integers only matches integral n.
    if n == 0:
        return "zero"
    if n == 1:
        return "one"
    if n == 2:
        return "two"
    if integral and 3 <= i % 100 <= 10:
        return "few"
    if integral and 11 <= i % 100 <= 99:
        return "many"
    return "other"


# -- templates -------------------------------------------------------------------------------


def placeholders(template: str) -> frozenset[str]:
    """The ``{name}`` placeholders of ``template``.

    >>> sorted(placeholders("{card} from column {from} onto {target}"))
    ['card', 'from', 'target']
    """
    return frozenset(_PLACEHOLDER_RE.findall(template))


def format_template(template: str, values: Mapping[str, object]) -> str:
    """Fill ``{name}`` placeholders from ``values`` (no format specs, no attribute access).

    Raises ``KeyError`` naming the placeholder when a value is missing; extra values are ignored.

    >>> format_template("Step {index} of {total}", {"index": 3, "total": 40})
    'Step 3 of 40'
    """

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise KeyError(f"no value for placeholder {{{name}}} in {template!r}")
        return str(values[name])

    return _PLACEHOLDER_RE.sub(fill, template)


# -- negotiation -----------------------------------------------------------------------------


def _normalise_tag(tag: str) -> str:
    # "pl_PL.UTF-8@euro" -> "pl-pl"
    return tag.strip().split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()


def _primary_subtag(tag: str) -> str:
    if not isinstance(tag, str):
        raise TypeError(f"a locale is a language tag such as 'pl' or 'pl-PL', not {tag!r}")
    return _normalise_tag(tag).split("-", 1)[0]


# -- loading ---------------------------------------------------------------------------------


def _default_directories() -> tuple[Path, ...]:
    package = Path(__file__).resolve().parent.parent
    return (package / "locales", package.parent / "locales")


def _fail(path: Path, problem: str) -> LocaleFileError:
    return LocaleFileError(f"{path}: {problem}")


def _nonempty_str(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _read_locale(path: Path) -> Locale:
    """Read and validate one file (structure only; comparison with English comes later)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise _fail(path, f"cannot read the locale file ({exc.strerror})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(path, f"not valid UTF-8 JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != _TOP_KEYS:
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise _fail(path, f"expected an object with keys {sorted(_TOP_KEYS)}, found {found}")
    meta = _read_meta(path, data["meta"])
    strings = data["strings"]
    if not isinstance(strings, dict) or not strings:
        raise _fail(path, "'strings' must be a non-empty object of key: text")
    for key, value in strings.items():
        if not _KEY_RE.match(key):
            raise _fail(path, f"bad key {key!r} (lower-case dotted names such as 'button.undo')")
        if not _nonempty_str(value):
            raise _fail(path, f"{key!r} must be a non-empty string, not {value!r}")
    if meta.code == DEFAULT_LOCALE:
        # English is the reference every other locale falls back to: it must be consistent.
        # Another locale's faulty family only falls back to English (see ``merged_strings``).
        for base in plural_families(strings):
            problem = family_problem(strings, base, meta.plural_categories)
            if problem:
                raise _fail(path, problem)
    rules = _read_rules(path, data["rules"])
    return Locale(meta=meta, strings=dict(strings), rules=rules, path=path)


def _read_meta(path: Path, meta: object) -> LocaleMeta:
    if not isinstance(meta, dict) or set(meta) != _META_KEYS:
        found = sorted(meta) if isinstance(meta, dict) else type(meta).__name__
        raise _fail(path, f"'meta' must have exactly the keys {sorted(_META_KEYS)}, found {found}")
    for field in ("code", "name", "english_name", "numbering"):
        if not _nonempty_str(meta[field]):
            raise _fail(path, f"meta.{field} must be a non-empty string")
    if meta["code"] != path.stem:
        raise _fail(path, f"meta.code {meta['code']!r} does not match the file name")
    if meta["dir"] not in ("ltr", "rtl"):
        raise _fail(path, f"meta.dir must be 'ltr' or 'rtl', not {meta['dir']!r}")
    cats = meta["plural_categories"]
    if (
        not isinstance(cats, list)
        or "other" not in cats
        or any(c not in PLURAL_CATEGORIES for c in cats)
        or cats != sorted(set(cats), key=PLURAL_CATEGORIES.index)
    ):
        raise _fail(
            path,
            f"meta.plural_categories must list CLDR categories in the order "
            f"{list(PLURAL_CATEGORIES)}, including 'other'; got {cats!r}",
        )
    return LocaleMeta(
        code=meta["code"],
        name=meta["name"],
        english_name=meta["english_name"],
        dir=meta["dir"],
        numbering=meta["numbering"],
        plural_categories=tuple(cats),
    )


def plural_families(keys: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Group plural-form keys by family: ``{base: (category, ...)}`` in CLDR order.

    >>> plural_families(["a.b_other", "a.b_one", "c.d"])
    {'a.b': ('one', 'other')}
    """
    families: dict[str, set[str]] = {}
    for key in keys:
        m = _PLURAL_SUFFIX_RE.match(key)
        if m:
            families.setdefault(m.group("base"), set()).add(m.group("cat"))
    return {
        base: tuple(sorted(cats, key=PLURAL_CATEGORIES.index))
        for base, cats in sorted(families.items())
    }


def family_problem(strings: Mapping[str, str], base: str, cats: Sequence[str]) -> str | None:
    """What is wrong with plural family ``base`` for a language with categories ``cats``.

    ``None`` when the family has exactly those forms and every form keeps every placeholder
    (``{count}`` may be left out in the zero/one/two forms).

    >>> family_problem({"x_one": "{count} move", "x_other": "{count} moves"}, "x", ["one", "other"])
    >>> family_problem({"x_other": "{count} moves"}, "x", ["one", "other"])
    "plural family 'x' has forms ['other'], the language needs exactly ['one', 'other']"
    """
    found = plural_families(k for k in strings if _family_of(k) == base).get(base, ())
    if found != tuple(cats):
        return (
            f"plural family {base!r} has forms {list(found)}, "
            f"the language needs exactly {list(cats)}"
        )
    every = _family_placeholders(strings, base, cats)
    for c in cats:
        missing = every - placeholders(strings[f"{base}_{c}"])
        if c in COUNT_OPTIONAL_CATEGORIES:
            missing.discard("count")
        if missing:
            return f"{base}_{c} lacks placeholders {sorted(missing)}"
    return None


def _read_rules(path: Path, rules: object) -> dict[str, Any]:
    problem = "'rules' must be {title, sections: [{heading, paragraphs: [text, ...]}, ...]}"
    if not isinstance(rules, dict) or set(rules) != {"title", "sections"}:
        raise _fail(path, problem)
    sections = rules["sections"]
    if not _nonempty_str(rules["title"]) or not isinstance(sections, list) or not sections:
        raise _fail(path, problem)
    for section in sections:
        if (
            not isinstance(section, dict)
            or set(section) != {"heading", "paragraphs"}
            or not _nonempty_str(section["heading"])
            or not isinstance(section["paragraphs"], list)
            or not section["paragraphs"]
            or not all(_nonempty_str(p) for p in section["paragraphs"])
        ):
            raise _fail(path, problem)
    return {
        "title": rules["title"],
        "sections": [
            {"heading": s["heading"], "paragraphs": list(s["paragraphs"])} for s in sections
        ],
    }


class LocaleCatalog:
    """The locale files of one folder, loaded lazily, validated and cached.

    Parameters
    ----------
    directories : sequence of path, optional
        Folders to search in order; the first holding ``en.json`` is used. The default is the
        package's ``locales`` folder, then the repository root's.

    Examples
    --------
    >>> catalog = LocaleCatalog()
    >>> catalog.available()
    ('ar', 'en', 'pl', 'tr')
    >>> catalog.load("tr").meta.name
    'Türkçe'
    """

    def __init__(self, directories: Sequence[str | Path] | None = None) -> None:
        self._candidates = tuple(
            Path(d) for d in (directories if directories is not None else _default_directories())
        )
        self._lock = threading.RLock()
        self._cache: dict[str, Locale] = {}
        self._merged: dict[str, dict[str, str]] = {}

    @property
    def directory(self) -> Path:
        """The folder the locale files are read from."""
        for candidate in self._candidates:
            if (candidate / f"{DEFAULT_LOCALE}.json").is_file():
                return candidate
        searched = ", ".join(str(c) for c in self._candidates)
        raise LocaleFileError(f"no {DEFAULT_LOCALE}.json locale file found (searched: {searched})")

    def available(self) -> tuple[str, ...]:
        """Codes of the locale files present, sorted."""
        return tuple(sorted(p.stem for p in self.directory.glob("*.json")))

    def clear_cache(self) -> None:
        """Forget loaded files (they are read again on next use)."""
        with self._lock:
            self._cache.clear()
            self._merged.clear()

    def negotiate(self, requested: str | Iterable[str]) -> str:
        """The available locale best matching a tag or a preference-ordered list of tags.

        Case and ``_``/``-`` do not matter; region, script and POSIX suffixes fall back to the
        language (``"pl-PL"``, ``"pl_PL.UTF-8"`` give ``"pl"``). Raises
        :class:`UnknownLocaleError` if nothing matches.

        >>> LocaleCatalog().negotiate(["de-DE", "en-GB"])
        'en'
        """
        tags = [requested] if isinstance(requested, str) else list(requested)
        available = self.available()
        for tag in tags:
            if not isinstance(tag, str):
                raise UnknownLocaleError(tag, available)
            full = _normalise_tag(tag)
            for candidate in (full, full.split("-", 1)[0]):
                if candidate in available:
                    return candidate
        raise UnknownLocaleError(requested if isinstance(requested, str) else tags, available)

    def load(self, locale: str) -> Locale:
        """The validated, cached :class:`Locale` for ``locale`` (any negotiable tag)."""
        code = self.negotiate(locale)
        with self._lock:
            cached = self._cache.get(code)
            if cached is None:
                cached = _read_locale(self.directory / f"{code}.json")
                self._cache[code] = cached
            return cached

    def merged_strings(self, locale: str) -> dict[str, str]:
        """The locale's strings over the English ones (a copy).

        A key the locale lacks, or whose placeholders differ from English, takes the English text;
        a :class:`MissingStringWarning` names those keys once per load.
        """
        return dict(self._strings(self.negotiate(locale)))

    def _strings(self, code: str) -> Mapping[str, str]:
        """The cached merged strings of an already negotiated ``code`` (do not mutate)."""
        with self._lock:
            merged = self._merged.get(code)
            if merged is None:
                merged = self._merge(code)
                self._merged[code] = merged
            return merged

    def _merge(self, code: str) -> dict[str, str]:
        english = self.load(DEFAULT_LOCALE).strings
        own_locale = self.load(code)
        own = own_locale.strings
        if code == DEFAULT_LOCALE:
            return dict(english)
        eng_families = plural_families(english)
        own_families = plural_families(own)
        merged: dict[str, str] = {}
        missing: list[str] = []
        mismatched: list[str] = []
        for key, value in english.items():
            if _family_of(key) in eng_families:
                continue
            if key not in own:
                missing.append(key)
            elif placeholders(own[key]) != placeholders(value):
                mismatched.append(key)
            else:
                value = own[key]
            merged[key] = value
        for base, eng_cats in eng_families.items():
            source, cats = english, eng_cats
            if base not in own_families:
                missing.append(f"{base}_*")
            elif family_problem(own, base, own_locale.meta.plural_categories) or (
                _family_placeholders(own, base, own_families[base])
                != _family_placeholders(english, base, eng_cats)
            ):
                mismatched.append(f"{base}_*")
            else:
                source, cats = own, own_families[base]
            merged.update({f"{base}_{c}": source[f"{base}_{c}"] for c in cats})
        unused = sorted(k for k in own if _family_of(k) not in eng_families and k not in english)
        unused += sorted(f"{b}_*" for b in own_families if b not in eng_families)
        if missing or mismatched or unused:
            parts = [
                f"{label} {', '.join(keys)}"
                for label, keys in (
                    ("missing", missing),
                    ("wrong plural forms or placeholders in", mismatched),
                    ("unknown keys (ignored)", unused),
                )
                if keys
            ]
            warnings.warn(
                f"locale {code!r}: {'; '.join(parts)}; showing English there",
                MissingStringWarning,
                stacklevel=4,
            )
        return merged

    def text(self, key: str, locale: str, **values: object) -> str:
        """The text of ``key`` in ``locale`` with placeholders filled from ``values``.

        A key missing everywhere gives the key itself and a :class:`MissingStringWarning` (never
        a blank label).
        """
        template = self._strings(self.negotiate(locale)).get(key)
        if template is None:
            warnings.warn(
                f"no text for key {key!r} in any locale", MissingStringWarning, stacklevel=2
            )
            return key
        return format_template(template, values)

    def plural_text(self, base: str, count: int, locale: str, **values: object) -> str:
        """The form of family ``base`` for ``count``, filled with ``count`` and ``values``."""
        code = self.negotiate(locale)
        strings = self._strings(code)
        category = plural_category(count, code) if code in CLDR_PLURAL_CATEGORIES else "other"
        for key in (f"{base}_{category}", f"{base}_other"):
            if key in strings:
                return format_template(strings[key], {**values, "count": count})
        warnings.warn(
            f"no plural family {base!r} in any locale", MissingStringWarning, stacklevel=2
        )
        return base

    def strings_for(self, locale: str) -> dict[str, Any]:
        """The bundle published to the front end for ``locale`` (plain JSON).

        Members: ``meta`` (code, native name, dir, numbering, plural categories), ``strings``
        (merged over English), ``rules`` (the rules page), ``cards`` (the 52 screen-reader card
        names, indexed by card) and ``available`` (code, native name and dir of every locale, for
        the language picker).
        """
        code = self.negotiate(locale)
        own = self.load(code)
        strings = self.merged_strings(code)
        return {
            "meta": own.meta.to_dict(),
            "strings": strings,
            "rules": json.loads(json.dumps(own.rules)),
            "cards": [_card_label(strings, card) for card in range(NUM_CARDS)],
            "available": [
                {"code": c, "name": m.name, "dir": m.dir}
                for c in self.available()
                for m in (self.load(c).meta,)
            ],
        }


def _family_of(key: str) -> str:
    m = _PLURAL_SUFFIX_RE.match(key)
    return m.group("base") if m else key


def _family_placeholders(strings: Mapping[str, str], base: str, cats: Iterable[str]) -> set[str]:
    return set().union(*(placeholders(strings[f"{base}_{c}"]) for c in cats))


#: The catalog the module-level functions use.
default_catalog = LocaleCatalog()


def available_locales() -> tuple[str, ...]:
    """Codes of the shipped locales, sorted.

    >>> "ar" in available_locales()
    True
    """
    return default_catalog.available()


def negotiate_locale(requested: str | Iterable[str]) -> str:
    """The available locale for a language tag (or the first match in a list of tags).

    >>> negotiate_locale("EN-us"), negotiate_locale("tr_TR.UTF-8")
    ('en', 'tr')
    >>> negotiate_locale("fr")
    Traceback (most recent call last):
    ...
    klondike_widget.i18n.UnknownLocaleError: unknown locale 'fr'; available locales: ar, en, pl, tr
    """
    return default_catalog.negotiate(requested)


def load_locale(locale: str) -> Locale:
    """The validated, cached :class:`Locale` (file contents, without English fallbacks).

    >>> load_locale("pl-PL").meta.plural_categories
    ('one', 'few', 'many', 'other')
    """
    return default_catalog.load(locale)


def text(key: str, locale: str, **values: object) -> str:
    """The text of ``key`` in ``locale``, placeholders filled, English where the locale lacks it.

    >>> text("analysis.step", "tr", index=3, total=40)
    'Adım 3 / 40'
    """
    return default_catalog.text(key, locale, **values)


def plural_text(base: str, count: int, locale: str, **values: object) -> str:
    """The right plural form of family ``base`` for ``count``, filled in.

    >>> [plural_text("counter.moves", n, "ar") for n in (0, 2, 3, 11)]
    ['لا حركات بعد', 'حركتان', '3 حركات', '11 حركة']
    """
    return default_catalog.plural_text(base, count, locale, **values)


def strings_for(locale: str) -> dict[str, Any]:
    """The bundle for the front end: ``meta``, ``strings``, ``rules``, ``cards``, ``available``.

    >>> bundle = strings_for("ar-EG")
    >>> bundle["meta"]["dir"], bundle["strings"]["button.undo.label"], len(bundle["cards"])
    ('rtl', 'تراجع', 52)
    """
    return default_catalog.strings_for(locale)


# -- cards and moves -------------------------------------------------------------------------


def _card_label(strings: Mapping[str, str], card: int) -> str:
    return format_template(
        strings["card.label"],
        {
            "rank": strings[f"card.rank.{CARD_RANK[card]}"],
            "suit": strings[f"card.suit.{CARD_SUIT[card]}"],
        },
    )


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


def _moved_card(state: GameState, move: Move) -> int:
    kind = move.kind
    if kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
        return state.waste[-1]
    if kind is MoveKind.COLUMN_TO_FOUNDATION:
        return state.columns[move.source][-1]
    if kind is MoveKind.COLUMN_TO_COLUMN:
        return state.columns[move.source][-move.count]
    # FOUNDATION_TO_COLUMN
    return move.source * RANKS + state.foundations[move.source] - 1


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
    card = _moved_card(state, move)
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
    values: dict[str, object] = {"card": _card_label(strings, _moved_card(state, move))}
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
