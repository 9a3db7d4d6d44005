"""In the browser, every pile is named with Python's finished text, in the language shown.

The front end composes no text (``view["texts"]``, ``klondike_widget/widget/texts.py``): each
pile's ``aria-label`` is its ``view["texts"]["piles"]`` name, and after a change of language
every name is the new language's, the deal line and the picked card's announcement too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.ui.widget_page import TIMEOUT
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

_LABELS = """(root) => Object.fromEntries(Array.from(root.querySelectorAll('.kw-pile'))
  .map((p) => [p.dataset.pile, p.getAttribute('aria-label')]))"""


def _names_match(lab: LabPage, root: Locator) -> None:
    piles = _py(lab, "w.view['texts']['piles']")
    labels = root.evaluate(_LABELS)
    assert set(labels) == set(piles)
    for pile, name in piles.items():
        assert labels[pile] == name, (pile, labels[pile], name)
    assert root.locator(".kw-deal").text_content() == _py(lab, "w.view['texts']['deal']")


def test_pile_names_are_pythons_and_follow_the_language(lab: LabPage) -> None:
    root = _open(lab, "texts.ipynb", "w = KlondikeWidget(deal=1234567, analyse=False)")
    _names_match(lab, root)
    assert root.locator(".kw-deal").text_content() == "Deal 1,234,567"
    for lang in ("pl", "ar", "tr"):
        lab.kernel_exec(f"w.locale = {lang!r}")
        root.page.wait_for_function(
            "([el, l]) => el.getAttribute('lang') === l", arg=[root.element_handle(), lang]
        )
        root.page.wait_for_timeout(300)  # the view in the new language follows the strings
        _names_match(lab, root)
    # a card picked is said with Python's words for it
    root.locator(".kw-pile-t[data-pile='t7'] .kw-card[data-card]").last.click()
    root.locator(".kw-picked").first.wait_for(timeout=TIMEOUT)
    card = int(root.locator(".kw-picked").last.get_attribute("data-card") or "-1")
    said = _py(lab, f"w.strings['selected'][{card}]")
    root.page.wait_for_function(
        "([el, t]) => el.querySelector('.kw-live').textContent.trim() === t",
        arg=[root.element_handle(), said],
        timeout=TIMEOUT,
    )
