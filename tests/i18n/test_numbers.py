"""Numbers in Python's finished texts read as the browser's Intl.NumberFormat writes them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from klondike_widget.i18n import LocaleCatalog, default_catalog, load_locale
from klondike_widget.i18n.numbers import format_duration, format_number

LOCALES = ("en", "pl", "tr", "ar")
NUMBERS = (0, 1, 7, 12, 999, 1000, 1234, 9999, 10000, 12345, 123456, 1234567, 4294967295, -5, -1234)

_INTL = """
const [locales, numbers] = JSON.parse(process.argv[1]);
const out = {};
for (const [code, numbering] of locales) {
  const f = new Intl.NumberFormat(code, {numberingSystem: numbering});
  out[`${code} ${numbering}`] = numbers.map((n) => f.format(n));
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (Intl with full ICU)")
def test_format_number_agrees_with_intl_number_format() -> None:
    locales = [[code, load_locale(code).meta.numbering] for code in LOCALES]
    locales.append(["ar", "arab"])  # a locale file may choose the Arabic-Indic digits
    run = subprocess.run(
        ["node", "-e", _INTL, json.dumps([locales, list(NUMBERS)])],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    intl = json.loads(run.stdout)
    for code, numbering in locales:
        mine = [format_number(n, code, numbering) for n in NUMBERS]
        assert mine == intl[f"{code} {numbering}"], (code, numbering)


@pytest.mark.parametrize(
    ("number", "lang", "text"),
    [
        (1234, "en", "1,234"),
        (1234, "pl", "1234"),
        (12345, "pl", "12\u00a0345"),
        (1234, "tr", "1.234"),
        (1234, "ar", "1,234"),
        (-5, "ar", "\u200e-5"),
        (1234, "fr", "1234"),  # a language without a table entry: no grouping
    ],
)
def test_format_number(number: int, lang: str, text: str) -> None:
    assert format_number(number, lang) == text


def test_format_duration() -> None:
    assert format_duration(0, "en") == "00:00"
    assert format_duration(65_999, "ar") == "01:05"
    assert format_duration(3_599_999, "pl") == "59:59"
    assert format_duration(3_600_000, "tr") == "1:00:00"
    assert format_duration(-5, "en") == "00:00"


def test_texts_follow_the_locales_numbering(tmp_path: Path) -> None:
    for source in default_catalog.directory.glob("*.json"):
        data = json.loads(source.read_text(encoding="utf-8"))
        if data["meta"]["code"] == "ar":
            data["meta"]["numbering"] = "arab"
        (tmp_path / source.name).write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    catalog = LocaleCatalog([tmp_path])
    assert catalog.text("analysis.step", "ar", index=3, total=1234) == (
        "\u0627\u0644\u062e\u0637\u0648\u0629 \u0663 \u0645\u0646 \u0661\u066c\u0662\u0663\u0664"
    )
    assert catalog.text("analysis.step", "en", index=3, total=1234) == "Step 3 of 1,234"
    assert format_duration(3_725_000, "ar", "arab") == "\u0661:\u0660\u0662:\u0660\u0665"
