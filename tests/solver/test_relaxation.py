"""The draw-1 relaxation of a draw-3 solve, two move orders on one table
(:class:`~klondike_widget.solver.relaxation.Relaxation`).

Its verdicts against brute force, with the orders taking turns every few positions, are in
``test_shared_table`` (``solve`` in draw 3 runs it); here: its turns are counted in positions,
its exhaustion needs both orders, and it cuts the heavy tail it was made for.
"""

from __future__ import annotations

import random

import pytest
from solver_helpers import random_endgame

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, core, drive, solve
from klondike_widget.solver import relaxation as relaxation_module
from klondike_widget.solver.relaxation import Relaxation

#: The relaxation's move orders once all have joined: the first and ``drive.LATER_ORDERS``.
ORDERS = 1 + len(drive.LATER_ORDERS)


def run(relaxation: Relaxation, piece: int, nodes: int) -> list[tuple[int, int, int]]:
    """Step ``relaxation`` in pieces of ``piece`` positions up to ``nodes`` in all; the
    positions of each order and the result after each piece."""
    seen = []
    while relaxation.result == core.R_BUDGET and relaxation.nodes < nodes:
        relaxation.step(min(piece, nodes - relaxation.nodes))
        seen.append((relaxation.nodes, relaxation.orders[-1].nodes, relaxation.result))
    return seen


def test_its_turns_are_counted_in_positions_whatever_the_pieces() -> None:
    """The driver steps it in pieces that follow the clock; the positions each order searches
    (and so every node count and verdict) are the same for any pieces."""
    state = deal(7488924141928748454, Rules(draw=3, foundation_to_tableau=True))
    ends = []
    for piece in (3_000, 7_777, 50_000):
        relaxation = Relaxation(state)
        run(relaxation, piece, 300_000)
        assert len(relaxation.orders) == ORDERS and relaxation.orders[1].nodes > 0
        ends.append([(s.nodes, s.result) for s in relaxation.orders])
    assert ends[0] == ends[1] == ends[2], ends


def test_it_is_exhausted_only_once_every_order_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """An order that is exhausted proves nothing while another searches (it skipped the
    positions the other entered): the relaxation is decided once all are exhausted, or one
    has won. On lost draw-1 endgames, with turns of 20 positions and the later orders
    joining at 20, every order ends exhausted."""
    monkeypatch.setattr(drive, "TURN_NODES", 20)
    monkeypatch.setattr(drive, "DRAW1_SECOND_ORDER_AFTER", 20)
    rng = random.Random(71)
    lost = 0
    for _ in range(200):
        state = random_endgame(rng, rng.randint(14, 32), 3, rng.random() < 0.5)
        relaxation = Relaxation(state)
        run(relaxation, 7, 200_000)
        if relaxation.result == core.R_EXHAUSTED and len(relaxation.orders) == ORDERS:
            lost += 1
            assert all(s.result == core.R_EXHAUSTED for s in relaxation.orders)
            assert not relaxation.overflowed
    assert lost >= 5, lost
    first, second = relaxation.orders[0], Relaxation(state).orders[0]
    relaxation.orders = [first, second]
    for a, b, both in [
        (core.R_EXHAUSTED, core.R_BUDGET, core.R_BUDGET),
        (core.R_BUDGET, core.R_EXHAUSTED, core.R_BUDGET),
        (core.R_EXHAUSTED, core.R_EXHAUSTED, core.R_EXHAUSTED),
        (core.R_EXHAUSTED, core.R_WON, core.R_WON),
        (core.R_GROW, core.R_BUDGET, core.R_GROW),
    ]:
        first.result, second.result = a, b
        assert relaxation.result == both, (a, b)


def test_it_cuts_the_heavy_tail_of_a_won_draw_3_deal() -> None:
    """Fresh draw-3 deal 7488924141928748454: the first draw-1 order alone searched 3.69 M
    positions before its draw-1 win, and the second draw-3 order (which wins the deal) waited
    for it: 5.40 M positions in all. With both draw-1 orders the relaxation wins within some
    400,000 positions, and the solve within 1.5 M."""
    state = deal(7488924141928748454, Rules(draw=3, foundation_to_tableau=True))
    result = solve(state, Limit(nodes=6_000_000, seconds=None), shorten=False)
    assert result.status is Status.WON  # (the line was replayed through the engine)
    assert result.extra["relaxation_nodes"] < 500_000
    assert result.nodes < 1_500_000, result.nodes


def test_the_second_order_enters_the_firsts_restricted_first_child() -> None:
    """The second order enters the position the first is searching under (its first move),
    in the table already, which ``search.enters_shared`` recognises by the key the position is
    stored under: tagged, for a restricted one. Numbered deal 1319's relaxation meets one, a
    draw-1 talon card onto a column whose key the root gives without playing it (a quiet
    key): compared by its untagged key, it stayed closed (0 shared positions). Each later
    order enters it. Its draw-1 version is lost: all orders are exhausted after 100,497
    positions."""
    relaxation = Relaxation(deal(1319, Rules(draw=3)))
    while relaxation.step(10_000) == core.R_BUDGET:
        pass
    assert relaxation.result == core.R_EXHAUSTED
    assert [s.shared for s in relaxation.orders] == [0] + [1] * (ORDERS - 1)


def test_its_table_is_capped_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cap is :data:`~.drive.RELAX_TABLE_BYTES`: in rows of one word (every dealt
    position's) twice the rows of two words. Once full the relaxation stops (``R_GROW``) with
    its table three quarters full at most, and every order holds the same cap. Numbered draw-3
    deal 2311, whose draw-1 version is lost at some 4.5 M positions, under a cap of 512 KiB."""
    monkeypatch.setattr(relaxation_module, "RELAX_TABLE_BYTES", 1 << 19)
    relaxation = Relaxation(deal(2311, Rules(draw=3)))
    first = relaxation.orders[0]
    assert first.TT.shape[1] == 1 and first.tt_max == 1 << 16
    run(relaxation, 20_000, 1_000_000)
    assert relaxation.result == core.R_GROW
    assert [s.tt_max for s in relaxation.orders] == [1 << 16] * ORDERS
    assert first.table.TT.shape[0] == 1 << 16  # (the order that grew it last holds it)
    assert drive.grow_at(1 << 15) < first.table.count <= drive.grow_at(1 << 16)
