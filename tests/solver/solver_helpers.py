"""Helpers shared by the solver tests and the solver benchmark: positions and brute force.

Nothing here is part of the package: these build test positions from the engine and decide small
positions by brute force over the engine's own legal moves (the independent check of the solver's
LOST verdicts).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import fuzz_cases

from klondike_widget.engine.cards import RANKS
from klondike_widget.engine.deals import deal, state_from_solvitaire
from klondike_widget.engine.moves import Move, MoveKind, apply_move, apply_unchecked, generate_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import core
from klondike_widget.solver.api import Search

#: Solvitaire's verdicts on 50 deals (a copy of ``shared/reference/solvitaire-1-50.jsonl``).
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "solvitaire-1-50.jsonl"


def reference_deals() -> list[dict[str, Any]]:
    """The reference records (seed, draw, deal, verdict, ...), or [] if the file is absent."""
    if not REFERENCE.exists():
        return []
    return [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]


#: Klondike-Solver's minimal solutions of the reference deals of seeds 1-30 in engine moves (a
#: copy of ``shared/reference/klondike-solver-lines-1-30.jsonl``): within a few moves of the
#: shortest lines in our measure.
KS_LINES = Path(__file__).resolve().parents[1] / "data" / "klondike-solver-lines-1-30.jsonl"


def klondike_solver_lines() -> dict[tuple[int, int], str]:
    """Klondike-Solver's lines (:data:`KS_LINES`) by ``(seed, draw)``."""
    rows = [json.loads(text) for text in KS_LINES.read_text().splitlines() if text.strip()]
    return {(row["seed"], row["draw"]): row["line"] for row in rows}


def reference_state(record: dict[str, Any]) -> GameState:
    """The position of a reference record."""
    return state_from_solvitaire(record["deal"], Rules(draw=record["draw"]))


def random_walk(state: GameState, steps: int, rng: random.Random) -> list[GameState]:
    """Positions along random legal play (stock taps and recycles included) from ``state``."""
    out = [state]
    for _ in range(steps):
        moves = list(generate_moves(state))
        if not moves:
            break
        state = apply_unchecked(state, rng.choice(moves))
        out.append(state)
    return out


def midgame_positions(count: int, seed: int, draw: int, steps: int = 60) -> list[GameState]:
    """``count`` positions reached by random play of ``steps`` moves from numbered deals."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        start = deal(seed * 1000 + i, Rules(draw=draw))
        out.append(random_walk(start, rng.randint(steps // 2, steps), rng)[-1])
    return out


def random_endgame(
    rng: random.Random, left: int, draw: int, foundation_to_tableau: bool
) -> GameState:
    """A random valid position with about ``left`` cards off the foundations.

    Cards are spread over the columns (some face down) and the stock and waste at random.
    """
    heights, remaining = fuzz_cases.heights_leaving(rng, left)
    rng.shuffle(remaining)
    columns: list[list[int]] = [[] for _ in range(7)]
    stock: list[int] = []
    waste: list[int] = []
    for card in remaining:
        r = rng.random()
        if r < 0.15:
            stock.append(card)
        elif r < 0.2:
            waste.append(card)
        else:
            columns[rng.randrange(4)].append(card)
    for col in columns:
        if rng.random() < 0.5:  # low cards buried under high ones: deadlocks are likely
            col.sort(key=lambda card: card % RANKS)
    face_down = [
        (len(col) - 1 if rng.random() < 0.7 else rng.randrange(len(col))) if col else 0
        for col in columns
    ]
    return GameState(columns, face_down, stock, waste, heights, Rules(draw, foundation_to_tableau))


def brute_force(state: GameState, max_states: int = 300_000) -> bool | None:
    """Decide ``state`` by breadth-first search over the engine's legal moves.

    Returns True (winnable), False (no reachable position is won) or None if more than
    ``max_states`` positions were reached (:func:`fuzz_cases.brute_force`, breadth first).
    """
    return fuzz_cases.brute_force(state, max_states, breadth_first=True)


def talon_reachable(state: GameState) -> list[GameState]:
    """Every position reachable from ``state`` by stock taps and recycles alone."""
    seen = {state}
    stack = [state]
    while stack:
        s = stack.pop()
        for move in (Move.draw(), Move.recycle()):
            if s.is_legal(move):
                t = apply_unchecked(s, move)
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
    return list(seen)


def engine_move_set(state: GameState) -> set[tuple[Any, ...]]:
    """The engine's moves of ``state`` in a form comparable with the solver's.

    Column and foundation moves as ``(kind, source, target, count)``; waste plays as
    ``("talon", card, kind, target)`` over every waste top that taps and recycles reach.
    """
    out: set[tuple[Any, ...]] = set()
    for m in generate_moves(state):
        if m.kind in (
            MoveKind.COLUMN_TO_COLUMN,
            MoveKind.COLUMN_TO_FOUNDATION,
            MoveKind.FOUNDATION_TO_COLUMN,
        ):
            out.add((m.kind, m.source, m.target, m.count))
    for s in talon_reachable(state):
        if not s.waste:
            continue
        for m in generate_moves(s):
            if m.kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
                out.add(("talon", s.waste[-1], m.kind, m.target))
    return out


def foundation_down_position(foundation_to_tableau: bool = True) -> GameState:
    """A position won only by taking cards back down from the foundations.

    The 5 of diamonds lies on the face-down 4 of diamonds and every black 6 is on a foundation:
    the 5 can only move after a King, Queen, ... 6 of a black suit come back down into a column.
    Winnable with foundation-to-column moves, lost without.
    """
    from klondike_widget.engine.cards import parse_card

    columns = [[parse_card("4d"), parse_card("5d")], [], [], [], [], [], []]
    stock = [parse_card(x) for x in ("Kd", "Qd", "Jd", "Td", "9d", "8d", "7d", "6d")]
    return GameState(
        columns,
        [1, 0, 0, 0, 0, 0, 0],
        stock,
        (),
        (13, 3, 13, 13),
        Rules(draw=1, foundation_to_tableau=foundation_to_tableau),
    )


def decide(state: GameState, dominances: bool | int, nodes: int, always: int = core.ALW_ALL) -> int:
    """The core's result code for ``state`` within ``nodes`` positions (R_BUDGET if undecided).

    A win's line is replayed through the engine (it raises if the line does not win).
    """
    search = Search(state, dominances=dominances, always=always)
    while search.result not in (core.R_WON, core.R_EXHAUSTED) and search.nodes < nodes:
        search.step(nodes)
    if search.result == core.R_WON:
        search.line()
    return search.result if not search.overflowed else core.R_BUDGET


def verdicts_kept(
    states: list[GameState], bit: int, nodes: int, others: int = core.DOM_ALL
) -> dict[int, int]:
    """Assert that pruning ``bit`` changes no verdict, alone and beside the ``others``.

    Returns how many positions were decided both ways, by result code (R_WON, R_EXHAUSTED).
    """
    both = {core.R_WON: 0, core.R_EXHAUSTED: 0}
    for state in states:
        for on, off in ((bit, 0), (others | bit, others & ~bit)):
            pruned = decide(state, on, nodes)
            full = decide(state, off, nodes)
            if core.R_BUDGET not in (pruned, full):
                assert pruned == full, (bit, on, state)
                both[pruned] += 1
    return both


def winning_lines(
    draw: int, count: int, first: int = 1
) -> list[tuple[GameState, tuple[Move, ...]]]:
    """Winning lines of the first ``count`` numbered deals (from ``first``) the solver wins at
    once, under ``Rules(draw)``: the start of the fuzzer's ``played`` positions."""
    from klondike_widget.solver import Limit, Status, solve

    out: list[tuple[GameState, tuple[Move, ...]]] = []
    number = first
    while len(out) < count:
        start = deal(number, Rules(draw=draw))
        res = solve(start, Limit(seconds=2))
        if res.status is Status.WON:
            out.append((start, res.moves))
        number += 1
    return out


def draw_cases(seed: int, cases: int, endgames: int, draw: int = 3) -> list[fuzz_cases.Case]:
    """The cases of draw mode ``draw`` among the fuzzer's first ``cases`` of ``seed``
    (:func:`fuzz_cases.make_case`), and ``endgames`` random endgames (:func:`random_endgame`:
    low cards buried under high ones, so that many are lost), half of them with the solver's
    override of the foundation-to-column rule."""
    lines = {d: winning_lines(d, 4) for d in (1, 3)}
    found = [fuzz_cases.make_case(seed, i, lines) for i in range(cases)]
    rng = random.Random(seed)
    for _ in range(endgames):
        state = random_endgame(rng, rng.randint(12, 30), draw, rng.random() < 0.5)
        override = (not state.rules.foundation_to_tableau) if rng.random() < 0.5 else None
        found.append(fuzz_cases.Case(state, "endgame", override))
    return [c for c in found if c.state.rules.draw == draw]


#: The interleaved schedule (``tests/solver/test_shared_table.py`` and the fuzzer's
#: ``--interleaved``), set on :mod:`klondike_widget.solver.drive`: turns of three positions, the
#: second order from the second position on in both draw modes, and the draw-1 relaxation's
#: lead from its fiftieth position (four turns for one) and its hundredth (64 for one). The
#: orders then take turns on one table from the start, even on the fuzzer's small positions.
INTERLEAVED = {
    "TURN_NODES": 3,
    "SECOND_ORDER_AFTER": 2,
    "DRAW1_SECOND_ORDER_AFTER": 2,
    "RELAXATION_LEADS": ((50, 4), (100, 64)),
}


def compare_case(
    case: Any,
    nodes: int = 2_000_000,
    max_states: int = 200_000,
    stops: int = 0,
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """Solve a fuzzer case and decide it by brute force; replay a WON line independently.

    Returns a record: category, draw, rules, override, ``solver`` and ``brute`` verdicts
    (``won``/``lost``/``unknown``), nodes, ``second_order_nodes`` and ``decided_by`` (see
    :func:`klondike_widget.solver.solve`) and ``agree`` (None when either is undecided). With
    ``stops``, the case is solved again, stopped by every budget of positions below the full
    solve's count, or by ``stops`` of them drawn by ``rng`` if there are more, and the record
    counts those solves (``stops``), those that reached a verdict all the same
    (``stops_decided``) and the wrong ones (``stops_wrong``, :func:`stopped_solves`: against
    the brute force's verdict, or the full solve's where the brute force gave up).
    """
    from klondike_widget.solver import Limit, Status, solve

    res = solve(case.state, Limit(nodes=nodes, seconds=60), foundation_to_tableau=case.override)
    _replay_win(case, res)
    truth = fuzz_cases.brute_force(case.searched, max_states)  # depth first: finds wins early
    brute = "unknown" if truth is None else ("won" if truth else "lost")
    decided = brute != "unknown" and res.status is not Status.UNKNOWN
    record = {
        "category": case.category,
        "draw": case.state.rules.draw,
        "f2t": case.searched.rules.foundation_to_tableau,
        "override": case.override is not None,
        "solver": res.status.value,
        "brute": brute,
        "nodes": res.nodes,
        "second_order_nodes": res.extra["second_order_nodes"],
        "decided_by": res.extra["decided_by"],
        "agree": (res.status.value == brute) if decided else None,
    }
    if stops:
        known = brute if brute != "unknown" else res.status.value
        below = range(1, res.nodes)
        budgets = (
            list(below) if len(below) <= stops else (rng or random.Random(0)).sample(below, stops)
        )
        record.update(stopped_solves(case, (known, res.nodes), budgets))
    return record


def _replay_win(case: Any, res: Any) -> None:
    """Replay a WON result's line from the searched position through the engine (raises
    ``AssertionError`` unless it wins under the searched rules); nothing for other verdicts."""
    from klondike_widget.solver import Status

    if res.status is Status.WON:
        assert res.rules == case.searched.rules
        s = case.searched
        for move in res.moves:
            s = apply_move(s, move)
        assert s.is_won, "a WON line does not win"


def stopped_solves(case: Any, full: tuple[str, int], budgets: list[int]) -> dict[str, int]:
    """Solve ``case`` to each budget of positions (no clock); count the solves, those that
    reached a verdict and the wrong ones, against the full solve's ``(verdict, positions)``:
    a verdict not ``verdict`` (``unknown``: none can be wrong), or reached after another count
    of positions. A solve stopped by its budget proves nothing, so it must be UNKNOWN; one
    that decides within its budget has followed the full solve's turns, which are counted in
    positions, to the same point. Every WON line is replayed."""
    from klondike_widget.solver import Limit, Status, solve

    known, nodes = full
    counts = {"stops": 0, "stops_decided": 0, "stops_wrong": 0}
    for budget in budgets:
        res = solve(
            case.state, Limit(nodes=budget, seconds=None), foundation_to_tableau=case.override
        )
        _replay_win(case, res)
        counts["stops"] += 1
        if res.status is Status.UNKNOWN:
            continue
        counts["stops_decided"] += 1  # (a verdict is FINISHED: SolveResult refuses the rest)
        counts["stops_wrong"] += (known not in ("unknown", res.status.value)) or res.nodes != nodes
    return counts


def mixed_positions(
    draw: int, seed: int, fresh: range, middle: int, ends: int, steps: int
) -> list[GameState]:
    """Numbered deals ``fresh``, ``middle`` positions along random play of about ``steps``
    moves and ``ends`` random endgames (12-30 cards left), all from ``seed``."""
    rng = random.Random(seed * 100 + draw)
    states = [deal(n, Rules(draw=draw)) for n in fresh]
    states += midgame_positions(middle, seed + draw, draw, steps=steps)
    states += [random_endgame(rng, rng.randint(12, 30), draw, True) for _ in range(ends)]
    return states
