"""Benchmark: a new deal of each level, as the settings control asks for it (target p95 <= 0.5 s).

Usage::

    python benchmarks/deal_level.py            # 200 new deals per level and draw mode
    python benchmarks/deal_level.py --deals 50

The player picks "New deals: Winnable, easy" (the ``set_deal_level`` intent) in the settings
panel and presses New deal (the ``new_deal`` intent). This times the whole of that second intent
in the kernel, as the front end sends it: the choice of a deal of the level from the shipped table
(``Game.new(level=...)``), the deal, and the publication of the new board (the ``view`` trait).
No solver runs (``analyse=False``): the level comes from the shipped ratings, never from a search
while the player waits. Wall-clock and CPU milliseconds, p50 / p95 / max.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klondike_widget.engine.ratings import LEVELS, rating
from klondike_widget.widget import KlondikeWidget


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="new deals per level and draw")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min)\n")
    print("| draw | level    | wall p50 ms | wall p95 ms | wall max ms | cpu p95 ms | rated as |")
    print("|-----:|----------|------------:|------------:|------------:|-----------:|----------|")
    for draw in (1, 3):
        w = KlondikeWidget(deal=1, draw=draw, analyse=False, stats=False)
        w.send = lambda content, buffers=None: None  # type: ignore[method-assign]
        for level in LEVELS:
            w._handle_custom_msg({"kind": "set_deal_level", "seq": 0, "level": level}, [])
            assert w.deal_level == level
            wall, cpu, seen = [], [], set()
            for _ in range(args.deals):
                c0, p0 = time.perf_counter(), time.process_time()
                w._handle_custom_msg({"kind": "new_deal", "seq": w.view["seq"]}, [])
                wall.append((time.perf_counter() - c0) * 1000)
                cpu.append((time.process_time() - p0) * 1000)
                number = w.game.deal_number
                assert number is not None
                seen.add(rating(number, draw) if level != "any" else "any")
            assert level in ("any", "winnable") or seen == {level}, (level, seen)
            print(
                f"| {draw:>4} | {level:<8} | {pct(wall, 0.5):>11.2f} | {pct(wall, 0.95):>11.2f} |"
                f" {max(wall):>11.2f} | {pct(cpu, 0.95):>10.2f} | {', '.join(sorted(seen)):<8} |"
            )
        w.close()


if __name__ == "__main__":
    main()
