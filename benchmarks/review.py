"""Benchmark of the game review: how long :func:`klondike_widget.review.review` takes.

Usage::

    python benchmarks/review.py                    # 6 deals per draw mode, 150-move games
    python benchmarks/review.py --deals 10 --moves 150 --limit 1.0

Three kinds of game per deal, each 150 moves long (the target: a 150-move game reviewed in at
most 5 s on the project's 2-core machine):

* ``slip``: a winning line of the solver followed for a while, then one move that loses (found
  by trying the legal moves there), then random play to 150 moves: the review must find that
  move;
* ``random``: 150 moves of random play from the deal (mostly lost early, sometimes undecided);
* ``won``: the solver's whole winning line (no search needed at all).

The games are built first (outside the clock); then each review runs on a cold start: no verdicts
known. Prints one row per game and a summary per kind.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.review import review
from klondike_widget.solver import Limit, Status, solve, warm_up


def random_move(game: Game, rng: random.Random) -> Move:
    """A random legal move, preferring moves that are not stock taps or recycles."""
    moves = list(game.legal_moves)
    others = [m for m in moves if m.kind not in (MoveKind.DRAW, MoveKind.RECYCLE)]
    if others and rng.random() < 0.7:
        return rng.choice(others)
    return rng.choice(moves)


def play_random(game: Game, moves: int, rng: random.Random) -> None:
    """Random moves until the game has ``moves`` moves (or no move is left)."""
    while len(game.history) < moves and game.legal_moves:
        game.play(random_move(game, rng))


def slip_game(number: int, draw: int, moves: int, rng: random.Random) -> tuple[Game, int] | None:
    """A game that follows a winning line, then loses with one move; and that move's index."""
    game = Game.new(deal=number, draw=draw)
    first = solve(game, Limit(seconds=5))
    if first.status is not Status.WON:
        return None
    line = first.moves
    for k in sorted(range(5, min(len(line), moves) - 10), key=lambda _: rng.random())[:20]:
        g = Game.new(deal=number, draw=draw)
        g.play_line(line[:k])
        for move in g.legal_moves:
            if move == line[k]:
                continue
            after = g.state.apply(move)
            if solve(after, Limit(seconds=0.5)).status is Status.LOST:
                g.play(move)
                play_random(g, moves, rng)
                return g, k
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6, help="deals per draw mode")
    parser.add_argument("--moves", type=int, default=150, help="moves per game")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds per position")
    args = parser.parse_args()
    print(f"warm-up {warm_up():.2f} s")
    limit = Limit(seconds=args.limit)
    print(f"per-position budget {args.limit:g} s, games of {args.moves} moves\n")
    print(
        "| draw | deal | kind   | moves | seconds | searches | losing move | expected | undecided |"
    )
    print(
        "|-----:|-----:|--------|------:|--------:|---------:|------------:|---------:|----------:|"
    )
    times: dict[str, list[float]] = {}
    for draw in (1, 3):
        rng = random.Random(draw)
        found = 0
        number = 0
        while found < args.deals:
            number += 1
            built = slip_game(number, draw, args.moves, rng)
            if built is None:
                continue
            found += 1
            slip, slip_at = built
            rand = Game.new(deal=number, draw=draw)
            play_random(rand, args.moves, rng)
            won = Game.new(deal=number, draw=draw)
            won.play_line(solve(won, Limit(seconds=5)).moves)
            for kind, game, expected in (
                ("slip", slip, str(slip_at)),
                ("random", rand, ""),
                ("won", won, "none"),
            ):
                t0 = time.perf_counter()
                r = review(game, limit)
                dt = time.perf_counter() - t0
                times.setdefault(f"draw {draw} {kind}", []).append(dt)
                losing = r.losing_move
                shown = str(losing.index) if losing else "none"
                print(
                    f"| {draw:>4} | {number:>4} | {kind:<6} | {len(game.history):>5} | "
                    f"{dt:>7.3f} | {r.searches:>8} | {shown:>11} | {expected:>8} | "
                    f"{r.undecided:>9} |"
                )
    print("\n| games          |  n | median s | max s |")
    print("|----------------|---:|---------:|------:|")
    for label, values in times.items():
        print(f"| {label:<14} | {len(values):>2} | {median(values):>8.3f} | {max(values):>5.2f} |")


if __name__ == "__main__":
    main()
