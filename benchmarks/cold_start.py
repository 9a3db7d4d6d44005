"""Benchmark of the first verdict after a fresh install: empty numba cache, then warm.

Usage::

    python benchmarks/cold_start.py                 # deal 8 draw 1, a mid-game of deal 8
    python benchmarks/cold_start.py --deal 5 --draw 3 --sample 30

Each figure of the table comes from a fresh interpreter whose ``NUMBA_CACHE_DIR`` points at a
temporary directory: *cold* runs start with it empty (as after ``pip install`` or in a new Colab
session), *warm* runs reuse what the cold run left there. A run creates a ``KlondikeWidget``
(outside a kernel its updates land at once) and measures:

* **import**: ``from klondike_widget import KlondikeWidget`` (numba is not loaded by it);
* **first status**: from creating the widget (the solver and numba are imported by its first
  search, in the background thread) until its ``analysis`` trait is no longer
  ``"solving"`` (the verdict the player sees), for a fresh deal and for a mid-game position
  (the deal after the first ``--midgame`` moves of its winning line, shown as a ``Game``);
* **compiled speed after**: from the same start until the compiled core is loaded (cold: the
  compiler process filled the cache, then the kernel loaded it);
* **compiled speed**: positions per CPU second of a long search once the compiled core runs
  (reference deal 22, draw 1, a hard one, ``--seconds`` long), as ``benchmarks/solver.py``.

Then, in one process, the uncompiled core's time to a verdict over ``--sample`` fresh deals and
as many mid-game positions (how typical a quick first answer is while the compiler works). The
machine is shared: the figures are wall times of this run, not a promise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "solver"))
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys, time
args = json.loads(sys.argv[1])
t_import = time.perf_counter()
from klondike_widget import KlondikeWidget  # as a notebook does: numba is not loaded yet
from klondike_widget.engine.game import Game
t_imported = time.perf_counter()
if args["moves"] is None:
    game = Game.new(deal=args["deal"], draw=args["draw"])
else:
    game = Game.new(deal=args["deal"], draw=args["draw"])
    game.play_line(args["moves"])
t0 = time.perf_counter()
w = KlondikeWidget(game=game, locale="en")
while w.analysis == "solving" and time.perf_counter() - t0 < 120:
    time.sleep(0.002)
first = time.perf_counter() - t0
status = w.analysis
from klondike_widget.solver import Limit, coldstart, solve  # loaded by the first search
from klondike_widget.engine.state import GameState
state_then = coldstart.state()
coldstart.wait(600)
compiled = time.perf_counter() - t0
hard = GameState.from_dict(args["hard"])
speed = solve(hard, Limit(nodes=50_000_000, seconds=args["seconds"]))
w.close()
print(json.dumps({
    "import": t_imported - t_import, "first": first, "status": status, "core": state_then,
    "compiled": compiled, "nodes": speed.nodes, "cpu": speed.extra["search_cpu_seconds"],
}))
"""


def child(cache: Path, **args: object) -> dict[str, object]:
    """One fresh interpreter with ``NUMBA_CACHE_DIR=cache``; its measurements."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def uncompiled_sample(
    count: int, draw: int, midgame: int
) -> list[tuple[str, float, str, int, float]]:
    """Time to a verdict on the uncompiled core: ``count`` deals and their mid-games."""
    from klondike_widget.engine.game import Game
    from klondike_widget.solver import Limit, solve, warm_up
    from klondike_widget.solver.coldstart import uncompiled

    warm_up()
    rows = []
    for number in range(1, count + 1):
        start = Game.new(deal=number, draw=draw).state
        line = solve(start, Limit(seconds=10)).moves  # compiled: where a mid-game position is
        positions = [("deal", start)]
        if len(line) > midgame:
            game = Game(start)
            game.play_line(line[:midgame])
            positions.append(("mid-game", game.state))
        for kind, state in positions:
            with uncompiled():
                r = solve(state, Limit(seconds=10))
            rows.append((kind, r.seconds, r.status.value, r.nodes, r.extra["cpu_seconds"]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=8)
    parser.add_argument("--draw", type=int, default=1, choices=(1, 3))
    parser.add_argument("--midgame", type=int, default=30, help="moves into the winning line")
    parser.add_argument("--seconds", type=float, default=5.0, help="of the speed search")
    parser.add_argument("--sample", type=int, default=20, help="deals of the uncompiled sample")
    args = parser.parse_args(argv)

    from solver_helpers import reference_deals, reference_state

    from klondike_widget.engine.game import Game
    from klondike_widget.solver import Limit, solve

    hard = next(r for r in reference_deals() if r["seed"] == 22 and r["draw"] == 1)
    line = solve(Game.new(deal=args.deal, draw=args.draw).state, Limit(seconds=30)).moves
    moves = [str(m) for m in line[: args.midgame]]
    common = {"deal": args.deal, "draw": args.draw, "seconds": args.seconds}
    common["hard"] = reference_state(hard).to_dict()
    rows = []
    for label, kind in (("fresh deal", None), (f"mid-game (move {len(moves)})", moves)):
        with tempfile.TemporaryDirectory(prefix="kw-numba-") as tmp:
            cache = Path(tmp)
            cold = child(cache, moves=kind, **common)  # it waits for its compiler process
            warm = child(cache, moves=kind, **common)
        rows.append((label, cold, warm))

    print(f"Cold start: deal {args.deal}, draw {args.draw}; python {sys.version.split()[0]}")
    print()
    head = f"{'position':<22} {'cache':<5} {'import s':>8} {'first status s':>14} {'verdict':<10}"
    head += f" {'core then':<10} {'compiled after s':>16} {'compiled M pos/CPU s':>20}"
    print(head)
    print("-" * len(head))
    for label, cold, warm in rows:
        for name, r in (("cold", cold), ("warm", warm)):
            rate = float(r["nodes"]) / max(float(r["cpu"]), 1e-9) / 1e6  # type: ignore[arg-type]
            print(
                f"{label:<22} {name:<5} {r['import']:>8.2f} {r['first']:>14.2f} "
                f"{r['status']!s:<10} {r['core']!s:<10} {r['compiled']:>16.1f} {rate:>20.2f}"
            )
    print()
    sample = uncompiled_sample(args.sample, args.draw, args.midgame)
    print(f"Uncompiled core (what answers while compiling), draw {args.draw}, limit 10 s")
    print()
    head2 = f"{'positions':<10} {'n':>3} {'median s':>9} {'max s':>7} {'<= 2 s':>7} {'won':>4}"
    head2 += f" {'pos/CPU s':>10}"
    print(head2)
    print("-" * len(head2))
    for kind in ("deal", "mid-game"):
        mine = [row for row in sample if row[0] == kind]
        secs = [row[1] for row in mine]
        won = sum(1 for row in mine if row[2] == "won")
        quick = sum(1 for s in secs if s <= 2.0)
        rate = sum(row[3] for row in mine) / max(sum(row[4] for row in mine), 1e-9)
        print(
            f"{kind:<10} {len(secs):>3} {median(secs):>9.2f} {max(secs):>7.2f} "
            f"{quick:>3}/{len(secs):<3} {won:>4} {rate:>10,.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
