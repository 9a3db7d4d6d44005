"""Game review: the losing move of constructed games, won games, undecided positions, the cache."""

from __future__ import annotations

import pytest

from klondike_widget import review as review_module
from klondike_widget.engine.game import Game
from klondike_widget.review import Review, review
from klondike_widget.solver import Limit, SolveResult, Status, solve
from klondike_widget.widget.analysis import Verdicts


def _lost(state: object) -> bool:
    return solve(state, Limit(seconds=0.5)).status is Status.LOST  # type: ignore[arg-type]


def slip_game(number: int, draw: int) -> tuple[Game, int]:
    """A game along a winning line with one losing move (proved lost) at the returned index."""
    game = Game.new(deal=number, draw=draw)
    line = solve(game, Limit(seconds=10)).moves
    for k in range(len(line) // 4, len(line) - 5):
        probe = Game.new(deal=number, draw=draw)
        probe.play_line(line[:k])
        for move in probe.legal_moves:
            if move != line[k] and _lost(probe.state.apply(move)):
                probe.play(move)
                # a few more moves after the mistake, whatever they are
                for _ in range(6):
                    if not probe.legal_moves:
                        break
                    probe.play(next(iter(probe.legal_moves)))
                return probe, k
    raise AssertionError(f"no losing move found along deal {number}'s line")


@pytest.mark.parametrize(("number", "draw"), [(8, 1), (3, 3)])
def test_a_known_losing_move_is_found(number: int, draw: int) -> None:
    game, k = slip_game(number, draw)
    assert solve(game.states[k], Limit(seconds=10)).status is Status.WON
    assert solve(game.states[k + 1], Limit(seconds=10)).status is Status.LOST
    r = review(game, Limit(seconds=5))
    losing = r.losing_move
    assert losing is not None and losing.index == k
    assert losing.move == game.history[k]
    assert (losing.before, losing.after) == (Status.WON, Status.LOST)
    assert [row.before for row in r[: k + 1]] == [Status.WON] * (k + 1)
    assert all(row.after is Status.LOST for row in r[k:])
    assert sum(row.losing for row in r) == 1
    # the alternative wins from the position before the mistake, and is not the mistake
    replay = Game(game.states[k])
    replay.play_line(losing.alternative)
    assert replay.is_won
    assert losing.alternative[0] != losing.move
    assert all(row.alternative == () for row in r if row is not losing)
    assert r.start is Status.WON and r.undecided == 0
    assert r.searches <= 12  # bisection, not one search per move


def test_a_won_game_has_no_losing_move_and_needs_no_search() -> None:
    game = Game.new(deal=2, draw=3)
    game.play_line(solve(game, Limit(seconds=10)).moves)
    assert game.is_won
    r = review(game)
    assert r.losing_move is None
    assert r.searches == 0
    assert {row.before for row in r} == {row.after for row in r} == {Status.WON}
    assert r.start_line == game.history


def test_a_position_on_a_found_line_is_not_searched_again() -> None:
    game = Game.new(deal=2)
    game.play_line(solve(game, Limit(seconds=10)).moves[:20])
    r = review(game)
    assert r.searches == 1  # the last position is won: every earlier one is too
    assert all(row.after is Status.WON for row in r)


def test_undecided_positions_are_never_called_lost() -> None:
    game = Game.new(deal=12)  # a deal the solver cannot decide in a few thousand positions
    game.play_line(["s", "s", "s"])
    r = review(game, Limit(nodes=2_000))
    assert r.start is Status.UNKNOWN
    assert {row.after for row in r} == {Status.UNKNOWN}
    assert r.losing_move is None and r.undecided == 4


def test_an_undecided_gap_before_a_lost_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Won start, undecided middle, lost end: no move is blamed, the middle stays UNKNOWN."""
    game = Game.new(deal=2)
    game.play_line(["s"] * 6)
    states = game.states

    def fake_solve(state: object, limit: Limit, cancel: object = None) -> SolveResult:
        if state == states[0]:
            return SolveResult(Status.WON, moves=solve(states[0]).moves)
        if state == states[-1]:
            return SolveResult(Status.LOST)
        return SolveResult(Status.UNKNOWN)

    monkeypatch.setattr(review_module, "solve", fake_solve)
    r = review(game)
    assert [row.after for row in r] == [Status.UNKNOWN] * 5 + [Status.LOST]
    assert r.losing_move is None
    assert r[0].before is Status.WON and r[0].alternative  # the verdict dropped to unknown here
    assert r.searches == 7


def test_known_verdicts_are_used_and_extended() -> None:
    game, k = slip_game(8, 1)
    known = Verdicts()
    first = review(game, known=known)
    assert known.get(game.states[-1]) is not None
    again = review(game, known=known)
    assert again.searches == 0
    assert again.records() == [dict(row, seconds=0.0) for row in first.records()]
    assert again.losing_move is not None and again.losing_move.index == k


def test_records_and_dataframe() -> None:
    game = Game.new(deal=2)
    game.play_line(["s", "s"])
    r = review(game)
    assert isinstance(r, Review) and len(r) == 2
    rec = r.records()[1]
    assert set(rec) == {"index", "move", "before", "after", "seconds", "losing", "alternative"}
    assert rec["index"] == 1 and rec["move"] == "s" and rec["after"] == "won"
    table = r.to_dataframe()
    assert list(table.index) == [0, 1] and list(table["after"]) == ["won", "won"]


def test_an_empty_game() -> None:
    r = review(Game.new(deal=2))
    assert len(r) == 0 and r.start is Status.WON and r.losing_move is None


def test_cancel_and_total_budget_leave_positions_undecided() -> None:
    game = Game.new(deal=2)
    game.play_line(["s", "s"])
    r = review(game, cancel=lambda: True)
    assert r.searches == 0 and r.undecided == 3
    assert review(game, seconds=1e-9).undecided == 3


@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        (("game",), {}, TypeError),
        ((Game.new(deal=2), 5), {}, TypeError),
        ((Game.new(deal=2),), {"known": {}}, TypeError),
        ((Game.new(deal=2),), {"seconds": 0}, ValueError),
        ((Game.new(deal=2),), {"seconds": True}, ValueError),
    ],
)
def test_bad_arguments(args: tuple[object, ...], kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        review(*args, **kwargs)  # type: ignore[arg-type]


def test_progress_reports_decided_positions_after_each_search() -> None:
    game, _k = slip_game(8, 1)
    seen: list[tuple[int, int]] = []
    r = review(game, Limit(seconds=5), progress=lambda done, total: seen.append((done, total)))
    assert len(seen) == r.searches
    totals = {total for _, total in seen}
    assert totals == {len(game.history) + 1}
    decided = [done for done, _ in seen]
    assert decided == sorted(decided)  # verdicts are only ever added
    assert decided[-1] == len(game.history) + 1 - r.undecided
