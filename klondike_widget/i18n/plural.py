"""Plural rules, ``{name}`` templates and language tags: pure functions of text, no files.

:func:`plural_category` gives the CLDR category the browser's ``Intl.PluralRules`` gives;
a plural family is the set of keys ``<base>_<category>`` of one text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

__all__ = [
    "CLDR_PLURAL_CATEGORIES",
    "COUNT_OPTIONAL_CATEGORIES",
    "PLURAL_CATEGORIES",
    "UnknownLocaleError",
    "family_problem",
    "format_template",
    "placeholders",
    "plural_category",
    "plural_families",
]

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
_PLACEHOLDER_RE = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_PLURAL_SUFFIX_RE = re.compile(r"^(?P<base>.+)_(?P<cat>zero|one|two|few|many|other)$")


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


# -- negotiation -----------------------------------------------------------------------------


def _normalise_tag(tag: str) -> str:
    # "pl_PL.UTF-8@euro" -> "pl-pl"
    return tag.strip().split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()


def _primary_subtag(tag: str) -> str:
    if not isinstance(tag, str):
        raise TypeError(f"a locale is a language tag such as 'pl' or 'pl-PL', not {tag!r}")
    return _normalise_tag(tag).split("-", 1)[0]


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


def _family_of(key: str) -> str:
    m = _PLURAL_SUFFIX_RE.match(key)
    return m.group("base") if m else key


def _family_placeholders(strings: Mapping[str, str], base: str, cats: Iterable[str]) -> set[str]:
    return set().union(*(placeholders(strings[f"{base}_{c}"]) for c in cats))
