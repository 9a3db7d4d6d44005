"""The draw-1 relaxation of a draw-3 solve, searched as a draw-1 solve searches: four move
orders on one table (:class:`Relaxation`).

Every draw-3 line is a draw-1 line (three taps of draw 1 turn what one tap of draw 3 turns), so
a draw-3 position whose draw-1 version is lost is lost: the relaxation's exhaustion is a proof
(:func:`~.turns.take_turns`). Its win proves nothing, but until it has one the second draw-3
order waits, so a relaxation that searches long for a win holds back the draw-3 search that
would find one. Draw 1's first order alone has a heavy tail on won deals, which draw 1's second
order cuts (:data:`~.drive.DRAW1_SECOND_ORDER_AFTER`); the relaxation now runs both, as a
draw-1 solve does. Fresh draw-3 deal 7488924141928748454: the relaxation searched 3.69 M
positions for its win with the first order alone, 0.39 M with both; the solve took 5.40 M
positions, now 1.40 M. Draw-3 solves, positions (no verdict changed): fresh deals of seeds 8-15
(1400) 75.06 -> 68.43 M (won ones 28.56 -> 21.76 M), of seeds 16-17 (800) 37.95 -> 36.18 M,
numbered 1-5000 248.53 -> 247.27 M (won ones 88.89 -> 86.39 M, lost ones 159.64 -> 160.88 M:
the second order's exhaustion of a lost draw-1 version costs a little more than the first's).
The relaxation alone in the second order instead: 75.06 -> 70.22 M and 248.53 -> 253.66 M.
With the talon-first order as a third (``drive.LATER_ORDERS``, December 2026), beside the three of
the draw-3 search, 30 s a deal: fresh draw-3 deals of seeds 31-60 (6000) 311.94 -> 305.25 M
(won ones 69.72 -> 65.36 M, lost ones 242.22 -> 239.89 M), numbered 1-5000 223.16 -> 217.65
M (won 77.97 -> 73.65 M, lost 145.19 -> 143.99 M); no verdict changed, none undecided. The
talon-last order joins it as a fourth (December 7, 2026; figures in ``core.priorities``).

>>> from klondike_widget.engine.deals import deal
>>> relaxation = Relaxation(deal(5, Rules(draw=3)))
>>> relaxation.state.rules.draw, relaxation.step(100_000) == core.R_WON, relaxation.nodes > 0
(1, True, True)
"""

from __future__ import annotations

from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import drive
from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then
from klondike_widget.solver.drive import RELAX_TABLE_BYTES, Search, shared_verdict

__all__ = ["Relaxation", "relaxation_rows"]


def relaxation_rows(words: int) -> int:
    """The most rows the relaxation's table holds, in rows of ``words`` words: those of
    :data:`~.drive.RELAX_TABLE_BYTES`, 256 MiB.

    The relaxation stops when its table is full, and then it proves nothing: the positions it
    searched are lost work. A cap in rows of 2**24 held 12.58 M positions (three quarters full,
    :func:`~.drive.grow_at`), too few for fresh deal 17491285307601696436, whose draw-1 version
    is lost in 19.43 M: in draw 3 the relaxation filled its table, and the draw-3 search alone
    proved the deal lost, at 29.61 M positions in 16.6 CPU s (peak 420 MiB); now the relaxation
    proves it at 19.80 M in 9.5 s (291 MiB; two paired runs each; lonelybot: 10.27 s). In bytes
    the cap is what it was for rows of two words; rows of one word (every dealt position's,
    ``core.row_words``) took half of it, and now take all. With the draw-3 search's largest
    table (512 MiB of one-word rows) a solve stays under 1 GiB. The caps differ only past
    12.58 M relaxation positions, so no smaller solve changes.

    >>> relaxation_rows(1), relaxation_rows(2)
    (33554432, 16777216)
    """
    return RELAX_TABLE_BYTES // (8 * words)


class Relaxation:
    """The draw-1 relaxation of draw-3 position ``state``: the first move order alone, then
    the later ones (:data:`~.drive.LATER_ORDERS`) on the same table
    (:meth:`.drive.Search.share_table`) once the first has searched
    :data:`~.drive.DRAW1_SECOND_ORDER_AFTER` positions, all in turns of
    :data:`~.drive.TURN_NODES` positions, counted in positions so that the node counts are the
    same on every machine.

    It answers what :func:`~.turns.take_turns` and :func:`~.api.solve` ask of a search:
    :attr:`result` is ``R_WON`` once any order has won, ``R_EXHAUSTED`` once every order
    that searched is exhausted (the proof of :meth:`~.drive.Search.share_table`), ``R_GROW``
    once the table is full, else ``R_BUDGET``.
    """

    def __init__(self, state: GameState) -> None:
        self.state = state.replace(rules=Rules(1, state.rules.foundation_to_tableau))
        first = Search(self.state)
        first.tt_max = relaxation_rows(first.TT.shape[1])
        self.orders = [first]

    @property
    def nodes(self) -> int:
        """Positions searched so far, by all orders."""
        return sum(s.nodes for s in self.orders)

    @property
    def visits(self) -> int:
        """Children visited so far, by all orders (:attr:`.drive.Search.visits`)."""
        return sum(s.visits for s in self.orders)

    @property
    def shared(self) -> int:
        """Positions one order entered after another (:attr:`.drive.Search.shared`)."""
        return sum(s.shared for s in self.orders)

    @property
    def peak_memory(self) -> int:
        """Peak bytes of all orders' arrays and their one table."""
        return sum(s.peak_memory for s in self.orders)

    @property
    def overflowed(self) -> bool:
        """True if any order was cut off by the stack sizes (then no proof)."""
        return any(s.overflowed for s in self.orders)

    @property
    def result(self) -> int:
        """The core's result code of the orders together (see the class)."""
        decider = shared_verdict(self.orders)
        if decider is not None:
            return decider.result
        full = any(s.result == core.R_GROW for s in self.orders)
        return int(core.R_GROW if full else core.R_BUDGET)

    def step(self, max_nodes: int) -> int:
        """Search up to ``max_nodes`` more positions, in turns; return :attr:`result`."""
        left = max_nodes
        while left > 0 and self.result == core.R_BUDGET:
            first = self.orders[0]
            if len(self.orders) == 1 and first.nodes >= drive.DRAW1_SECOND_ORDER_AFTER:
                self.orders += drive.join_later(first, drive.later_makers(self.state))
            live = [s for s in self.orders if s.result == core.R_BUDGET]
            search = min(live, key=lambda s: (s.nodes // drive.TURN_NODES, self.orders.index(s)))
            before = search.nodes
            search.step(min(left, drive.TURN_NODES - before % drive.TURN_NODES))
            left -= search.nodes - before
        return self.result
