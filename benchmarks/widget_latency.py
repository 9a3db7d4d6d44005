"""How fast the widget answers in a real browser, and how big one state update is.

Starts a private JupyterLab (the same harness the browser tests use, ``tests/ui/conftest.py``),
opens a notebook showing ``KlondikeWidget`` in Debian's chromium through Playwright, and clicks
the real page: taps on the stock, click-to-pick then click-to-drop moves, and the Undo button.
For each click it measures, inside the page, the time from the ``pointerdown`` to the moment the
board shows the new state (the widget's ``data-seq`` changes after its render); the background
solver runs as it does for a player. It also records every ``view`` update the kernel sends on
the websocket (the whole Jupyter message, as sent) and the JSON size of the ``view`` trait.

Run: ``python benchmarks/widget_latency.py [--clicks 60] [--deal 3]``. Prints a table. The goal:
p95 under 50 ms on localhost, one update under 8 KB.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playwright.sync_api import Error as PlaywrightError
from widget_page import LabPage, percentile, widget_cell, widget_in_lab

INSTALL_PROBE = """
(root) => {
  window.__kwLat = [];
  window.__kwT0 = 0;
  root.addEventListener('pointerdown', () => { window.__kwT0 = performance.now(); }, true);
  window.__kwRender = [];
  window.__kwTrip = [];
  new MutationObserver(() => {
    if (window.__kwT0) {
      window.__kwLat.push(performance.now() - window.__kwT0);
      window.__kwRender.push(Number(root.dataset.renderMs));
      window.__kwTrip.push(Number(root.dataset.latency || 'NaN'));
    }
    window.__kwT0 = 0;
  }).observe(root, {attributes: true, attributeFilter: ['data-seq']});
  return true;
}
"""


def _row(name: str, unit: str, values: list[float]) -> str:
    if not values:
        return f"{name:<34} {unit:<6} {'0':>5} {'-':>9} {'-':>9} {'-':>9} {'-':>9}"
    return (
        f"{name:<34} {unit:<6} {len(values):>5} {statistics.median(values):>9.1f} "
        f"{percentile(values, 0.95):>9.1f} {max(values):>9.1f} {statistics.fmean(values):>9.1f}"
    )


# jupyter_server's kernel websocket leaves Nagle's algorithm on: a small frame written while an
# earlier one is unacknowledged waits for the browser's delayed ACK (40 ms on Linux). The package's
# server extension (klondike_widget.server_extension, enabled by the install) sets TCP_NODELAY;
# --without-extension measures a stock server by disabling it for this run.
WITHOUT_EXTENSION_CONFIG = """
c.ServerApp.jpserver_extensions = {"klondike_widget.server_extension": False}
"""


def _click_and_wait(lab: LabPage, target: Any, count: int) -> None:
    target.click()
    lab.page.wait_for_function(f"() => window.__kwLat.length >= {count}", timeout=10_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60, help="stock taps to time")
    parser.add_argument("--deal", type=int, default=3)
    parser.add_argument("--no-solver", action="store_true", help="analyse=False")
    parser.add_argument(
        "--thread-solver",
        action="store_true",
        help="search in a thread of the kernel (as before the solver process) to compare",
    )
    parser.add_argument(
        "--without-extension",
        action="store_true",
        help="disable klondike_widget.server_extension (a stock server: Nagle's delay)",
    )
    parser.add_argument("--gap", type=int, default=0, help="ms to wait before each stock tap")
    parser.add_argument(
        "--burst", type=int, default=50, help="stock taps 20 ms apart, not waiting for the board"
    )
    args = parser.parse_args()

    frames: list[int] = []

    def on_page(page: Any) -> None:
        def on_ws(ws: Any) -> None:
            def on_frame(payload: str | bytes) -> None:
                text = payload if isinstance(payload, str) else payload.decode("latin-1")
                if '"comm_msg"' in text and '"view"' in text and '"update"' in text:
                    frames.append(len(payload))

            ws.on("framereceived", on_frame)

        page.on("websocket", on_ws)

    cell = widget_cell(args.deal, not args.no_solver, args.thread_solver)
    config = WITHOUT_EXTENSION_CONFIG if args.without_extension else ""
    with widget_in_lab(
        "benchmark-jupyterlab.log", "bench.ipynb", cell, server_config=config, on_page=on_page
    ) as (lab, root):
        page = lab.page
        page.evaluate(INSTALL_PROBE, root.element_handle())
        n = 0
        frames.clear()

        stock = root.locator(".kw-pile-s")
        for _ in range(args.clicks):
            n += 1
            page.wait_for_timeout(args.gap)
            _click_and_wait(lab, stock, n)
        taps = list(page.evaluate("() => window.__kwLat"))

        undo = root.locator(".kw-btn-undo")
        for _ in range(20):
            n += 1
            _click_and_wait(lab, undo, n)
        undos = list(page.evaluate("() => window.__kwLat"))[len(taps) :]
        renders = list(page.evaluate("() => window.__kwRender"))
        trips = list(page.evaluate("() => window.__kwTrip"))

        # Click-to-pick then click-to-drop, on a move Python published as legal.
        lab.kernel_exec(f"w.new_deal({args.deal}); w.one_click = False")
        page.wait_for_timeout(300)
        move = json.loads(
            lab.kernel_exec(
                "import json; print(json.dumps(next([s, m[1]] for s, ms in "
                "w.view['legal'].items() for m in ms if m[0] == 1 and s[0] in 'tw')))"
            ).strip()
        )
        src, dst = move
        drops: list[float] = []
        for _ in range(15):
            base = int(page.evaluate("() => window.__kwLat.length"))
            root.locator(f".kw-pile[data-pile='{src}'] .kw-card[data-card]").last.click()
            _click_and_wait(lab, root.locator(f".kw-pile[data-pile='{dst}']"), base + 1)
            drops.append(float(page.evaluate("() => window.__kwLat.at(-1)")))
            seq = int(root.get_attribute("data-seq") or "0")
            lab.kernel_exec("w.undo()")  # not timed: no pointerdown before it
            page.wait_for_function(
                f"(el) => Number(el.dataset.seq) > {seq}", arg=root.element_handle()
            )
        # One-click moves: a single click on the same card plays its published target.
        lab.kernel_exec("w.one_click = True")
        page.wait_for_timeout(300)
        quick: list[float] = []
        for _ in range(15):
            base = int(page.evaluate("() => window.__kwLat.length"))
            card = root.locator(f".kw-pile[data-pile='{src}'] .kw-card[data-card]").last
            _click_and_wait(lab, card, base + 1)
            quick.append(float(page.evaluate("() => window.__kwLat.at(-1)")))
            seq = int(root.get_attribute("data-seq") or "0")
            lab.kernel_exec("w.undo()")
            page.wait_for_function(
                f"(el) => Number(el.dataset.seq) > {seq}", arg=root.element_handle()
            )
        burst = _burst(lab, root, args.burst)

    print()
    solver = "off" if args.no_solver else "in a kernel thread" if args.thread_solver else "on"
    nagle = (
        "stock jupyter_server (Nagle on)"
        if args.without_extension
        else "klondike_widget.server_extension: TCP_NODELAY"
    )
    print(
        f"KlondikeWidget in JupyterLab + chromium on localhost: deal {args.deal}, "
        f"solver {solver}, {nagle}"
    )
    header = f"{'measure':<34} {'unit':<6} {'n':>5} {'p50':>9} {'p95':>9} {'max':>9} {'mean':>9}"
    print(header)
    print("-" * len(header))
    print(_row("stock tap: click -> board", "ms", taps))
    print(_row("Undo button: click -> board", "ms", undos))
    print(_row("pick + drop: 2nd click -> board", "ms", drops))
    print(_row("one-click move: click -> board", "ms", quick))
    print(_row("  from the intent sent -> board", "ms", trips))
    print(_row("  of which the widget's render", "ms", renders))
    print(_row("view update on the websocket", "bytes", [float(f) for f in frames]))
    print(_row("view trait JSON over a won game", "bytes", _view_sizes(args.deal)))
    print(_row(f"{args.burst} taps 20 ms apart -> all shown", "ms", [burst[0]]))
    print(f"  taps the game counted: {burst[1]} of {args.burst}")
    print(f"load average during the run (1/5/15 min): {os.getloadavg()}, cores: {os.cpu_count()}")
    everything = taps + undos + drops + quick
    ok_latency = percentile(everything, 0.95) < 50
    ok_size = bool(frames) and max(frames) < 8 * 1024
    print()
    print(
        f"p95 of all clicks: {percentile(everything, 0.95):.1f} ms (goal < 50 ms): "
        f"{'OK' if ok_latency else 'MISSED'}"
    )
    print(
        f"largest update: {max(frames) if frames else 0} bytes (goal < 8192): "
        f"{'OK' if ok_size else 'MISSED'}"
    )


def _burst(lab: LabPage, root: Any, taps: int) -> tuple[float, int]:
    """Tap the stock ``taps`` times 20 ms apart without waiting; return the ms from the first
    tap until the Moves counter shows them all (or 30 s), and how many the game counted."""
    lab.kernel_exec("w.restart()")
    root.page.wait_for_function(
        "(el) => el.querySelector('.kw-moves').textContent.endsWith(' 0')",
        arg=root.element_handle(),
    )
    stock = root.locator(".kw-pile-s")
    stock.scroll_into_view_if_needed()
    box = stock.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page = lab.page
    t0 = page.evaluate("() => performance.now()")
    for _ in range(taps):
        page.mouse.click(x, y)
        page.wait_for_timeout(20)
    # Not all shown within 30 s: the count below says how many the game took.
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(
            f"(el) => el.querySelector('.kw-moves').textContent.endsWith(' {taps}')",
            arg=root.element_handle(),
            timeout=30_000,
        )
    elapsed = float(page.evaluate("() => performance.now()")) - float(t0)
    counted = int(lab.kernel_exec("print(w.game.moves_count)").strip())
    return elapsed, counted


def _view_sizes(deal: int) -> list[float]:
    """UTF-8 JSON size of ``view`` after every move of the solver's winning line of ``deal``."""
    from klondike_widget import Game, KlondikeWidget
    from klondike_widget.solver import Limit, solve

    line = solve(Game.new(deal=deal).state, Limit(seconds=30)).moves
    w = KlondikeWidget(deal=deal, analyse=False, stats=False)
    sizes = []
    for move in line:
        w.play(move)
        sizes.append(float(len(json.dumps(w.view, ensure_ascii=False).encode("utf-8"))))
    w.close()
    return sizes


if __name__ == "__main__":
    main()
