"""Where the time of one stock tap goes: each stage in the kernel, the transport, the render.

Starts a private JupyterLab and chromium (``benchmarks/widget_page.py``, shared with
``widget_latency.py``), shows a ``KlondikeWidget`` and taps the stock ``--taps`` times, each tap
after the board answered the last. Inside the kernel a probe wraps the stages of the intent's
path with timers (wall clock ``perf_counter`` and the main thread's CPU ``thread_time``;
``process_time`` for the whole kernel, solver thread included):

``handle``      ipywidgets' ``_handle_msg``: the whole intent, from receipt to return
``engine``      ``Game.play`` (the rules engine applies the tap)
``narration``   ``i18n.announce_move`` (the words read to screen readers)
``board_view``  the view dict (piles, legal moves, counters)
``view texts``  ``view["texts"]``: the piles' names, the deal, the hint... finished in words
``play extras`` one-click targets, the auto-complete offer, the score
``view sync``   ``send_state("view")``: trait to JSON, the Jupyter message, into zmq
``after send``  what runs after the board left (statistics, the solver's request)

In the page it records for each tap the time from ``pointerdown`` to the new board, from the
intent sent (``pointerup``) to the new board, and the widget's render; with the kernel's wall
clock stamps it splits the round trip into browser -> kernel, kernel, kernel -> browser.

Run at normal priority (no ``nice``) for figures: ``python benchmarks/tap_profile.py
[--taps 60] [--deal 3] [--no-solver]``. Prints a table of p50/p95/max per stage.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from widget_page import LabPage, percentile, widget_cell, widget_in_lab

#: Runs in the kernel: wraps the stages of an intent with timers; ``_kw_rec`` gets one record each.
KERNEL_PROBE = r"""
import time, json, functools
import klondike_widget.widget.table as _kwm
from klondike_widget import i18n as _kwi
from klondike_widget.engine.game import Game as _KwGame
_kw_rec = []
_kw_cur = [None]

def _kw_timed(label, fn):
    @functools.wraps(fn)
    def run(*a, **k):
        cur = _kw_cur[0]
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            if cur is not None:
                cur[label] = cur.get(label, 0.0) + (time.perf_counter() - t0) * 1e3
                cur[label + " cpu"] = cur.get(label + " cpu", 0.0) + (time.thread_time() - c0) * 1e3
    return run

_kw_handle0 = w._handle_msg
def _kw_handle(msg):
    cur = {"recv_epoch": time.time()}
    _kw_cur[0] = cur
    t0, c0, p0 = time.perf_counter(), time.thread_time(), time.process_time()
    try:
        return _kw_handle0(msg)
    finally:
        cur["handle"] = (time.perf_counter() - t0) * 1e3
        cur["handle cpu"] = (time.thread_time() - c0) * 1e3
        cur["handle process cpu"] = (time.process_time() - p0) * 1e3
        cur["process_time"] = time.process_time() * 1e3
        _kw_cur[0] = None
        _kw_rec.append(cur)
w.comm.on_msg(_kw_handle)

_kw_send0 = w.send_state
def _kw_send(key=None):
    cur = _kw_cur[0]
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        return _kw_send0(key)
    finally:
        if cur is not None and key == "view":
            cur["view sync"] = (time.perf_counter() - t0) * 1e3
            cur["view sync cpu"] = (time.thread_time() - c0) * 1e3
            cur["sent_epoch"] = time.time()
            cur["sent_at"] = time.perf_counter()
w.send_state = _kw_send

_KwGame.play = _kw_timed("engine", _KwGame.play)
_kwm.board_view = _kw_timed("board_view", _kwm.board_view)
_kwm.view_texts = _kw_timed("view texts", _kwm.view_texts)
_kwi.announce_move = _kw_timed("narration", _kwi.announce_move)
for _name in ("one_click_moves", "auto_complete_line"):
    setattr(_kwm.assist, _name, _kw_timed("play extras", getattr(_kwm.assist, _name)))
_kwm.score = _kw_timed("play extras", _kwm.score)

def _kw_threads():
    # CPU ms per kernel thread (from /proc), by thread name
    import os, threading
    names = {t.native_id: t.name for t in threading.enumerate()}
    tick = 1000 / os.sysconf("SC_CLK_TCK")
    out = {}
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        name = names.get(int(tid)) or open(f"/proc/self/task/{tid}/comm").read().strip()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) * tick
    return out
print("probe installed")
"""

#: Runs in the page: one record per new board (``data-seq`` changed) after a ``pointerdown``.
PAGE_PROBE = """
(root) => {
  window.__kwRec = [];
  window.__kwT0 = 0;
  root.addEventListener('pointerdown', () => { window.__kwT0 = performance.now(); }, true);
  new MutationObserver(() => {
    if (!window.__kwT0) return;
    const now = performance.now();
    window.__kwRec.push({
      click: now - window.__kwT0,
      trip: Number(root.dataset.latency || 'NaN'),
      render: Number(root.dataset.renderMs),
      done_epoch: (performance.timeOrigin + now) / 1000,
    });
    window.__kwT0 = 0;
  }).observe(root, {attributes: true, attributeFilter: ['data-seq']});
  return true;
}
"""

STAGES = ("engine", "narration", "board_view", "view texts", "play extras", "view sync")


def _row(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<44} {'-':>8}"
    return (
        f"{name:<44} {statistics.median(values):>8.2f} {percentile(values, 0.95):>8.2f} "
        f"{max(values):>8.2f} {statistics.fmean(values):>8.2f}"
    )


def _tap(lab: LabPage, stock: object, count: int) -> None:
    stock.click()  # type: ignore[attr-defined]
    lab.page.wait_for_function(f"() => window.__kwRec.length >= {count}", timeout=10_000)


def measure(
    taps: int, deal: int, solver: bool, thread: bool = False
) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """Tap the stock ``taps`` times; return the kernel's and the page's records, tap by tap."""
    cell = widget_cell(deal, solver, thread)
    with widget_in_lab("tap-profile-jupyterlab.log", "profile.ipynb", cell) as (lab, root):
        page = lab.page
        if solver:  # the first verdict is in: the solver is loaded, as after a minute
            lab.wait_for_kernel_output("print(w.analysis != 'solving')", "True", 300)
        assert "probe installed" in lab.kernel_exec(KERNEL_PROBE)
        page.evaluate(PAGE_PROBE, root.element_handle())
        stock = root.locator(".kw-pile-s")
        lab.kernel_exec("_kw_idle = _kw_threads()")
        page.wait_for_timeout(2000)
        lab.kernel_exec("_kw_t0 = _kw_threads()")
        for n in range(1, taps + 1):
            _tap(lab, stock, n)
        page.wait_for_timeout(500)
        threads = json.loads(
            lab.kernel_exec(
                "_kw_t1 = _kw_threads(); print(json.dumps({k: [_kw_t0.get(k, 0) - "
                "_kw_idle.get(k, 0), v - _kw_t0.get(k, 0)] for k, v in _kw_t1.items()}))"
            )
        )
        print(f"kernel threads' CPU ms: {{name: [2 s idle, {taps} taps]}} {threads}")
        kernel = json.loads(lab.kernel_exec("print(json.dumps(_kw_rec))"))
        front = list(page.evaluate("() => window.__kwRec"))
    return kernel, front


def report(kernel: list[dict[str, float]], front: list[dict[str, float]], title: str) -> None:
    """Print the stages' table (kernel records matched to the page's, tap by tap)."""
    kernel = [k for k in kernel if "sent_epoch" in k]  # intents that sent a board
    pairs = list(zip(kernel, front, strict=False))
    sent = [f["done_epoch"] - f["trip"] / 1e3 for f in front]  # pointerup, on the wall clock
    rows: list[tuple[str, list[float]]] = [
        ("click -> board (page)", [f["click"] for f in front]),
        ("  pointerdown -> intent sent (pointerup)", [f["click"] - f["trip"] for f in front]),
        ("  intent sent -> board (page)", [f["trip"] for f in front]),
        (
            "    browser -> kernel (wall clocks)",
            [(k["recv_epoch"] - s) * 1e3 for (k, _), s in zip(pairs, sent, strict=False)],
        ),
        (
            "    kernel: receipt -> board sent",
            [(k["sent_epoch"] - k["recv_epoch"]) * 1e3 for k, _ in pairs],
        ),
    ]
    for stage in STAGES:
        rows.append((f"      {stage}", [k.get(stage, 0.0) for k, _ in pairs]))
        rows.append(
            (f"      {stage} (main thread CPU)", [k.get(f"{stage} cpu", 0.0) for k, _ in pairs])
        )
    rows += [
        (
            "    kernel -> page, before the render",
            [(f["done_epoch"] - f["render"] / 1e3 - k["sent_epoch"]) * 1e3 for k, f in pairs],
        ),
        ("    the widget's render", [f["render"] for f in front]),
        ("  kernel: whole intent (wall)", [k["handle"] for k in kernel]),
        ("  kernel: whole intent (main thread CPU)", [k["handle cpu"] for k in kernel]),
        ("  kernel: whole intent (process CPU)", [k["handle process cpu"] for k in kernel]),
        (
            "  kernel process CPU from tap to tap",
            [b["process_time"] - a["process_time"] for a, b in itertools.pairwise(kernel)],
        ),
    ]
    print()
    print(title)
    header = f"{'stage (ms)':<44} {'p50':>8} {'p95':>8} {'max':>8} {'mean':>8}"
    print(header)
    print("-" * len(header))
    for name, values in rows:
        print(_row(name, values))
    print(f"taps: {len(front)}; load average (1/5/15 min): {os.getloadavg()}")
    print(f"cores: {os.cpu_count()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=60)
    parser.add_argument("--deal", type=int, default=3)
    parser.add_argument("--no-solver", action="store_true", help="analyse=False")
    parser.add_argument(
        "--thread-solver", action="store_true", help="search in a thread of the kernel"
    )
    args = parser.parse_args()
    kernel, front = measure(args.taps, args.deal, not args.no_solver, args.thread_solver)
    solver = "off" if args.no_solver else "in a kernel thread" if args.thread_solver else "on"
    report(kernel, front, f"stock taps, deal {args.deal}, background solver {solver}")


if __name__ == "__main__":
    main()
