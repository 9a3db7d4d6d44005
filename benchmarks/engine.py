"""Engine speed: legal-move generation and move application per second on random playouts.

Run: ``python benchmarks/engine.py [--deals N] [--steps N]``. Prints a table. Targets (issue 2):
at least 40,000 legal-move generations and 80,000 applications per second in pure Python.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from klondike_widget.engine.deals import deal
from klondike_widget.engine.moves import Move, apply_unchecked, generate_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState


def playout_positions(draw: int, deals: int, steps: int, seed: int) -> list[GameState]:
    """Positions met along random playouts (the workload both measurements share)."""
    rng = random.Random(seed)
    positions = []
    for number in range(1, deals + 1):
        s = deal(number, Rules(draw=draw))
        for _ in range(steps):
            positions.append(s)
            moves = list(generate_moves(s))
            if not moves:
                break
            s = apply_unchecked(s, rng.choice(moves))
    return positions


def measure(draw: int, deals: int, steps: int) -> tuple[int, float, float, float]:
    positions = playout_positions(draw, deals, steps, seed=draw)
    t0 = time.perf_counter()
    all_moves = [list(generate_moves(s)) for s in positions]
    gen_rate = len(positions) / (time.perf_counter() - t0)
    pairs: list[tuple[GameState, Move]] = [
        (s, m) for s, moves in zip(positions, all_moves, strict=False) for m in moves
    ]
    t0 = time.perf_counter()
    for s, m in pairs:
        apply_unchecked(s, m)
    apply_rate = len(pairs) / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for s, m in pairs[:20000]:
        s.apply(m)
    checked_rate = min(len(pairs), 20000) / (time.perf_counter() - t0)
    return len(positions), gen_rate, apply_rate, checked_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, pure Python engine")
    print()
    print(
        "| draw | positions | legal-move generations/s | applications/s (unchecked) "
        "| applications/s (checked) |"
    )
    print("|---:|---:|---:|---:|---:|")
    for draw in (1, 3):
        n, gen, app, checked = measure(draw, args.deals, args.steps)
        print(f"| {draw} | {n:,} | {gen:,.0f} | {app:,.0f} | {checked:,.0f} |")
    print()
    print("targets: >= 40,000 generations/s and >= 80,000 applications/s")


if __name__ == "__main__":
    main()
