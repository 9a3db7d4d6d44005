"""Driving the core: one resumable search (:class:`Search`), the settings of the turns that
share a solve's budget (:mod:`.turns`) and the joining of several move orders on one table.

:class:`Search` holds the core's arrays for one position and calls the core between chunks;
:func:`join_later` adds searches of the same position in the other move orders
(:data:`LATER_ORDERS`) on its table, and :func:`shared_verdict` says which one's result stands.

>>> from klondike_widget.engine.deals import deal
>>> search = Search(deal(2))
>>> search.step(100_000) == core.R_WON and len(search.line()) > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.solver.arrays import SearchArrays
from klondike_widget.solver.bridge import encode_state, engine_line, with_override
from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then
from klondike_widget.solver.memory import Table

__all__ = [
    "TT_START",
    "TT_MAX",
    "LATE_GROWTH_ROWS",
    "grow_at",
    "TURN_NODES",
    "RELAX_TABLE_BYTES",
    "AHEAD_ROWS",
    "AHEAD_DRAWS",
    "SECOND_ORDER_AFTER",
    "SECOND_ORDER_SHARE",
    "DRAW1_SECOND_ORDER_AFTER",
    "DRAW1_SECOND_ORDER_SHARE",
    "LATER_ORDERS",
    "second_order_schedule",
    "RELAXATION_LEADS",
    "Search",
    "shared_verdict",
    "later_makers",
    "join_later",
    "with_override",
]

#: Start size of the transposition table (entries of one 8-byte word, or two: ``core.row_words``,
#: ``core.one_word``); it doubles when half full (three quarters from
#: :data:`LATE_GROWTH_ROWS` on, see :func:`grow_at`). Small, because most searches are: the median
#: fresh deal is decided in a few hundred positions, and a table of 2**19 rows (8 MiB) cost
#: such a search more than its positions did (its pages zeroed on first touch; about 0.3 ms a
#: search, see ``benchmarks/core_profile.py --part fixed``). Growing costs a rehash of each
#: size on the way, a few ms over a search of a million positions. The table is exact, so its
#: size changes no node count and no verdict.
TT_START = 1 << 14
#: Largest transposition table (entries): 2**26 * 8 bytes = 512 MiB (1 GiB of two-word rows).
TT_MAX = 1 << 26
#: Table size (entries, 128 MiB) from which the table doubles only when three quarters full.
#: A draw-3 search of 10 CPU s enters some 9-10 M positions: at one half the 2**24 table
#: doubled at 8.39 M entries, to 512 MiB (768 MiB held during the rehash), and the process
#: passed 1 GiB; at three quarters it holds 12.58 M. Linear probing's runs are longer at 0.75
#: (about 8.5 rows probed for a miss instead of 2.5), yet numbered draw-3 2464 at 14 CPU s
#: searched 12.04 M positions instead of 10.99 M (no rehash to 2**25), table peak 819 -> 435
#: MiB, process max RSS 1008 -> 624 MiB. From 2**23 rows on (2**24 before): growing to 2**24
#: touches 256 MiB of new memory, 0.85-1.4 CPU s on this machine, and the searches of 4-6.3 M
#: positions (both orders' entries together) now end in the 2**23 table. The twelve slowest
#: draw-3 searches of numbered 1-5000 and of the fresh deals of seed 7, twice each, one after
#: the other: 62.5 / 60.6 -> 54.3 / 51.7 CPU s; numbered draw-3 1-5000 (both runs side by
#: side): 195.4 -> 192.1 CPU s, the 17 searches above 3 M positions 78.2 -> 75.5, peak RSS
#: 523 -> 501 MiB; deal 1862 11.27 -> 9.83 CPU s. The table is exact: no node count changes.
#: Smaller tables keep one half (cheap to grow).
LATE_GROWTH_ROWS = 1 << 23
#: Positions the searches of a solve search in turn (:func:`~.turns.take_turns`). 50,000
#: before, with the draw-3 second order after 100,000 positions: numbered draw-3 deals 1-5000
#: (10 s each) 277.13 -> 268.76 M positions, 160.9 -> 153.7 CPU s; fresh draw-3 deals of seed
#: 7 (300) 25.43 -> 24.74 M; no verdict changed. A deal is decided within a shorter turn of
#: the search that decides it, and a later order that wins a deal the first would search long
#: joins sooner.
TURN_NODES = 10_000

#: Positions a draw-3 search spends alone before the later orders join it (see
#: :func:`~.turns.take_turns`): most deals are decided before, and pay nothing for it (see
#: :data:`TURN_NODES` for 100,000 before).
SECOND_ORDER_AFTER = 20_000
#: Turns the first draw-3 search (and the relaxation) take for each turn of each later order.
SECOND_ORDER_SHARE = 2
#: Draw 1 (no relaxation beside the search): the later orders join once the first has searched
#: this many positions (its first turn), then all take turns alike (:func:`second_order_schedule`).
#: Won draw-1 deals have draw 3's heavy tail (numbered 2367, 2821, 3141: the first order alone
#: 1.17-1.78 M positions, two orders under 0.14 M each). Numbered draw-1 deals 1-5000, 10 s
#: each, with a second order: 112.48 -> 106.06 M positions; fresh deals of seed 7 (300) 7.11 ->
#: 6.40 M; no verdict changed. Turns of 50,000 from 50,000 or 100,000: 107.34 and 109.14 M.
DRAW1_SECOND_ORDER_AFTER = 10_000
DRAW1_SECOND_ORDER_SHARE = 1

#: ``(after, lead)``: once the draw-1 relaxation has searched ``after`` positions without a win,
#: it takes ``lead`` turns for each of the draw-3 search's (:func:`_lead_relaxation`).
RELAXATION_LEADS = ((20_000, 4), (200_000, 64))

#: Tables of this many rows and more have their children's rows asked for ahead
#: (``core.child_keys``): 2 MiB of one-word rows, 4 of two-word, a core's L2 cache or more. A
#: smaller table is in the cache anyway; playing each child twice would cost more than it saves.
AHEAD_ROWS = 1 << 18
#: The draw counts whose searches read ahead (once their table has :data:`AHEAD_ROWS` rows).
#: (Draw 1 since December 2026: 6-10% less CPU on its largest searches; an older test found none.)
AHEAD_DRAWS = (1, 3)
#: ``KY`` of a search that does not read ahead (yet): one row, so ``run_chunk`` leaves it alone.
_NO_KEYS = np.zeros((1, 1, 2), dtype=np.uint64)

#: ``partner_ctl`` of a search that shares no table (depth -1: see ``core.enters_shared``).
_NO_PARTNER = np.full(core.C_SIZE, -1, dtype=np.int64)

#: Largest table of the draw-1 relaxation beside a draw-3 search, in bytes (see relaxation.py).
RELAX_TABLE_BYTES = 1 << 28


def grow_at(rows: int) -> int:
    """Entries at which a table of ``rows`` entries is grown (``core.R_GROW``).

    One half of the rows below :data:`LATE_GROWTH_ROWS`, three quarters from it on. The table
    is exact, so the threshold changes no node count and no verdict, only memory and probe
    lengths.

    >>> grow_at(1 << 14), grow_at(1 << 24)
    (8192, 12582912)
    """
    return rows // 2 if rows < LATE_GROWTH_ROWS else rows - rows // 4


#: The move orders of the exact searches that join a solve's first search
#: (``core.ORDER_DEFAULT``) on its table, together, in both draw modes (:func:`~.turns.take_turns`):
#: each wins won deals the others search long (the orders and their figures: ``core.priorities``).
LATER_ORDERS = (core.ORDER_REVEALS, core.ORDER_TALON, core.ORDER_TALON_LAST)


def second_order_schedule(draw: int) -> tuple[int, int]:
    """``(after, share)`` for a solve in draw mode ``draw``: the later move orders join once
    the first has searched ``after`` positions, and then the others take ``share`` turns for
    each of each one's (:func:`~.turns.take_turns`; read when the turns start).

    >>> second_order_schedule(3), second_order_schedule(1)
    ((20000, 2), (10000, 1))
    """
    if draw == 1:
        return DRAW1_SECOND_ORDER_AFTER, DRAW1_SECOND_ORDER_SHARE
    return SECOND_ORDER_AFTER, SECOND_ORDER_SHARE


class Search:
    """One resumable search (the arrays of the core and the calls between chunks).

    Most callers want :func:`solve`; this class is the layer under it, exposed for tests and
    tools that drive the search step by step. ``tt_max`` caps its transposition table (entries);
    :meth:`step` returns ``core.R_GROW`` once the table is full; ``always`` switches off
    always-on rules (``core.ALW_*``, tests only); ``order`` is the move order of twin-class
    searches (``core.ORDER_*``: it changes no verdict). ``foundation_to_tableau``
    replaces the position's rule (:func:`with_override`): ``state`` is then the position under
    the rules searched, which its line is legal under.

    :meth:`share_table` makes two searches of one position insert into one table: then the
    exhaustion of one proves nothing alone (see :meth:`share_table`).
    """

    def __init__(
        self,
        state: GameState,
        foundation_to_tableau: bool | None = None,
        dominances: bool | int = True,
        tt_max: int = TT_MAX,
        always: int = core.ALW_ALL,
        order: int = core.ORDER_DEFAULT,
    ) -> None:
        state = with_override(state, foundation_to_tableau)
        self.state = state
        self.tt_max = tt_max
        S = encode_state(state, foundation_to_tableau, dominances, always)
        S[core.O_ORDER] = order
        self.arrays = SearchArrays(
            S=S,
            H=np.zeros(core.H_SIZE, dtype=np.uint64),
            TT=np.zeros((TT_START, core.row_words(S)), dtype=np.uint64),
            MV=np.zeros((core.MAXD, core.MAXM), dtype=np.int32),
            NM=np.zeros(core.MAXD, dtype=np.int32),
            IX=np.zeros(core.MAXD, dtype=np.int32),
            UD=np.zeros(core.MAXD, dtype=np.int32),
            AUM=np.zeros(core.MAXA, dtype=np.int32),
            AUU=np.zeros(core.MAXA, dtype=np.int32),
            AUS=np.zeros(core.MAXD, dtype=np.int32),
            mark=np.zeros(core.SCR_SIZE, dtype=np.int32),
            ctl=np.zeros(core.C_SIZE, dtype=np.int64),
            KY=_NO_KEYS,
            FK=np.zeros(2, dtype=np.uint64),
            partner_FK=np.zeros(2, dtype=np.uint64),
            partner_ctl=_NO_PARTNER,
        )
        #: The position, its hashes and the counters (the same arrays as in ``arrays``).
        self.S, self.H, self.ctl = S, self.arrays.H, self.arrays.ctl
        self._owns_table = True
        self._own_bytes = self._table_bytes() - self.arrays.TT.nbytes
        self.result = core.start_search(self.arrays)
        #: The table, shared with the searches of :meth:`share_table` (no reference to them).
        self.table = Table(self.arrays.TT, int(self.ctl[core.C_TTCOUNT]))
        if self.result == core.R_BUDGET and self.arrays.NM[0] == 0:
            self.result = core.R_EXHAUSTED

    @property
    def TT(self) -> np.ndarray:
        """The transposition table (replaced by a larger one as it fills)."""
        return self.arrays.TT

    def _table_bytes(self) -> int:
        return int(sum(a.nbytes for a in self.arrays))

    @property
    def peak_memory(self) -> int:
        """Peak bytes of its arrays (a shared table counted in its first search's figure)."""
        return self._own_bytes + (self.table.peak if self._owns_table else 0)

    def share_table(self, other: Search, mutual: bool = True) -> None:
        """Insert into ``other``'s table from now on (``other`` a search of the same position
        under the same rules and prunings, in another move order, say); this one's table is
        dropped. Call it before this search's first :meth:`step`.

        Each search then skips the positions either has entered, so the two together search
        the position's space once, not twice, with one exception: at its root, each may enter
        the position the other's first move leads to, the one the other is searching under now
        (``core.enters_shared``: else a whole option of the root would be closed to it while
        the other searches there). A win of either is a win (its own path, replayed).
        The exhaustion of one alone proves nothing: it skipped positions the other entered and
        may not have finished. Once *both* are exhausted (and neither was cut off), the position
        is lost: each search expands every position it enters, whoever entered it first (every
        child is tried: won, or entered by one of the two, or already in the table), so the
        entries of the table are closed under the children the search generates, the root among
        them and no won position (a won child is seen before the table is probed); that is the
        argument that makes one exhausted search a proof, over the union. A key names what the
        search generates from a position (a restricted position has its own key), so it does
        not matter which of the two entered it. Peak memory counts the table once, in ``other``'s
        figure. Rows of another width than this search's raise ``memory.TableWidthError``.
        With ``mutual`` false ``other`` keeps its partner (a third search reads ``other``'s first
        move): which child a search may enter at its root is speed, never soundness.
        """
        other.table.require_width(self.TT.shape[1])
        self.table = other.table
        self._owns_table = False
        self.tt_max = other.tt_max
        self.arrays = self.arrays._replace(
            TT=self.table.TT, partner_FK=other.arrays.FK, partner_ctl=other.ctl
        )
        if mutual:
            other.arrays = other.arrays._replace(partner_FK=self.arrays.FK, partner_ctl=self.ctl)

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        return int(self.ctl[core.C_NODES])

    @property
    def visits(self) -> int:
        """Children visited so far: every move taken, its position new to the table or not
        (:attr:`nodes` counts the new ones; lonelybot's ``visits`` count like this)."""
        return int(self.ctl[core.C_VISITS])

    @property
    def shared(self) -> int:
        """Positions this search entered although its partner had entered them (at its root:
        the position of the partner's first move, see :meth:`share_table`); :attr:`nodes`
        counts them too."""
        return int(self.ctl[core.C_SHARED])

    @property
    def overflowed(self) -> bool:
        """True if some part of the space was cut off by the stack sizes (no LOST then)."""
        return bool(self.ctl[core.C_OVERFLOW])

    def step(self, max_nodes: int) -> int:
        """Search up to ``max_nodes`` more positions; return the core's result code."""
        if self.result in (core.R_WON, core.R_EXHAUSTED):
            return self.result
        table = self.table
        if self.arrays.TT is not table.TT:  # another search grew the shared table
            self.arrays = self.arrays._replace(TT=table.TT)
        self.ctl[core.C_TTCOUNT] = table.count  # its entries, whoever inserted them
        self.ctl[core.C_GROWAT] = grow_at(table.TT.shape[0])
        if self.arrays.KY is _NO_KEYS and self._reads_ahead():
            # (all unknown: the positions on the stack are searched as before)
            self.arrays = self.arrays._replace(KY=np.zeros((core.MAXD, core.MAXM, 4), np.uint64))
            self._own_bytes += self.arrays.KY.nbytes
        r = core.run_chunk(self.arrays, max_nodes)
        table.count = int(self.ctl[core.C_TTCOUNT])
        if r == core.R_GROW and self.TT.shape[0] < self.tt_max:  # (else full: UNKNOWN)
            table.grow(self.tt_max)
            self.arrays = self.arrays._replace(TT=table.TT)
            r = core.R_BUDGET
        self.result = r
        return r

    def _reads_ahead(self) -> bool:
        """True once the children's keys are worth reading ahead (:data:`AHEAD_ROWS`,
        :data:`AHEAD_DRAWS`)."""
        return self.TT.shape[0] >= AHEAD_ROWS and int(self.S[core.O_DRAW]) in AHEAD_DRAWS

    def line_codes(self) -> list[int]:
        """The move codes (automatic moves included) of the winning path, in order."""
        ctl, arrays = self.ctl, self.arrays
        depth = int(ctl[core.C_DEPTH])
        aun = int(ctl[core.C_AUN])
        chosen = (arrays.MV[np.arange(depth), arrays.IX[:depth] - 1] & 0xFFFFFF).tolist()
        automatic = arrays.AUM[:aun].tolist()
        starts = [*arrays.AUS[:depth].tolist(), aun]  # depth d's automatic moves, to the next's
        codes: list[int] = arrays.AUM[: int(ctl[core.C_ROOTAUN])].tolist()
        for d in range(depth):
            codes.append(chosen[d])
            codes.extend(automatic[starts[d] : starts[d + 1]])
        return codes

    def line(self) -> tuple[Move, ...]:
        """The winning line as engine moves, replayed through the engine to check it."""
        # (engine_line raises if the core and the engine disagree)
        state, moves = engine_line(self.state, self.line_codes())
        if not state.is_won:
            raise AssertionError("internal error: the solver's line does not win")
        return moves


def shared_verdict(exact: list[Search]) -> Search | None:
    """The search whose result stands, once the searches of one table (:meth:`Search.share_table`;
    a solve's, or its relaxation's) have decided: one has won, or all are exhausted (then one cut
    off by the stack sizes, if any was, so that no LOST is claimed)."""
    for search in exact:
        if search.result == core.R_WON:
            return search
    if all(search.result == core.R_EXHAUSTED for search in exact):
        return next((s for s in exact if s.overflowed), exact[0])
    return None


def later_makers(state: GameState) -> tuple[Callable[[], Search], ...]:
    """Makers of the searches of ``state`` in :data:`LATER_ORDERS`, for :func:`join_later`."""
    return tuple(partial(Search, state, order=order) for order in LATER_ORDERS)


def join_later(first: Search, makers: Sequence[Callable[[], Search]]) -> list[Search]:
    """The searches ``makers`` make (other move orders of ``first``'s position, as
    :func:`later_makers`'), on ``first``'s table (:meth:`Search.share_table`): the first of
    them and ``first`` read each other's first move, the others ``first``'s only.

    >>> from klondike_widget.engine.deals import deal
    >>> first = Search(deal(2))
    >>> [s.table is first.table for s in join_later(first, later_makers(first.state))]
    [True, True, True]
    """
    joined = []
    for k, make in enumerate(makers):
        search = make()
        search.share_table(first, mutual=k == 0)
        joined.append(search)
    return joined
