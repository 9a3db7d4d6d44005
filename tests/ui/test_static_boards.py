"""A committed notebook opened untrusted in JupyterLab shows its boards as pictures, not text.

A fresh clone's notebooks carry no signature, so JupyterLab treats their stored outputs as
untrusted: it renders no ``image/svg+xml`` then and sanitises HTML (inline ``<svg>`` is removed,
leaving the cards' text: "Klondike position: stock 24 … 2413♠332K♠…"). The boards are stored as
``<img>`` elements of their SVG, which the sanitiser keeps. Nothing is run here: only what is
committed is looked at.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.ui.conftest import _FIND_PANEL, LabPage

REPO = Path(__file__).resolve().parents[2]

JS_TRUST = (
    "(path) => {"
    + _FIND_PANEL
    + """
  const p = findPanel(path);
  const cells = Array.from(p.content.model.cells);
  const code = cells.filter((c) => c.type === 'code');
  return {trusted: code.filter((c) => c.trusted).length, code: code.length};
}"""
)

JS_BOARDS = """
() => {
  const out = document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output');
  const imgs = Array.from(document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output img'));
  const boards = imgs.filter((i) => i.src.startsWith('data:image/svg+xml'));
  return {
    outputs: out.length,
    boards: boards.length,
    drawn: boards.filter((i) => i.complete && i.naturalWidth > 100).length,
    inlineSvg: document.querySelectorAll(
      '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output svg [data-kw="card"]').length,
    text: Array.from(out).map((o) => o.innerText).join('\\n'),
  };
}
"""


@pytest.mark.parametrize(
    ("name", "least"), [("02-rules.ipynb", 40), ("03-solver-lines.ipynb", 2)], ids=str
)
def test_committed_notebook_shows_board_images_untrusted(
    lab: LabPage, name: str, least: int
) -> None:
    shutil.copy(REPO / "notebooks" / name, lab.server.root_dir / name)
    page = lab.open_notebook(name)
    trust = page.evaluate(JS_TRUST, name)
    assert trust["code"] > 0 and trust["trusted"] == 0  # untrusted, as after a fresh clone
    page.wait_for_function(
        f"() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        f'.jp-OutputArea-output img[src^="data:image/svg+xml"]\').length >= {least}',
        timeout=60_000,
    )
    first = page.locator(
        '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output img[src^="data:image/svg"]'
    ).first
    first.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.jp-OutputArea-output img'))"
        ".filter((i) => i.src.startsWith('data:image/svg+xml'))"
        ".slice(0, 3).every((i) => i.complete && i.naturalWidth > 100)",
        timeout=30_000,
    )
    found = page.evaluate(JS_BOARDS)
    assert found["boards"] >= least
    assert found["drawn"] >= 1
    assert found["inlineSvg"] == 0  # nothing relies on inline SVG (stripped when untrusted)
    # no board fell back to text: neither the picture's title nor runs of card symbols
    assert "Klondike position:" not in found["text"]
    assert "♠K♠" not in found["text"] and "K♠KKKK" not in found["text"]
    box = first.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 150
    lab.screenshot(f"untrusted-{name.removesuffix('.ipynb')}")
