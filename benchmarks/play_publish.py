"""What scoring, one-click targets and the auto-complete offer add to every board update.

Plays the solver's winning line of a deal in a ``KlondikeWidget`` (no browser, no statistics
file) and times, at every position, (a) the additions of :mod:`klondike_widget.play` that
``_publish`` computes (``one_click_moves``, ``auto_complete_line``, ``score``) and (b) the whole
``_publish`` that builds the ``view`` trait, each averaged over repeats (the auto-complete
cache is cleared before each: a move always makes a new position). Prints a table.

Run: ``python benchmarks/play_publish.py [--deal 3] [--repeats 20]``. The widget's click-to-board
goal is p95 < 50 ms (``benchmarks/widget_latency.py``); these additions should stay a small
part of it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from klondike_widget import Game, KlondikeWidget
from klondike_widget.play import assist
from klondike_widget.play.scoring import score
from klondike_widget.solver import Limit, solve


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[round(p * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    line = solve(Game.new(deal=args.deal).state, Limit(seconds=60)).moves
    cold = assist._greedy_line.cache_clear
    game = Game.new(deal=args.deal)
    widget = KlondikeWidget(deal=args.deal, analyse=False, stats=False)
    extra: list[float] = []
    whole: list[float] = []
    for move in line:
        game.play(move)
        widget.play(move)
        start = time.perf_counter()
        for _ in range(args.repeats):
            cold()  # every position is new after a move: time the first look, not a cache hit
            assist.one_click_moves(game.state)
            assist.auto_complete_line(game.state)
            score(game, 100.0)
        extra.append((time.perf_counter() - start) / args.repeats * 1e3)
        start = time.perf_counter()
        for _ in range(args.repeats):
            cold()
            widget._publish()
        whole.append((time.perf_counter() - start) / args.repeats * 1e3)
    widget.close()
    print(f"deal {args.deal}: {len(line)} positions of the solver's winning line")
    header = f"{'measure':<50} {'unit':<5} {'p50':>7} {'p95':>7} {'max':>7}"
    print(header)
    print("-" * len(header))
    for name, values in (
        ("play additions (one-click, auto-complete, score)", extra),
        ("whole _publish (the view trait), additions included", whole),
    ):
        row = f"{name:<50} {'ms':<5} {_pct(values, 0.5):7.3f} {_pct(values, 0.95):7.3f}"
        print(f"{row} {max(values):7.3f}")
    print(f"load average (1/5/15 min): {os.getloadavg()}, cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
