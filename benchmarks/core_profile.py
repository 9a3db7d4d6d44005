"""Per-node cost breakdown of the compiled search core (issue 14's profile).

Usage::

    python benchmarks/core_profile.py                  # reference deals 8, 22, 48; both modes
    python benchmarks/core_profile.py --nodes 200000 --seeds 8,22

For each draw mode it runs real searches (:class:`klondike_widget.solver.api.Search`) on the
reference deals given, ``--nodes`` positions each, and times them (CPU seconds: the search's
own rate). It keeps a copy of the position every ``--every`` positions and then times each part
of the work a search does per position on those copies, in compiled loops (each part alone,
``--repeat`` times over the sample):

* **movegen**: ``gen_moves`` once per position (a search expands each new position once);
* **do/undo**: every generated move applied and taken back;
* **autos**: the automatic-move pass after each move (and its undo);
* **key**: ``table_key`` after each move;
* **probe**: a table lookup of that key, in a table as full as the search's;
* **dead**: ``is_dead`` once per position (the search calls it only after a card goes up);
* **prunings**: the follow-up and reverse-move filters (``drop_reverse`` on each move list).

Per position the search tries ``edges`` moves (how many the sample's positions generate, on
average); the table prints each part in nanoseconds per searched position (parts per move
multiplied by ``edges``), their sum, and the real cost per position of the search: the
difference is the loop's own bookkeeping and what the sample cannot show (revisits, the
positions a move leads to that are already in the table).

``--part movegen`` prints move generation part by part (column tops, foundation moves, talon,
reveals, foundation-to-column, the sort), in ns per call, on the same sampled positions
(:mod:`movegen_parts`).

``--part fixed`` (or ``all``, the default) also prints what a search costs besides its
positions, per search: encoding the position, allocating the table, ``start_search``, the
turns, replaying the line through the engine and the whole :func:`solve`, on fresh deals the
search wins in a few hundred positions, and the whole solve of the median fresh deal.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from movegen_parts import print_movegen
from numba import njit
from side_by_side import fresh_deal_numbers
from solver_helpers import reference_deals, reference_state

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, core, solve, warm_up
from klondike_widget.solver.api import Search
from klondike_widget.solver.bridge import encode_state
from klondike_widget.solver.drive import TT_START
from klondike_widget.solver.turns import take_turns

#: The harness is compiled as the core is, without numba's runtime (``_nrt=False``: with it on,
#: every call passing an array to a core function pays a reference count the search does not,
#: which overstated each part), so it allocates nothing: the callers pass every array. Not cached
#: on disk: a cached caller keeps a copy of the core functions it was compiled with.
_JIT = {"nogil": True, "_nrt": False}


@njit(**_JIT)
def _moves_of(
    SS: np.ndarray, mark: np.ndarray, out: np.ndarray, M: np.ndarray, start: np.ndarray
) -> int:
    """Every position's generated moves, flat in ``M``, and where each position's start in
    ``start``; return how many there are."""
    for i in range(SS.shape[0]):
        n = min(core.gen_moves(SS[i], out, mark, True), core.MAXM)
        for j in range(n):
            M[start[i] + j] = out[j]
        start[i + 1] = start[i] + n
    return start[SS.shape[0]]


@njit(**_JIT)
def _time_moves(
    SS: np.ndarray,
    HH: np.ndarray,
    M: np.ndarray,
    start: np.ndarray,
    TT: np.ndarray,
    part: int,
    repeat: int,
    S: np.ndarray,
    H: np.ndarray,
    AUM: np.ndarray,
    AUU: np.ndarray,
) -> int:
    """Per position: copy it into one working ``S``/``H`` (as hot as the search's), then for
    each of its moves: do it, then ``part`` (0 nothing, 1 the automatic moves and their undo,
    2 the key, 3 the key and a table probe), then undo it."""
    total = 0
    for _ in range(repeat):
        for i in range(SS.shape[0]):
            for w in range(S.shape[0]):
                S[w] = SS[i, w]
            for w in range(H.shape[0]):
                H[w] = HH[i, w]
            for k in range(start[i], start[i + 1]):
                if part < 0:
                    continue
                m = M[k]
                follow = part == 1 and core.autos_may_follow(S, m)
                u = core.do_move(S, H, m)
                if follow:
                    aun = core.apply_autos(S, H, AUM, AUU, 0)
                    total += aun
                    while aun > 0:
                        aun -= 1
                        core.undo_move(S, H, AUM[aun], AUU[aun])
                elif part >= 2:
                    a, b = core.table_key(S, H, 0)
                    if part == 3:
                        total += core.tt_contains(TT, a, b)
                    else:
                        total += a & np.uint64(1)
                core.undo_move(S, H, m, u)
    return total


@njit(**_JIT)
def _time_position(
    SS: np.ndarray, part: int, repeat: int, S: np.ndarray, mark: np.ndarray, out: np.ndarray
) -> int:
    """Per position, copied into one working ``S``: nothing (-1), ``gen_moves`` (0),
    ``gen_moves`` and ``drop_reverse`` (1), or ``is_dead`` (2)."""
    total = 0
    for _ in range(repeat):
        for i in range(SS.shape[0]):
            for w in range(S.shape[0]):
                S[w] = SS[i, w]
            if part == 0 or part == 1:
                n = min(core.gen_moves(S, out, mark, True), core.MAXM)
                total += n
                if part == 1 and n > 0:
                    total += core.drop_reverse(out, n, out[0])
            elif part == 2:
                total += core.is_dead(S, mark)
    return total


def _cpu(fn, *args):  # type: ignore[no-untyped-def]
    t = time.process_time()
    fn(*args)
    return time.process_time() - t


def sample(draw: int, seeds: list[int], nodes: int, every: int) -> tuple[list, float, int, object]:
    """Search each deal; return (snapshots S, H), CPU seconds, positions, the last table."""
    shots_s, shots_h = [], []
    cpu = 0.0
    total = 0
    table = None
    for record in reference_deals():
        if record["draw"] != draw or record["seed"] not in seeds:
            continue
        search = Search(reference_state(record))
        while search.result == core.R_BUDGET and search.nodes < nodes:
            t = time.process_time()
            search.step(every)
            cpu += time.process_time() - t
            shots_s.append(search.S.copy())
            shots_h.append(search.H.copy())
        total += search.nodes
        table = search.TT
    return [np.array(shots_s), np.array(shots_h)], cpu, total, table


def profile(draw: int, seeds: list[int], nodes: int, every: int, repeat: int) -> None:
    """Print the breakdown of one draw mode."""
    (SS, HH), cpu, total, TT = sample(draw, seeds, nodes, every)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    out = np.zeros(core.MAXM, dtype=np.int32)
    M = np.zeros(SS.shape[0] * core.MAXM, dtype=np.int32)
    start = np.zeros(SS.shape[0] + 1, dtype=np.int64)
    M = M[: _moves_of(SS, mark, out, M, start)]
    work = (
        np.zeros(SS.shape[1], dtype=np.int32),
        np.zeros(HH.shape[1], dtype=np.uint64),
        np.zeros(core.MAXA, dtype=np.int32),
        np.zeros(core.MAXA, dtype=np.int32),
    )
    _time_moves(SS[:1], HH[:1], M, start, TT, 3, 1, *work)  # compile before timing
    pos_work = (work[0], mark, out)
    _time_position(SS[:1], 0, 1, *pos_work)
    npos = SS.shape[0] * repeat
    nmov = M.shape[0] * repeat
    edges = M.shape[0] / SS.shape[0]
    copy_m = _cpu(_time_moves, SS, HH, M, start, TT, -1, repeat, *work)
    t_du = (_cpu(_time_moves, SS, HH, M, start, TT, 0, repeat, *work) - copy_m) / nmov
    t_auto = (_cpu(_time_moves, SS, HH, M, start, TT, 1, repeat, *work) - copy_m) / nmov - t_du
    t_key = (_cpu(_time_moves, SS, HH, M, start, TT, 2, repeat, *work) - copy_m) / nmov - t_du
    t_probe = (
        (_cpu(_time_moves, SS, HH, M, start, TT, 3, repeat, *work) - copy_m) / nmov - t_du - t_key
    )
    copy_p = _cpu(_time_position, SS, -1, repeat, *pos_work)
    t_gen = (_cpu(_time_position, SS, 0, repeat, *pos_work) - copy_p) / npos
    t_prune = (_cpu(_time_position, SS, 1, repeat, *pos_work) - copy_p) / npos - t_gen
    t_dead = (_cpu(_time_position, SS, 2, repeat, *pos_work) - copy_p) / npos
    parts = [
        ("movegen (per position)", t_gen),
        ("do/undo (per move x edges)", t_du * edges),
        ("autos (per move x edges)", t_auto * edges),
        ("key (per move x edges)", t_key * edges),
        ("table probe (per move x edges)", t_probe * edges),
        ("dead-end test (per call; see below)", t_dead),
        ("prunings: drop_reverse (per position)", t_prune),
    ]
    real = cpu / total
    print(
        f"\ndraw {draw}: seeds {seeds}, {total:,} positions in {cpu:.2f} CPU s "
        f"({total / cpu / 1e6:.3f} M/CPU s); sample {SS.shape[0]:,} positions, "
        f"{edges:.1f} moves each; table {TT.shape[0]:,} rows"
    )
    print(f"| {'part':<44} | ns/position | share |")
    print(f"|{'-' * 46}|-------------|-------|")
    for name, t in parts:
        print(f"| {name:<44} | {t * 1e9:>11.0f} | {100 * t / real:>4.0f}% |")
    s = sum(t for _, t in parts)
    print(f"| {'sum of the parts':<44} | {s * 1e9:>11.0f} | {100 * s / real:>4.0f}% |")
    print(f"| {'search, real (CPU s / positions)':<44} | {real * 1e9:>11.0f} |  100% |")


def _per_call(fn: Callable[[Any], object], items: list[Any], repeat: int) -> float:
    """Mean CPU seconds of ``fn(item)`` over ``items``, ``repeat`` times."""
    t = time.process_time()
    for _ in range(repeat):
        for item in items:
            fn(item)
    return (time.process_time() - t) / (len(items) * repeat)


def _searched(state: GameState) -> Search:
    search = Search(state)
    take_turns([search], None, None, lambda: False, None)
    return search


def fixed_cost(draw: int, count: int, repeat: int) -> None:
    """Print what one search costs before and after its positions: setup, turns, replay.

    On the first ``count`` fresh deals (seed 1) of ``draw`` that :func:`solve` decides in under
    300 positions (the per-position work is then negligible; the replay on the won ones) and on
    the median deal of the 100 fresh ones by positions searched.
    """
    states = [
        deal(n, Rules(draw=draw, foundation_to_tableau=True)) for n in fresh_deal_numbers(100, 1)
    ]
    results = [solve(s, Limit(seconds=None), shorten=False) for s in states]
    sized = sorted((r.nodes, i) for i, r in enumerate(results))
    trivial = [states[i] for nodes, i in sized if nodes < 300][:count]
    won = [states[i] for nodes, i in sized if nodes < 300 and results[i].moves][:count]
    median = states[sized[len(sized) // 2][1]]
    searches = [_searched(s) for s in won]
    rows = [
        ("encode_state (bridge)", _per_call(encode_state, trivial, repeat)),
        (
            "transposition table (np.zeros, TT_START rows)",
            _per_call(lambda s: np.zeros((TT_START, 2), dtype=np.uint64), trivial, repeat),
        ),
        ("Search() (all of the above + start_search)", _per_call(Search, trivial, repeat)),
        ("Search() + take_turns", _per_call(_searched, trivial, repeat)),
        (
            "line(): the line replayed through the engine",
            _per_call(lambda s: s.line(), searches, 1),
        ),
        (
            "solve(shorten=False)",
            _per_call(lambda s: solve(s, Limit(seconds=None), shorten=False), trivial, repeat),
        ),
        (
            "solve() (default shortening)",
            _per_call(lambda s: solve(s, Limit(seconds=None)), trivial, repeat),
        ),
    ]
    nodes = sized[len(sized) // 2][0]
    print(
        f"\ndraw {draw}: fixed cost of a search, {len(trivial)} fresh deals decided in < 300 "
        f"positions; TT_START {TT_START:,} rows"
    )
    print(f"| {'part (trivial deals)':<48} | CPU us/search |")
    print(f"|{'-' * 50}|---------------|")
    for name, t in rows:
        print(f"| {name:<48} | {t * 1e6:>13.0f} |")
    t = _per_call(lambda s: solve(s, Limit(seconds=None), shorten=False), [median], repeat)
    label = f"median fresh deal ({nodes:,} positions): solve(shorten=False)"
    print(f"| {label:<48} | {t * 1e6:>13.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", default="8,22,48")
    parser.add_argument("--nodes", type=int, default=300_000, help="positions per deal")
    parser.add_argument("--every", type=int, default=97, help="positions between snapshots")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--draws", default="1,3")
    parser.add_argument(
        "--part",
        choices=("all", "nodes", "fixed", "movegen"),
        default="all",
        help="the per-position breakdown, the per-search fixed cost, both, or move generation",
    )
    parser.add_argument("--fixed-deals", type=int, default=20, help="trivial deals (fixed cost)")
    args = parser.parse_args()
    warm_up()
    seeds = [int(s) for s in args.seeds.split(",")]
    for draw in [int(d) for d in args.draws.split(",")]:
        if args.part == "movegen":
            (SS, _), _, _, _ = sample(draw, seeds, args.nodes, args.every)
            print_movegen(draw, SS, args.repeat)
        if args.part in ("all", "nodes"):
            profile(draw, seeds, args.nodes, args.every, args.repeat)
        if args.part in ("all", "fixed"):
            fixed_cost(draw, args.fixed_deals, args.repeat)


if __name__ == "__main__":
    main()
