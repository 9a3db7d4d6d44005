"""Whole numbers and durations written as the active language writes them.

The widget's texts come finished from Python, numbers included, so they must read exactly as
the browser's ``Intl.NumberFormat(code, {numberingSystem: meta.numbering})`` writes them (the
running clock and the live counters are still formatted there). Every shipped locale uses the
``latn`` digits; what differs is the grouping: CLDR's group separator, how many digits a number
needs before it is grouped at all (Polish groups from five digits: ``1234`` but ``12 345``), and
the sign (Arabic puts a left-to-right mark before the minus). A language missing from the table
is written without grouping. A locale file may choose the ``arab`` numbering instead (Arabic-Indic
digits, with their own separator and sign); any other numbering is written in ``latn`` digits.

Examples
--------
>>> format_number(1234567, "en"), format_number(1234, "pl"), format_number(12345, "pl")
('1,234,567', '1234', '12\\xa0345')
>>> format_number(9999, "tr"), format_duration(65_000, "ar"), format_duration(3_725_000, "en")
('9.999', '01:05', '1:02:05')
>>> print(format_number(1234, "ar", "arab") == "\u0661\u066c\u0662\u0663\u0664")
True
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["format_duration", "format_number"]


class _Grouping(NamedTuple):
    separator: str
    min_digits: int  # a number with fewer digits is not grouped
    minus: str


#: CLDR number symbols of the shipped locales with the ``latn`` numbering system.
_GROUPING = {
    "en": _Grouping(",", 4, "-"),
    "tr": _Grouping(".", 4, "-"),
    "pl": _Grouping("\u00a0", 5, "-"),
    "ar": _Grouping(",", 4, "\u200e-"),
}


#: The ``arab`` numbering system's digits, group separator and minus sign (CLDR).
_ARAB_DIGITS = str.maketrans("0123456789", "".join(chr(0x0660 + d) for d in range(10)))
_ARAB = _Grouping("\u066c", 4, "\u061c-")


def _language(locale: str) -> str:
    return locale.replace("_", "-").split("-", 1)[0].lower()


def format_number(number: int, locale: str, numbering: str = "latn") -> str:
    """``number`` with the locale's grouping and minus sign, as ``Intl.NumberFormat`` writes it.

    >>> format_number(-5, "en"), format_number(1000, "en"), format_number(1000, "xx")
    ('-5', '1,000', '1000')
    """
    rule = _GROUPING.get(_language(locale))
    if rule is not None and numbering == "arab":
        rule = _ARAB._replace(min_digits=rule.min_digits)
    digits = str(abs(int(number)))
    if rule is not None and len(digits) >= rule.min_digits:
        head = len(digits) % 3 or 3
        groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
        digits = rule.separator.join(groups)
    if number < 0:
        digits = (rule.minus if rule is not None else "-") + digits
    return digits.translate(_ARAB_DIGITS) if numbering == "arab" else digits


def format_duration(ms: int, locale: str, numbering: str = "latn") -> str:
    """``ms`` milliseconds as ``mm:ss``, or ``h:mm:ss`` from one hour (seconds truncated).

    >>> format_duration(0, "en"), format_duration(59_999, "pl"), format_duration(36_000_000, "tr")
    ('00:00', '00:59', '10:00:00')
    """
    seconds = max(0, int(ms)) // 1000
    hours, rest = divmod(seconds, 3600)
    clock = f"{rest // 60:02d}:{rest % 60:02d}"
    if numbering == "arab":
        clock = clock.translate(_ARAB_DIGITS)
    return f"{format_number(hours, locale, numbering)}:{clock}" if hours else clock
