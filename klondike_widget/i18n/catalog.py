"""Locale files: finding, validating and caching them, negotiating a language, the texts.

See :mod:`klondike_widget.i18n` for the file format and the key schema.
"""

from __future__ import annotations

import json
import re
import threading
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import klondike_widget.i18n.plural as plural
from klondike_widget.engine.cards import CARD_RANK, CARD_SUIT, NUM_CARDS
from klondike_widget.i18n.numbers import format_number
from klondike_widget.i18n.plural import placeholders

__all__ = [
    "DEFAULT_LOCALE",
    "Locale",
    "LocaleCatalog",
    "LocaleFileError",
    "LocaleMeta",
    "MissingStringWarning",
    "available_locales",
    "default_catalog",
    "load_locale",
    "negotiate_locale",
    "plural_text",
    "strings_for",
    "text",
]


DEFAULT_LOCALE = "en"

_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*$")
_TOP_KEYS = frozenset({"meta", "strings", "rules"})
_META_KEYS = frozenset({"code", "name", "english_name", "dir", "numbering", "plural_categories"})


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
        for base in plural.plural_families(strings):
            problem = plural.family_problem(strings, base, meta.plural_categories)
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
        or any(c not in plural.PLURAL_CATEGORIES for c in cats)
        or cats != sorted(set(cats), key=plural.PLURAL_CATEGORIES.index)
    ):
        raise _fail(
            path,
            f"meta.plural_categories must list CLDR categories in the order "
            f"{list(plural.PLURAL_CATEGORIES)}, including 'other'; got {cats!r}",
        )
    return LocaleMeta(
        code=meta["code"],
        name=meta["name"],
        english_name=meta["english_name"],
        dir=meta["dir"],
        numbering=meta["numbering"],
        plural_categories=tuple(cats),
    )


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
        self._available: tuple[str, ...] | None = None

    @property
    def directory(self) -> Path:
        """The folder the locale files are read from."""
        for candidate in self._candidates:
            if (candidate / f"{DEFAULT_LOCALE}.json").is_file():
                return candidate
        searched = ", ".join(str(c) for c in self._candidates)
        raise LocaleFileError(f"no {DEFAULT_LOCALE}.json locale file found (searched: {searched})")

    def available(self) -> tuple[str, ...]:
        """Codes of the locale files present, sorted (the folder is read once per cache)."""
        with self._lock:
            if self._available is None:
                self._available = tuple(sorted(p.stem for p in self.directory.glob("*.json")))
            return self._available

    def clear_cache(self) -> None:
        """Forget loaded files and the list of them (they are read again on next use)."""
        with self._lock:
            self._cache.clear()
            self._merged.clear()
            self._available = None

    def negotiate(self, requested: str | Iterable[str]) -> str:
        """The available locale best matching a tag or a preference-ordered list of tags.

        Case and ``_``/``-`` do not matter; region, script and POSIX suffixes fall back to the
        language (``"pl-PL"``, ``"pl_PL.UTF-8"`` give ``"pl"``). Raises
        :class:`~klondike_widget.i18n.plural.UnknownLocaleError` if nothing matches.

        >>> LocaleCatalog().negotiate(["de-DE", "en-GB"])
        'en'
        """
        tags = [requested] if isinstance(requested, str) else list(requested)
        available = self.available()
        for tag in tags:
            if not isinstance(tag, str):
                raise plural.UnknownLocaleError(tag, available)
            full = plural._normalise_tag(tag)
            for candidate in (full, full.split("-", 1)[0]):
                if candidate in available:
                    return candidate
        raise plural.UnknownLocaleError(
            requested if isinstance(requested, str) else tags, available
        )

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
        eng_families = plural.plural_families(english)
        own_families = plural.plural_families(own)
        merged: dict[str, str] = {}
        missing: list[str] = []
        mismatched: list[str] = []
        for key, value in english.items():
            if plural._family_of(key) in eng_families:
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
            elif plural.family_problem(own, base, own_locale.meta.plural_categories) or (
                plural._family_placeholders(own, base, own_families[base])
                != plural._family_placeholders(english, base, eng_cats)
            ):
                mismatched.append(f"{base}_*")
            else:
                source, cats = own, own_families[base]
            merged.update({f"{base}_{c}": source[f"{base}_{c}"] for c in cats})
        unused = sorted(
            k for k in own if plural._family_of(k) not in eng_families and k not in english
        )
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

        Whole numbers among ``values`` are written the locale's way
        (:func:`~klondike_widget.i18n.numbers.format_number`). A key missing everywhere gives
        the key itself and a :class:`MissingStringWarning` (never a blank label).
        """
        code = self.negotiate(locale)
        template = self._strings(code).get(key)
        if template is None:
            warnings.warn(
                f"no text for key {key!r} in any locale", MissingStringWarning, stacklevel=2
            )
            return key
        return plural.format_template(template, self._written(values, code))

    def plural_text(self, base: str, count: int, locale: str, **values: object) -> str:
        """The form of family ``base`` for ``count``, filled with ``count`` and ``values``."""
        code = self.negotiate(locale)
        strings = self._strings(code)
        category = (
            plural.plural_category(count, code)
            if code in plural.CLDR_PLURAL_CATEGORIES
            else "other"
        )
        for key in (f"{base}_{category}", f"{base}_other"):
            if key in strings:
                return plural.format_template(
                    strings[key], self._written({**values, "count": count}, code)
                )
        warnings.warn(
            f"no plural family {base!r} in any locale", MissingStringWarning, stacklevel=2
        )
        return base

    def _written(self, values: Mapping[str, object], code: str) -> dict[str, object]:
        """``values`` with every whole number (not a bool) written as locale ``code`` does."""
        numbering = self.load(code).meta.numbering
        return {
            k: format_number(v, code, numbering)
            if isinstance(v, int) and not isinstance(v, bool)
            else v
            for k, v in values.items()
        }

    def strings_for(self, locale: str) -> dict[str, Any]:
        """The bundle published to the front end for ``locale`` (plain JSON).

        Members: ``meta`` (code, native name, dir, numbering, plural categories), ``strings``
        (merged over English), ``rules`` (the rules page), ``cards`` (the 52 screen-reader card
        names, indexed by card), ``selected`` (what a screen reader hears when that card is picked
        up: "Selected: nine of hearts.", indexed by card) and ``available`` (code, native name
        and dir of every locale, for the language picker).
        """
        code = self.negotiate(locale)
        own = self.load(code)
        strings = self.merged_strings(code)
        cards = [_card_label(strings, card) for card in range(NUM_CARDS)]
        picked = strings["announce.select"]
        return {
            "meta": own.meta.to_dict(),
            "strings": strings,
            "rules": json.loads(json.dumps(own.rules)),
            "cards": cards,
            "selected": [plural.format_template(picked, {"card": name}) for name in cards],
            "available": [
                {"code": c, "name": m.name, "dir": m.dir}
                for c in self.available()
                for m in (self.load(c).meta,)
            ],
        }


# -- card names -------------------------------------------------------------------------


def _card_label(strings: Mapping[str, str], card: int) -> str:
    return plural.format_template(
        strings["card.label"],
        {
            "rank": strings[f"card.rank.{CARD_RANK[card]}"],
            "suit": strings[f"card.suit.{CARD_SUIT[card]}"],
        },
    )


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
    klondike_widget.i18n.plural.UnknownLocaleError: unknown locale 'fr'; available locales: ar, \
en, pl, tr
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
    """The bundle for the front end: ``meta``, ``strings``, ``rules``, ``cards``, ``selected``,
    ``available``.

    >>> bundle = strings_for("ar-EG")
    >>> bundle["meta"]["dir"], bundle["strings"]["button.undo.label"], len(bundle["cards"])
    ('rtl', 'تراجع', 52)
    """
    return default_catalog.strings_for(locale)
