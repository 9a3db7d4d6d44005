"""axe-core in the browser tests: injected into the page with Playwright, run on the widget.

axe-core comes from the npm registry, pinned by ``package-lock.json`` and installed into
``node_modules/`` by ``scripts/install.sh`` (``npm ci``). A missing axe-core fails the test
that needs it (it is never skipped).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Locator

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

_RUN = """async ([el, tags]) => {
  const r = await window.axe.run(el, {runOnly: {type: 'tag', values: tags},
                                      resultTypes: ['violations']});
  return r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + n.failureSummary),
  }));
}"""


def inject_axe(root: Locator) -> str:
    """Put axe-core into the page of ``root`` (once per page load); return its version."""
    page = root.page
    if not page.evaluate("() => Boolean(window.axe && window.axe.run)"):
        if not AXE_JS.is_file():
            raise AssertionError(
                f"axe-core is missing ({AXE_JS}): run `bash scripts/install.sh`, which installs "
                "it with `npm ci` from package-lock.json"
            )
        page.add_script_tag(path=str(AXE_JS))
    version: str = page.evaluate("() => window.axe.version")
    return version


def axe_violations(root: Locator) -> list[dict[str, Any]]:
    """The violations axe-core finds in ``root`` (rules tagged ``AXE_TAGS``)."""
    inject_axe(root)
    found: list[dict[str, Any]] = root.page.evaluate(_RUN, [root.element_handle(), AXE_TAGS])
    return found


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations as lines of text, for an assertion message."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}")
        lines.extend(f"    {n}" for n in v["nodes"])
    return "\n".join(lines)
