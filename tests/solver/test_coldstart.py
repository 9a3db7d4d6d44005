"""The cold start: the uncompiled core answers like the compiled one, and hands over to it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, coldstart, core, solve, warm_up
from klondike_widget.solver.api import Search

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver_helpers import midgame_positions, random_endgame

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    warm_up()
    assert coldstart.state() == "ready" and coldstart.compiled_now()


def sample() -> list[GameState]:
    rng = random.Random(12)
    states = [deal(n, Rules(draw=d)) for n in (1, 2, 3, 7, 8, 9) for d in (1, 3)]
    states += midgame_positions(4, seed=5, draw=1) + midgame_positions(2, seed=6, draw=3)
    states += [random_endgame(rng, 14, rng.choice((1, 3)), rng.random() < 0.5) for _ in range(4)]
    return states


def outcome(state: GameState, cap: int = 3_000) -> tuple[object, ...]:
    """The search of ``state`` (no draw-1 relaxation beside it: that one is scheduled by time)."""
    search = Search(state)
    while search.result == core.R_BUDGET and search.nodes < cap:
        search.step(cap - search.nodes)
    line = [str(m) for m in search.line()] if search.result == core.R_WON else []
    return (
        search.result,
        search.nodes,
        search.visits,
        line,
        int(search.ctl[core.C_MAXDEPTH]),
        search.overflowed,
    )


def test_uncompiled_core_gives_the_same_verdicts() -> None:
    """Result, node count, line and depth: identical on deals, mid-games and endgames."""
    states = sample()
    with coldstart.uncompiled():
        assert not coldstart.compiled_now()
        pure = [outcome(s) for s in states]
    fast = [outcome(s) for s in states]
    assert pure == fast
    results = {p[0] for p in pure}
    assert {core.R_WON, core.R_BUDGET} <= results  # wins, and searches the budget cut short
    assert core.R_EXHAUSTED in results  # and a proof of a loss


def test_draw1_verdicts_through_solve_are_the_same() -> None:
    for state in [s for s in sample() if s.rules.draw == 1][:8]:
        with coldstart.uncompiled():
            pure = solve(state, Limit(nodes=3_000, seconds=120))
        fast = solve(state, Limit(nodes=3_000, seconds=120))
        assert (pure.status, pure.nodes, pure.moves) == (fast.status, fast.nodes, fast.moves)


def test_a_search_switches_core_between_chunks() -> None:
    """Started uncompiled, finished compiled: the same search as compiled all the way."""
    state = deal(6, Rules(draw=3))  # some 18,000 positions to a win
    with coldstart.uncompiled():
        mixed = Search(state)
        for _ in range(3):
            assert mixed.step(700) == core.R_BUDGET
    assert 0 < mixed.nodes <= 1 + 3 * 700
    while mixed.step(50_000) == core.R_BUDGET:
        pass
    straight = Search(state)
    while straight.step(50_000) == core.R_BUDGET:
        pass
    assert mixed.result == straight.result == core.R_WON
    assert mixed.nodes == straight.nodes
    assert mixed.line() == straight.line()


def test_uncompiled_chunks_stop_early_so_cancel_stays_quick(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(coldstart, "PIECE_SECONDS", 0.0)
    with coldstart.uncompiled():
        search = Search(deal(6, Rules(draw=3)))
        before = search.nodes
        assert search.step(100_000) == core.R_BUDGET
        assert 0 < search.nodes - before <= coldstart.PIECE_NODES


def test_python_core_is_plain_python_through_and_through() -> None:
    py = coldstart.python_core()
    assert py is coldstart.python_core()  # imported once
    replaced = [name for name, value in vars(core).items() if hasattr(value, "py_func")]
    assert set(coldstart.ENTRY_POINTS) <= set(replaced)
    for name in replaced:
        fn = getattr(py, name)
        assert not hasattr(fn, "py_func"), name  # no numba dispatcher left to compile
        # nested calls resolve in the plain copy of the package: nothing there is compiled
        assert fn.__globals__["__name__"].startswith(py.__name__ + "."), name
        assert not any(hasattr(v, "py_func") for v in fn.__globals__.values()), name
    assert py.R_WON == core.R_WON and py.S_SIZE == core.S_SIZE
    with coldstart.uncompiled():
        assert coldstart.CORE.tt_rehash is not core.tt_rehash
        assert coldstart.CORE.MAXD == core.MAXD
    assert coldstart.CORE.run_chunk is core.run_chunk


def test_core_constants_are_kept_and_functions_follow_the_mode() -> None:
    """Integer constants read through CORE are kept (they are the same in both cores)."""
    names = [n for n, v in vars(core).items() if type(v) is int and not n.startswith("_")]
    assert "S_SIZE" in names and "K_TAL_COL" in names
    py = coldstart.python_core()
    for name in names:
        with coldstart.uncompiled():
            assert getattr(coldstart.CORE, name) == getattr(py, name), name
        assert getattr(coldstart.CORE, name) == getattr(core, name), name
        assert vars(coldstart.CORE)[name] == getattr(core, name), name  # kept: no lookup
    for name in coldstart.ENTRY_POINTS:  # functions are never kept: the mode picks them
        getattr(coldstart.CORE, name)
        assert name not in vars(coldstart.CORE), name
    with coldstart.uncompiled():
        assert coldstart.CORE.run_chunk is not core.run_chunk
    assert coldstart.CORE.run_chunk is core.run_chunk


def test_the_first_verdict_needs_no_numba() -> None:
    """The solver imports and the uncompiled core runs without loading numba at all."""
    code = (
        "import sys\n"
        "from klondike_widget.engine.deals import deal\n"
        "from klondike_widget.solver import Limit, coldstart\n"
        "from klondike_widget.solver.api import Search\n"
        "with coldstart.uncompiled():\n"
        "    search = Search(deal(2))\n"
        "    while search.step(10_000) == 0: pass\n"
        "print(search.result, 'numba' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout.split()
    assert out == [str(core.R_WON), "False"]


def test_uncompiled_core_keeps_numpy_quiet() -> None:
    with coldstart.uncompiled(), np.errstate(all="raise"):  # wrapping hashes must not raise
        assert solve(deal(2), Limit(nodes=2_000)).nodes > 0


COLD = r"""
import json, sys
from klondike_widget.engine.deals import deal
from klondike_widget.solver import Limit, coldstart, solve
first = solve(deal(2), Limit(seconds=60))
during = coldstart.state()
ready = coldstart.wait(900)
after = solve(deal(2), Limit(seconds=60))
print(json.dumps([first.status.value, first.nodes, during, ready, coldstart.state(),
                  after.nodes, [str(m) for m in first.moves] == [str(m) for m in after.moves]]))
"""

WARM = r"""
import json
from klondike_widget.solver import coldstart
print(json.dumps([coldstart._cache_is_warm()]))
"""


def run(code: str, cache: Path) -> list[object]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
        check=True,
        cwd=REPO,
    )
    result: list[object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_empty_cache_first_verdict_then_the_compiler_fills_the_cache(tmp_path: Path) -> None:
    """With an empty cache the first search runs uncompiled; a second process compiles."""
    assert run(WARM, tmp_path) == [False]
    status, nodes, during, ready, end, nodes_after, same_line = run(COLD, tmp_path)
    assert status == "won"
    assert during in ("starting", "compiling")  # answered before the compiled core was there
    assert (ready, end) == (True, "ready")
    assert nodes == nodes_after and same_line
    assert list(tmp_path.rglob("*.nbi")) and list(tmp_path.rglob("*.nbc"))
    assert run(WARM, tmp_path) == [True]
