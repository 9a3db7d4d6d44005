"""Contrast of the widget's colours as the browser applies them (WCAG 2.1: 4.5:1 for text,
3:1 for marks that mean something), in JupyterLab's light and dark themes and in the
high-contrast (``forced-colors``) mode.

Each colour is read with ``getComputedStyle`` from an element of the widget that wears it (the
status pill in each of its states, a field label, the current step of a line, ...) or from a
probe element painted with one of the widget's CSS custom properties; a background is the
composite of the element's ancestors' backgrounds. The table is written to
``test-artifacts/a11y-contrast.md`` and printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import set_theme

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

# [what, needed ratio, JS expression giving [foreground, background] (CSS colours)]
# Helpers in the page (see _MEASURE): st(state) sets the status pill, fg(el)/bg(el) read an
# element's text colour / composited background, v(name) a custom property of the widget.
PAIRS: list[tuple[str, float, str]] = [
    *[
        (f"status '{s}' text on the pill", 4.5, f"[fg(st('{s}')), bg(st('{s}'))]")
        for s in ("solving", "winnable", "unwinnable", "unknown", "won", "finishing")
    ],
    ("button text", 4.5, "[fg(q('.kw-btn-rules')), bg(q('.kw-btn-rules'))]"),
    ("field label", 4.5, "[fg(q('.kw-field-label')), bg(q('.kw-field-label'))]"),
    ("moves counter", 4.5, "[fg(q('.kw-moves')), bg(q('.kw-moves'))]"),
    ("hint text", 4.5, "[fg(probe('div', 'kw-hint-text')), bg(probe('div', 'kw-hint-text'))]"),
    (
        "line: current step",
        4.5,
        "[fg(probe('li', 'kw-line-item kw-current')), bg(probe('li', 'kw-line-item kw-current'))]",
    ),
    (
        "line: step number, dim text",
        4.5,
        "[fg(probe('span', 'kw-line-num')), bg(probe('span', 'kw-line-num'))]",
    ),
    (
        "dim text on a button's grey",
        4.5,
        "[fg(probe('span', 'kw-line-num')), bg(q('.kw-btn-rules'))]",
    ),
    ("legal-target ring on the felt", 3.0, "[mark(add(pile(2), 'kw-target')), felt()]"),
    ("legal-target ring on the felt's edge", 3.0, "[mark(add(pile(2), 'kw-target')), felt(1)]"),
    ("picked-card ring on the felt", 3.0, "[mark(add(card(0), 'kw-picked')), felt()]"),
    ("hint ring on the felt", 3.0, "[mark(add(card(1), 'kw-hint-src')), felt()]"),
    ("next-step ring on the felt", 3.0, "[mark(add(card(2), 'kw-next-src')), felt()]"),
    ("focus ring on the felt", 3.0, "[outline(focus(pile(4))), felt()]"),
    ("focus ring on the felt's edge", 3.0, "[outline(focus(pile(4))), felt(1)]"),
    ("focus ring of a button", 3.0, "[outline(focus(q('.kw-btn-rules'))), bg(q('.kw-toolbar'))]"),
    (
        "line: upcoming step's mark",
        3.0,
        "[border(probe('li', 'kw-line-item kw-upcoming')), bg(q('.kw-toolbar'))]",
    ),
]

_MEASURE = r"""([root, pairs]) => {
  const made = [];
  const q = (sel) => root.querySelector(sel);
  const probe = (tag, cls) => {
    const key = tag + '.' + cls;
    const old = made.find((m) => m.key === key);
    if (old) return old.el;
    const e = document.createElement(tag);
    e.className = cls;
    e.textContent = 'Aa';
    const host = tag === 'li' ? document.createElement('ol') : null;
    if (host) { host.className = 'kw-line-list'; host.append(e); }
    root.append(host || e);
    made.push({key, el: e, top: host || e});
    return e;
  };
  const v = (name) => {
    const e = probe('div', 'kw-probe-var');
    e.style.backgroundColor = 'var(' + name + ')';
    return getComputedStyle(e).backgroundColor;
  };
  const st = (state) => {
    const e = q('.kw-status');
    e.hidden = false;
    e.dataset.analysis = state;
    e.textContent = e.textContent || state;
    return e;
  };
  const forced = matchMedia('(forced-colors: active)').matches;
  const added = [];
  const add = (el, cls) => { el.classList.add(cls); added.push([el, cls]); return el; };
  const pile = (i) => root.querySelectorAll('.kw-pile-t')[i];
  const card = (i) => pile(i).querySelector('.kw-card[data-card]');
  const focus = (el) => { el.focus({focusVisible: true}); return el; };
  // a ring is a box-shadow (its first colour), an outline in forced-colors mode
  const mark = (el) => forced ? getComputedStyle(el).outlineColor
    : getComputedStyle(el).boxShadow.match(/rgba?\([^)]+\)/)[0];
  // the felt is a gradient from --kw-felt to --kw-felt-edge; the system's canvas when forced
  const felt = (edge) => forced ? bg(q('.kw-table')) : v(edge ? '--kw-felt-edge' : '--kw-felt');
  const border = (el) => getComputedStyle(el).borderInlineStartColor;
  const parse = (c) => {
    const srgb = c.match(/color\(srgb ([^)]+)\)/); // what color-mix() computes to
    if (srgb) {
      const p = srgb[1].split(/[ /]+/).filter(Boolean).map(Number);
      return {r: p[0] * 255, g: p[1] * 255, b: p[2] * 255, a: p.length > 3 ? p[3] : 1};
    }
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) throw new Error('not a colour: ' + c);
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const bg = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) layers.push(c);
      if (c && c.a >= 1) break;
    }
    let out = {r: 255, g: 255, b: 255};
    for (const c of layers.reverse()) {
      out = {r: c.r * c.a + out.r * (1 - c.a), g: c.g * c.a + out.g * (1 - c.a),
             b: c.b * c.a + out.b * (1 - c.a)};
    }
    return `rgb(${out.r}, ${out.g}, ${out.b})`;
  };
  const fg = (el) => getComputedStyle(el).color;
  const outline = (el) => getComputedStyle(el).outlineColor;
  const lum = (c) => {
    const ch = [c.r, c.g, c.b].map((x) => {
      const s = x / 255;
      return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const out = pairs.map(([what, need, expr]) => {
    const [a, b] = eval(expr);
    const cb = parse(b);
    const top = parse(a); // a see-through colour is seen over its background
    const ca = {r: top.r * top.a + cb.r * (1 - top.a), g: top.g * top.a + cb.g * (1 - top.a),
                b: top.b * top.a + cb.b * (1 - top.a)};
    const [la, lb] = [lum(ca), lum(cb)];
    const ratio = (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    const seen = `rgb(${Math.round(ca.r)}, ${Math.round(ca.g)}, ${Math.round(ca.b)})`;
    return {what, need, fg: seen, bg: b, ratio: Math.round(ratio * 100) / 100};
  });
  for (const m of made) m.top.remove();
  for (const [el, cls] of added) el.classList.remove(cls);
  document.activeElement && document.activeElement.blur && document.activeElement.blur();
  return out;
}"""


def _measure(root: Locator) -> list[dict[str, object]]:
    pairs = [list(p) for p in PAIRS]
    found: list[dict[str, object]] = root.page.evaluate(_MEASURE, [root.element_handle(), pairs])
    return found


def _hex(css: object) -> str:
    parts = str(css).split("(")[-1].rstrip(")").replace(",", " ").split()
    return "#" + "".join(f"{round(float(x)):02x}" for x in parts[:3])


def test_every_text_and_mark_has_enough_contrast_in_light_dark_and_forced_colors(
    lab: LabPage, artifacts_dir: Path
) -> None:
    root = _open(lab, "a11y-contrast.ipynb", "w = KlondikeWidget(deal=3, analyse=False)")
    modes: dict[str, list[dict[str, object]]] = {"light": _measure(root)}
    set_theme(lab, "JupyterLab Dark", light=False)
    try:
        modes["dark"] = _measure(root)
    finally:
        set_theme(lab, "JupyterLab Light", light=True)
    lab.page.emulate_media(forced_colors="active")
    try:
        modes["forced colors"] = _measure(root)
    finally:
        lab.page.emulate_media(forced_colors="none")
    lines = ["| pair | needs | " + " | ".join(modes) + " |", "|---|---|" + "---|" * len(modes)]
    bad = []
    for i, (what, need, _) in enumerate(PAIRS):
        cells = []
        for mode, rows in modes.items():
            row = rows[i]
            ratio = float(row["ratio"])  # type: ignore[arg-type]
            cells.append(f"{ratio:.2f} ({_hex(row['fg'])} on {_hex(row['bg'])})")
            if ratio < need:
                bad.append(f"{mode}: {what} is {ratio:.2f}:1, needs {need}:1 ({row})")
        lines.append(f"| {what} | {need}:1 | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    (artifacts_dir / "a11y-contrast.md").write_text(table + "\n", "utf-8")
    print(table)
    assert not bad, "\n".join(bad)
