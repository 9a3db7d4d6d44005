"""The side-by-side benchmark's helpers: ``benchmarks/lonelybot.py`` and ``side_by_side.py``.

lonelybot itself is not needed: the deck encoding is checked against the deck lonelybot's own
re-implementation of Solvitaire's generator prints for seed 1 (``lonely_anchor solvitaire-deck
1``), which is reference deal 1; the process handling against small stand-in scripts.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import lonelybot
import side_by_side

from klondike_widget.engine.deals import deal, state_from_solvitaire
from klondike_widget.engine.moves import MoveKind, apply_move, generate_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import SolveResult, Status

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "solvitaire-1-50.jsonl"

#: ``lonely_anchor solvitaire-deck 1``: Solvitaire's deal 1 in lonelybot's own encoding.
LONELYBOT_DECK_1 = [
    33, 14, 3, 45, 37, 42, 35, 43, 31, 21, 23, 28, 16, 29, 40, 9, 10, 30, 24, 32, 0, 4, 17, 49,
    27, 6, 48, 41, 39, 22, 8, 36, 25, 19, 34, 15, 26, 50, 13, 5, 18, 1, 11, 47, 46, 12, 7, 2, 44,
    38, 51, 20,
]  # fmt: skip


def test_deck_codes_match_lonelybots_own_deal() -> None:
    record = json.loads(REFERENCE.read_text().splitlines()[0])
    assert record["seed"] == 1
    state = state_from_solvitaire(record["deal"], Rules(draw=1))
    assert lonelybot.deck_codes(state) == LONELYBOT_DECK_1


def test_deck_codes_keep_colours_and_ranks() -> None:
    state = deal(7)
    codes = lonelybot.deck_codes(state)
    assert sorted(codes) == list(range(52))
    ours = [c for col in state.columns for c in col] + list(reversed(state.stock))
    for mine, theirs in zip(ours, codes, strict=True):
        assert theirs // 4 == mine % 13  # rank
        red = mine // 13 in (1, 2)  # diamonds, hearts
        assert (theirs % 4 in (0, 1)) == red  # lonelybot's hearts 0, diamonds 1


def test_only_fresh_deals() -> None:
    state = deal(3)
    later = apply_move(state, next(m for m in generate_moves(state) if m.kind is MoveKind.DRAW))
    with pytest.raises(lonelybot.NotFreshDealError):
        lonelybot.deck_codes(later)


def test_parse_output() -> None:
    text = "result: unsolvable\nvisits: 21996\nunique: 5917\nms: 1.142\n"
    assert lonelybot.parse_output(text) == {
        "result": "unsolvable",
        "visits": "21996",
        "unique": "5917",
        "ms": "1.142",
    }


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "fake_anchor"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_solve_reads_the_child(tmp_path: Path) -> None:
    binary = _script(
        tmp_path, 'echo "result: solved"; echo "visits: 512"; echo "unique: 300"; echo "ms: 2.5"'
    )
    res = lonelybot.solve(binary, deal(2, Rules(draw=3)), seconds=30)
    assert (res.status, res.states, res.unique, res.own_seconds) == ("won", 512, 300, 0.0025)
    assert res.cpu_seconds >= 0 and res.seconds < 30


def test_solve_passes_draw_and_deck(tmp_path: Path) -> None:
    out = tmp_path / "args"
    binary = _script(tmp_path, f'echo "$@" > {out}; echo "result: unsolvable"')
    state = deal(5, Rules(draw=3))
    assert lonelybot.solve(binary, state, seconds=30).status == "lost"
    word, draw, deck = out.read_text().split()
    assert (word, draw) == ("solve", "3")
    assert [int(c) for c in deck.split(",")] == lonelybot.deck_codes(state)


def test_solve_stops_at_the_wall_budget(tmp_path: Path) -> None:
    binary = _script(tmp_path, "sleep 30")
    res = lonelybot.solve(binary, deal(2), seconds=0.3)
    assert res.status == "unknown" and res.states is None
    assert res.seconds < 10


def test_solve_stops_at_the_cpu_budget(tmp_path: Path) -> None:
    binary = _script(tmp_path, "while :; do :; done")
    res = lonelybot.solve(binary, deal(2), seconds=1, clock="cpu")
    assert res.status == "unknown"
    assert res.cpu_seconds >= 0.9


def test_a_crash_is_an_error(tmp_path: Path) -> None:
    binary = _script(tmp_path, 'echo "thread panicked"; exit 101')
    assert lonelybot.solve(binary, deal(2), seconds=30).status == "error"


def test_fresh_deal_numbers() -> None:
    numbers = side_by_side.fresh_deal_numbers(50, seed=3)
    assert numbers == side_by_side.fresh_deal_numbers(50, seed=3)
    assert numbers != side_by_side.fresh_deal_numbers(50, seed=4)
    assert len(set(numbers)) == 50
    assert all(side_by_side.FRESH_LOW <= n < 2**64 for n in numbers)


def test_pooled_fresh_numbers_take_count_deals_of_each_seed() -> None:
    pooled = side_by_side.pooled_fresh_numbers(20, [3, 4])
    assert pooled == side_by_side.fresh_deal_numbers(20, 3) + side_by_side.fresh_deal_numbers(20, 4)
    assert side_by_side.pooled_fresh_numbers(20, [3, 3]) == side_by_side.fresh_deal_numbers(20, 3)


def test_run_deals_compares_verdicts(tmp_path: Path) -> None:
    # a stand-in that says "lost" on every deal: deal 2 (won) must show as a disagreement
    binary = _script(tmp_path, 'echo "result: unsolvable"; echo "visits: 7"; echo "unique: 5"')
    out = tmp_path / "runs.jsonl"
    runs = side_by_side.run_deals([2], 1, 10.0, binary, per_deal=False, out=out)
    (run,) = runs
    assert run.ours.status is Status.WON and run.anchor is not None
    assert run.disagrees() and "DISAGREE" in run.line()
    assert run.work_ratio == run.ours.nodes / 5
    record = json.loads(out.read_text())
    assert (record["deal"], record["ours"], record["lonelybot"], record["lb_unique"]) == (
        2,
        "won",
        "lost",
        5,
    )
    table = side_by_side.solver_table({1: runs})
    assert "lonelybot" in table and "ours/lonelybot" in table
    assert "| ours/lonelybot |" in side_by_side.issue_table({1: runs}, "cpu")


def test_run_deals_cpu_clock_without_lonelybot(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    runs = side_by_side.run_deals([2], 3, 5.0, None, per_deal=False, out=out, clock="cpu")
    record = json.loads(out.read_text())  # which search decided, and each one's positions
    assert record["decided_by"] == "search" and record["second_order_nodes"] == 0
    assert 0 < record["relaxation_nodes"] < record["nodes"]
    assert runs[0].anchor is None and runs[0].ours.status is Status.WON
    # a won deal's record: the whole call's CPU seconds and the search's, which leave out the
    # line's replay through the engine
    (run,) = runs
    assert (record["cpu"], record["search_cpu"]) == (round(run.cpu, 4), round(run.search_cpu, 4))
    assert run.search_cpu == run.ours.extra["search_cpu_seconds"]
    assert 0 < run.search_cpu < run.cpu == run.ours.extra["cpu_seconds"]
    table = side_by_side.solver_table({3: runs})
    assert "lonelybot" not in table.split(side_by_side.SOLVER_NOTE)[0]
    rate = f"{run.ours.nodes / run.search_cpu / 1e6:>8.2f} |"  # over the search's seconds
    assert rate in table.splitlines()[2]
    assert f"{run.cpu:>9.2f} | {run.search_cpu:>10.2f} |" in table
    assert "slowest" not in side_by_side.slowest(runs) and "1 deals" in side_by_side.slowest(runs)


def test_rates_over_the_search_and_the_ratio_over_the_whole_call() -> None:
    # made-up figures: 4 M positions, 1 CPU s of search in a 2 CPU s call; lonelybot 1 M
    # expanded states in 1 CPU s of its whole process
    ours = SolveResult(
        Status.WON,
        nodes=4_000_000,
        seconds=2.0,
        extra={"cpu_seconds": 2.0, "search_cpu_seconds": 1.0},
    )
    anchor = lonelybot.AnchorResult("won", 1.0, 1.0, 0.9, 3_000_000, 1_000_000, "")
    run = side_by_side.DealRun(7, 1, ours, anchor)
    assert (run.record()["cpu"], run.record()["search_cpu"]) == (2.0, 1.0)
    rows = side_by_side.solver_table({1: [run]}).splitlines()[2:5]
    ours_row, lb_row, ratio_row = ([c.strip() for c in r.split("|")] for r in rows)
    total_cpu, search_cpu, rate = 8, 9, 12  # columns
    assert (ours_row[total_cpu], ours_row[search_cpu], ours_row[rate]) == ("2.00", "1.00", "4.00")
    assert (lb_row[total_cpu], lb_row[search_cpu], lb_row[rate]) == ("1.00", "1.00", "1.00")
    # the ratio of rates compares whole call with whole process: (4 M / 2 s) / (1 M / 1 s)
    assert (ratio_row[total_cpu], ratio_row[rate]) == ("2.00x", "2.00x")
    assert "| cpu (whole call) |" in side_by_side.issue_table({1: [run]}, "cpu")
    assert "| 2.00 s |" in side_by_side.issue_table({1: [run]}, "cpu")
    # the search alone against lonelybot's own clock (0.9 s), start-up left out: 1.0 / 0.9
    assert "| search alone, ours/lonelybot | 1.11x | | |" in side_by_side.issue_table({1: [run]})
    killed = lonelybot.AnchorResult("unknown", 1.2, 1.1, None, None, None, "")
    both = [run, side_by_side.DealRun(8, 1, ours, killed)]  # (its CPU seconds count)
    assert side_by_side.search_ratio(both) == pytest.approx(2.0 / 2.0)
    # a deal lonelybot left undecided adds its whole budget to its total: left out here
    table = side_by_side.issue_table({1: both})
    assert "| both decided, ours/lonelybot | 2.00x (1 of 2) | | |" in table
    assert not both[1].both_decided and both[0].both_decided


def _gap_run(number: int, ours_s: float, cpu: float, lb: str, lb_s: float) -> side_by_side.DealRun:
    extra = {"cpu_seconds": cpu, "search_cpu_seconds": cpu, "proof": "search"}
    ours = SolveResult(Status.LOST, nodes=1_000_000, seconds=ours_s, extra=extra)
    anchor = lonelybot.AnchorResult(lb, lb_s, lb_s / 2, None, None, 2_000_000, "")
    return side_by_side.DealRun(number, 3, ours, anchor)


def test_largest_gaps_rank_the_deals_both_decided_by_our_extra_seconds() -> None:
    # deal 3 left undecided by lonelybot at its budget is no gap: its 10 s say nothing of ours
    runs = [
        _gap_run(1, 2.0, 1.0, "lost", 1.0),
        _gap_run(2, 0.5, 0.5, "lost", 3.0),
        _gap_run(3, 0.1, 0.1, "unknown", 10.0),
        _gap_run(4, 4.0, 4.0, "lost", 1.0),
    ]
    wall = side_by_side.largest_gaps(runs, count=5)
    lines = wall.splitlines()
    assert lines[0] == "behind on 2 deals by 4.00 s in all, ahead on 1 by 2.50 s (wall)"
    assert [line.split(" | ")[0] for line in lines[3:]] == ["| 4", "| 1"]  # (not 2: ahead)
    assert lines[3].split(" | ")[2:5] == ["4.00", "1.00", "3.00"]
    assert lines[3].endswith("| 1,000,000 | 0 | search | 2,000,000 | 0.25 | 4.00 |")
    cpu = side_by_side.largest_gaps(runs, count=1, clock="cpu")
    # cpu: ours 1.0, 0.5, 4.0 against 0.5, 1.5, 0.5
    assert cpu.splitlines()[0] == "behind on 2 deals by 4.00 s in all, ahead on 1 by 1.00 s (cpu)"
    assert len(cpu.splitlines()) == 4 and cpu.splitlines()[3].startswith("| 4 |")
