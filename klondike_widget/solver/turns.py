"""The turns of a solve: its exact searches, in several move orders on one table, and in draw 3
its draw-1 relaxation share one budget (:func:`take_turns`) until one of them decides.

Turns are counted in positions, never in seconds, so verdicts and node counts are the same on
every machine (:data:`~.drive.TURN_NODES`); the schedule's settings are in :mod:`.drive`, beside
the search they drive.

>>> from klondike_widget.engine.deals import deal
>>> search = drive.Search(deal(2))
>>> take_turns([search], None, 100_000, lambda: False, None)[:2]
('', 'search')
>>> search.result == core.R_WON and len(search.line()) > 0
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import cast

from klondike_widget.solver import drive
from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then
from klondike_widget.solver.drive import Search, shared_verdict
from klondike_widget.solver.finder import WinFinder
from klondike_widget.solver.searcher import Searcher

__all__ = ["take_turns"]


class _Run:
    """A search driven in pieces of about 0.1 s (``chunk`` positions, adapted to the clock).

    ``weight``: turns it takes in each round of turns (see :meth:`reweigh`).
    """

    def __init__(self, search: Searcher, weight: int = 1) -> None:
        self.search = search
        self.chunk = 20_000
        self.weight = weight
        self.base = 0

    @property
    def turns_done(self) -> int:
        """Turns of :data:`~.drive.TURN_NODES` positions taken."""
        return self.search.nodes // drive.TURN_NODES

    @property
    def rounds_done(self) -> float:
        """Rounds of turns taken since the last :meth:`reweigh`: the one with the fewest goes
        next."""
        return (self.turns_done - self.base) / self.weight

    def reweigh(self, weight: int) -> None:
        """Take ``weight`` turns a round from now on (the rounds counted afresh)."""
        self.base = self.turns_done
        self.weight = weight

    @property
    def decided(self) -> bool:
        """Won, or exhausted without a cut-off: what it proves stands."""
        result = self.search.result
        return result == core.R_WON or (result == core.R_EXHAUSTED and not self.search.overflowed)

    @property
    def live(self) -> bool:
        """Still worth a chunk: undecided and room left in its table."""
        return self.search.result not in (core.R_WON, core.R_EXHAUSTED, core.R_GROW)

    def step(self, nodes_left: int | None) -> None:
        """Search one piece: ``chunk`` positions, or ``nodes_left`` if fewer."""
        step = self.chunk if nodes_left is None else max(1, min(self.chunk, nodes_left))
        c0 = time.perf_counter()
        self.search.step(step)
        dt = time.perf_counter() - c0
        if dt < 0.05:
            self.chunk = min(self.chunk * 2, 5_000_000)
        elif dt > 0.2:
            self.chunk = max(self.chunk // 2, 1_000)


def _lead_relaxation(runs: list[_Run], relaxation: _Run | None, stage: int) -> int:
    """Give the relaxation the lead as the deal looks lost (see :func:`take_turns`): past
    each stage of :data:`~.drive.RELAXATION_LEADS` it reaches without a draw-1 win (from
    ``stage`` on), it takes that stage's turns for each of the draw-3 search's; return the
    stages reached.

    A draw-3 win is a draw-1 win, so such a deal is likely lost, and the relaxation alone is
    often the cheapest proof (2311, 3440, 3491 and reference deal 22: 3.1-4.3 M positions,
    where the first order needs 4.4-8.5 M or more). The lead costs a won deal positions only
    while its relaxation is still searching when the first order wins (a relaxation that wins
    stops). Node counts (no clock), one lead of four from 100,000 against these stages:
    numbered draw-3 deals 1-5000 247.26 -> 231.94 M positions (the lost 160.88 -> 145.01 M,
    the won 86.39 -> 86.93 M), fresh seeds 37-39 (600) 26.48 -> 23.54 M, 34-36 (600, one
    undecided at 20 M) 42.75 -> 40.65 M, 31 (200) 14.92 -> 14.81 M; no verdict changed. The
    dearest: won 2404 0.14 -> 0.27 M. A lead of 64 from 10,000 saved a little more (229.16 M,
    22.59 M) but starved the first order on won deals whose relaxation wins late (2404 1.01 M).
    """
    if relaxation is None or not relaxation.live:
        return stage
    while (
        stage < len(drive.RELAXATION_LEADS)
        and relaxation.search.nodes >= drive.RELAXATION_LEADS[stage][0]
    ):
        lead = drive.RELAXATION_LEADS[stage][1]
        stage += 1
        for run in runs:
            run.reweigh(lead if run is relaxation else 1)
    return stage


def take_turns(
    searches: list[Searcher],
    seconds: float | None,
    nodes: int | None,
    cancelled: Callable[[], bool],
    progress: Callable[[int, float], None] | None,
    started: float | None = None,
    later: Sequence[Callable[[], Search]] = (),
    finder: WinFinder | None = None,
) -> tuple[str, str, Search]:
    """Search ``searches[0]`` (a :class:`~.drive.Search`) and its draw-1 relaxation
    ``searches[1]`` (if given) in turns until one decides or the budget is spent; return
    ``(reason, proof, decider)``.

    ``reason`` is why it stopped undecided (a :class:`StopReason` value; ``""`` when decided),
    ``proof`` ``"draw-1 relaxation"`` when the relaxation was exhausted (the position is lost),
    ``"beam"`` when a beam of ``finder`` (:mod:`.finder`; they run between turns) found a win,
    else ``"search"``; ``decider`` the exact search whose result stands (``searches[0]``, or
    a later one; undecided, ``searches[0]``, whose exhaustion then proves nothing: a later order
    may still search what it skipped, as in won numbered draw-1 deal 3598 at 115,000
    positions). Turns of :data:`~.drive.TURN_NODES` positions, the draw-3 search first, then
    its relaxation (which stops once it has won or filled its table: then it can prove nothing).
    Turns count positions, so verdicts and node counts are the same on any machine and core;
    pieces of 0.1 s read clock and cancel flag often; ``seconds`` count from ``started``.

    Each of ``later`` makes another exact search of the same position in another move order
    (appended to ``searches``: :data:`~.drive.LATER_ORDERS`): they join together once
    ``searches[0]`` has searched the positions :func:`~.drive.second_order_schedule` gives and
    (draw 3) the relaxation no longer searches (it has won, or filled its table), then each
    takes one turn for each of the others' share (:func:`~.drive.join_later`). All share one
    table (:meth:`.drive.Search.share_table`): each skips what another has entered, so together
    they search the space once. A win of any is a win (its line is replayed); the deal is lost
    once all are exhausted. Depth-first search has a heavy tail on won deals (a wrong early
    choice is searched to the end), and two orders rarely share it. With one table a lost deal
    costs the two about what one alone costs (numbered 1260: 5.62 M positions). A draw-3 win
    is a draw-1 win, so while the relaxation has found none the deal is likely lost, and the
    relaxation (the cheaper proof) and the first order share the budget; the later orders
    wait. Once the relaxation has won, the first order still takes two turns for each of each
    later order's: on a lost deal that the relaxation cannot prove, only the exact searches
    prove it (numbered draw-3 deals 998 and 1010). The shares change, by positions, once a
    deal looks lost (:func:`_lead_relaxation`).
    """
    t0 = time.perf_counter() if started is None else started
    first = cast(Search, searches[0])  # (the relaxation, if any, comes second)
    after, share = drive.second_order_schedule(first.state.rules.draw)
    runs = [_Run(s, weight=share) for s in searches]
    relaxation = runs[1] if len(runs) > 1 else None
    exact = [first]
    stage = 0  # the relaxation's lead (:func:`_lead_relaxation`)
    while shared_verdict(exact) is None:
        done = sum(r.search.nodes for r in runs)
        if cancelled():
            return "cancelled", "search", first
        if seconds is not None and time.perf_counter() - t0 >= seconds:
            return "seconds", "search", first
        if nodes is not None and done >= nodes:
            return "nodes", "search", first
        if finder is not None and finder.found(drive.TURN_NODES * sum(r.turns_done for r in runs)):
            return "", "beam", first  # (whole turns: the pieces follow the clock)
        if later and first.nodes >= after and (relaxation is None or not relaxation.live):
            for run in runs:  # (the rounds counted afresh from here)
                run.reweigh(share)
            joined = drive.join_later(first, later)
            exact += joined
            searches += joined
            runs += [_Run(search) for search in joined]
            later = ()
        stage = _lead_relaxation(runs, relaxation, stage)
        live = [r for r in runs if r.live]
        if not live:  # the search filled its table (and the relaxation can prove nothing)
            return "memory", "search", first
        run = min(live, key=lambda r: (r.rounds_done, runs.index(r)))
        left = drive.TURN_NODES - run.search.nodes % drive.TURN_NODES
        run.step(left if nodes is None else min(left, nodes - done))
        if run.search not in exact and run.search.result == core.R_EXHAUSTED and run.decided:
            return "", "draw-1 relaxation", first  # (its win proves nothing)
        if progress is not None:
            progress(sum(r.search.nodes for r in runs), time.perf_counter() - t0)
    decider = shared_verdict(exact)
    return "", "search", first if decider is None else decider
