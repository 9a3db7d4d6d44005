"""Benchmark and check of the deal ratings (easy / medium / hard among winnable deals).

Usage::

    python benchmarks/difficulty.py                 # every rated deal of both draw modes
    python benchmarks/difficulty.py --sample 300 --tries 3

For each draw mode of the shipped table (``klondike_widget/engine/ratings.json``):

1. re-measures the rated deals (:func:`klondike_widget.study.difficulty.measure_deal`, no time
   limit, so the same numbers on every machine) and checks that each gets the level the table
   gives it (the table is reproducible);
2. prints the defining numbers per level (dead ends, nodes, depth, line length; deals whose win
   needs a foundation card back down);
3. checks that the levels mean something to a player who cannot see the face-down cards: a
   simple greedy player (foundation plays first, then moves that turn a face-down card, then
   waste to column, then the stock; random tie-breaks; it stops when a whole pass through the
   stock changed nothing) plays each deal ``--tries`` times; its win rate should fall from easy
   to hard;
4. times the choice of a new deal of each level (``Game.new(level=...)``): p50 / p95 / max.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.ratings import LEVELS, rated_deals, rating
from klondike_widget.engine.state import GameState
from klondike_widget.solver import warm_up
from klondike_widget.study.difficulty import Level, Rating, level_table, measure_deal, rate

K = MoveKind


def greedy_move(state: GameState, rng: random.Random, stale: bool) -> Move | None:
    """The greedy player's move (it looks only at face-up cards), or None when it gives up."""
    moves = list(state.legal_moves)
    rng.shuffle(moves)
    to_foundation = [m for m in moves if m.kind in (K.COLUMN_TO_FOUNDATION, K.WASTE_TO_FOUNDATION)]
    if to_foundation:
        return to_foundation[0]
    turning = [
        m
        for m in moves
        if m.kind is K.COLUMN_TO_COLUMN
        and state.face_down[m.source] > 0
        and m.count == len(state.columns[m.source]) - state.face_down[m.source]
    ]
    if turning:
        return max(turning, key=lambda m: state.face_down[m.source])
    from_waste = [m for m in moves if m.kind is K.WASTE_TO_COLUMN]
    if from_waste:
        return from_waste[0]
    for m in moves:
        if m.kind is K.DRAW:
            return m
        if m.kind is K.RECYCLE and not stale:
            return m
    return None


def greedy_wins(number: int, draw: int, rng: random.Random) -> bool:
    """One greedy game of deal ``number``: True if it wins."""
    state = Game.new(deal=number, draw=draw).state
    changed = True  # a move other than the stock since the last recycle
    for _ in range(2000):
        move = greedy_move(state, rng, stale=not changed)
        if move is None:
            return False
        if move.kind is K.RECYCLE:
            changed = False
        elif move.kind is not K.DRAW:
            changed = True
        state = state.apply(move)
        if state.is_won:
            return True
    return False


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=0, help="deals per level (0: all)")
    parser.add_argument("--tries", type=int, default=3, help="greedy games per deal")
    args = parser.parse_args()
    print(f"warm-up {warm_up():.2f} s\n")
    for draw in (1, 3):
        rng = random.Random(draw)
        ratings: list[Rating] = []
        mismatches = 0
        greedy: dict[Level, list[bool]] = {}
        t0 = time.perf_counter()
        for level in Level:
            deals = list(rated_deals(level.value, draw))
            if args.sample:
                deals = sorted(rng.sample(deals, min(args.sample, len(deals))))
            for n in deals:
                facts = measure_deal(n, draw)
                assert facts is not None, f"deal {n}: rated winnable but no win found"
                needs = level is Level.HARD and n not in _hard_without_f2t(draw)
                if rate(facts, needs) is not level:
                    mismatches += 1
                ratings.append(Rating(facts, needs, level))
                greedy.setdefault(level, []).extend(
                    greedy_wins(n, draw, rng) for _ in range(args.tries)
                )
        dt = time.perf_counter() - t0
        print(f"## draw {draw}: {len(ratings)} rated deals re-measured in {dt:.0f} s, ")
        print(f"{mismatches} get a different level than the shipped table\n")
        print(level_table(ratings))
        print("\n| level  | greedy games | greedy wins | win rate |")
        print("|--------|-------------:|------------:|---------:|")
        for level, wins in greedy.items():
            print(
                f"| {level.value:<6} | {len(wins):>12} | {sum(wins):>11} | "
                f"{sum(wins) / len(wins):>8.1%} |"
            )
        print("\n| new deal | p50 ms | p95 ms | max ms | rated as |")
        print("|----------|-------:|-------:|-------:|----------|")
        for level in LEVELS:
            times, seen = [], set()
            for _ in range(200):
                c0 = time.perf_counter()
                game = Game.new(draw=draw, level=level)
                times.append((time.perf_counter() - c0) * 1000)
                seen.add(rating(game.deal_number, draw) if level != "any" else "any")
            print(
                f"| {level:<8} | {pct(times, 0.5):>6.3f} | {pct(times, 0.95):>6.3f} | "
                f"{max(times):>6.2f} | {', '.join(sorted(str(s) for s in seen)):<8} |"
            )
        print()


def _hard_without_f2t(draw: int) -> frozenset[int]:
    return frozenset(rated_deals("hard", draw, foundation_to_tableau=False))


if __name__ == "__main__":
    main()
