"""axe-core (WCAG 2.0/2.1 A and AA, best practices) finds nothing in any state of the widget.

One notebook; the widget goes through every state a player meets (fresh board, a card picked,
each panel, a hint, a solver line, the confirmation, the win) in the four languages, then in
JupyterLab's dark theme. axe-core runs on the widget's root each time; the table of violations
(state x language) is written to ``test-artifacts/a11y-axe.json`` and printed, and the test
fails listing every violation found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.ui.axe_page import axe_violations, describe, inject_axe
from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT, seq, set_theme
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

LOCALES = ["en", "pl", "tr", "ar"]
PANELS = [  # [state, toolbar button, what shows]
    ("rules", ".kw-btn-rules", ".kw-panel[data-panel='rules']"),
    ("settings", ".kw-btn-settings", ".kw-settings"),
    ("keys help", ".kw-btn-keys", ".kw-panel[data-panel='keys']"),
    ("statistics", ".kw-btn-stats", ".kw-panel[data-panel='stats']"),
    ("deal number", ".kw-btn-number", ".kw-panel[data-panel='deal']"),
]


class Audit:
    """Runs axe-core on the widget and keeps the violations by state and column."""

    def __init__(self, root: Locator) -> None:
        self.root = root
        self.table: dict[str, dict[str, list[dict[str, Any]]]] = {}

    def __call__(self, state: str, column: str) -> None:
        self.root.page.wait_for_timeout(150)  # a panel's focus moves after a tick
        self.table.setdefault(state, {})[column] = axe_violations(self.root)

    def failures(self) -> str:
        out = []
        for state, row in self.table.items():
            for column, found in row.items():
                if found:
                    out.append(f"--- {state} / {column}\n{describe(found)}")
        return "\n".join(out)


def _wait_newer(root: Locator, than: int) -> None:
    root.page.wait_for_function(
        "([el, s]) => Number(el.dataset.seq) > s",
        arg=[root.element_handle(), than],
        timeout=TIMEOUT,
    )


def _set_locale(lab: LabPage, root: Locator, locale: str) -> None:
    lab.kernel_exec(f"w.locale = {locale!r}")
    root.page.wait_for_function(
        "([el, l]) => el.getAttribute('lang') === l", arg=[root.element_handle(), locale]
    )


def _board_states(lab: LabPage, root: Locator, audit: Audit, column: str) -> None:
    """Every state of a game in progress, audited under ``column``."""
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    audit("fresh board", column)
    root.locator(".kw-pile-t[data-pile='t7'] .kw-card[data-card]").last.click()
    root.locator(".kw-picked").first.wait_for(timeout=TIMEOUT)
    audit("card picked", column)
    # The names are in the active language: the table's, and the picked pile's mark.
    names = _py(lab, "{k: w.strings['strings'][k] for k in ('a11y.board', 'a11y.mark.picked')}")
    assert root.locator(".kw-table").get_attribute("aria-label") == names["a11y.board"]
    label = root.locator(".kw-pile[data-pile='t7']").get_attribute("aria-label") or ""
    assert label.endswith(names["a11y.mark.picked"]), label
    root.page.keyboard.press("Escape")
    root.locator(".kw-picked").wait_for(state="detached", timeout=TIMEOUT)
    for state, button, shown in PANELS:
        root.locator(button).click()
        root.locator(shown).wait_for(state="visible", timeout=TIMEOUT)
        audit(state, column)
        root.page.keyboard.press("Escape")
        root.locator(shown).wait_for(state="hidden", timeout=TIMEOUT)
    root.locator(".kw-btn-hint").click()
    root.locator(".kw-hint-src").first.wait_for(timeout=TIMEOUT)
    audit("hint", column)
    root.locator(".kw-btn-line").click()
    root.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
    before = seq(root)
    root.locator(".kw-line-next").click()
    _wait_newer(root, before)
    audit("solver line", column)
    root.locator(".kw-btn-back").click()
    root.locator(".kw-line").wait_for(state="hidden", timeout=TIMEOUT)
    # A move, then New deal asks first.
    before = seq(root)
    root.locator(".kw-pile-s").click()
    _wait_newer(root, before)
    root.locator(".kw-btn-new").click()
    root.locator(".kw-panel[data-panel='confirm']").wait_for(state="visible", timeout=TIMEOUT)
    audit("confirm", column)
    root.locator(".kw-btn-cancel").click()
    before = seq(root)
    root.locator(".kw-btn-undo").click()
    _wait_newer(root, before)


def _write_table(audit: Audit, path: Path, version: str) -> str:
    columns = sorted({c for row in audit.table.values() for c in row}, key=_column_order)
    lines = [f"axe-core {version}: violations by state and column", ""]
    lines.append("| state | " + " | ".join(columns) + " |")
    lines.append("|---|" + "---|" * len(columns))
    for state, row in audit.table.items():
        cells = ["-" if c not in row else str(sum(v["count"] for v in row[c])) for c in columns]
        lines.append(f"| {state} | " + " | ".join(cells) + " |")
    text = "\n".join(lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"axe": version, "table": audit.table}, indent=1), "utf-8")
    path.with_suffix(".md").write_text(text + "\n", "utf-8")
    return text


def _column_order(column: str) -> tuple[int, str]:
    return (column.startswith("dark"), column)


def test_axe_finds_nothing_in_any_state_language_or_theme(
    lab: LabPage, tmp_path: Path, artifacts_dir: Path
) -> None:
    setup = (
        f"import os\nos.environ['KLONDIKE_WIDGET_DATA_DIR'] = {str(tmp_path)!r}\n"
        "w = KlondikeWidget(deal=3, pace=0, locale='en')"
    )
    root = _open(lab, "a11y-axe.ipynb", setup)
    version = inject_axe(root)
    audit = Audit(root)
    for locale in LOCALES:
        _set_locale(lab, root, locale)
        _board_states(lab, root, audit, locale)
    root.locator(".kw-btn-finish").click()
    root.locator(".kw-win").wait_for(state="visible", timeout=SOLVE_TIMEOUT)
    for locale in LOCALES:
        _set_locale(lab, root, locale)
        audit("win overlay", locale)
    set_theme(lab, "JupyterLab Dark", light=False)
    try:
        for locale in ("en", "ar"):
            _set_locale(lab, root, locale)
            audit("win overlay", f"dark {locale}")
        lab.kernel_exec("w.new_deal(3)")
        root.locator(".kw-win").wait_for(state="hidden", timeout=TIMEOUT)
        for locale in ("en", "ar"):
            _set_locale(lab, root, locale)
            _board_states(lab, root, audit, f"dark {locale}")
        set_theme(lab, "JupyterLab Light", light=True)
        lab.kernel_exec(
            "from klondike_widget.solver import Limit\n"
            "w.new_deal(3); w.play('s'); w.play('s'); w.review(Limit(seconds=5))"
        )
        root.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
        for locale in LOCALES:
            _set_locale(lab, root, locale)
            audit("game review", locale)
    finally:
        table = _write_table(audit, artifacts_dir / "a11y-axe.json", version)
        print(table)
        set_theme(lab, "JupyterLab Light", light=True)
    failures = audit.failures()
    assert not failures, f"axe-core {version} found violations:\n{failures}"


class _PageWithoutAxe:
    def evaluate(self, script: str, arg: object = None) -> object:
        return False  # window.axe is not there


class _RootWithoutAxe:
    page = _PageWithoutAxe()


def test_a_missing_axe_core_fails_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tests.ui import axe_page

    monkeypatch.setattr(axe_page, "AXE_JS", tmp_path / "node_modules" / "axe-core" / "axe.min.js")
    with pytest.raises(AssertionError, match=r"axe-core is missing .*scripts/install\.sh.*npm ci"):
        inject_axe(_RootWithoutAxe())  # type: ignore[arg-type]
