"""The Klondike solver (thoughtful: it sees the face-down cards).

Public API: :func:`solve`, :func:`hint`, :func:`solve_async`, :func:`warm_up`, :class:`Limit`,
:class:`Status`, :class:`SolveResult`. Importing this package loads numpy and numba; the compiled
core is loaded from numba's on-disk cache (or compiled, the very first time) on the first search,
outside that search's time budget. Call :func:`warm_up` early to hide it.

How it works
------------
A depth-first search over compact integer arrays, compiled with numba (the ``core`` package), with:

* twin classes: positions that differ only in which of two same-rank, same-colour cards each
  placed card lies on are equally winnable, so the transposition table keys a position by its
  foundations, face-down cards, the cards lying on them (roots) and its talon, and the search
  makes one move per class (a covered card whose twin is a column top goes up in one move, its
  run moved across first); the key is symmetric in the columns;
* safe automatic foundation moves (Blake & Gent's rule for red-black building; with foundation
  cards allowed back down only its second half, as in lonelybot: "nothing can be stacked on it
  any more" is false when the cards that could be come back down, see ``core.is_safe``; from the
  waste only in draw 1, where taking a card out of the talon changes nothing else);
* stock macro moves: one edge brings any card the taps and recycles can reach to the top of the
  waste and plays it; the line is expanded back into the real taps and recycles; in draw 1 the
  stock pointer is left out of the key, in draw 3 pointers from which the taps reach the same
  cards share a key, and a position is not searched once the table holds it under a pointer
  that reaches every card its own does, nor entered; entered under such a pointer, it takes the
  row of its twin under the weaker one (``core.pointer_probe``);
* exact table keys: with twin classes the table stores the class itself (two 64-bit words, or
  one packed exactly for any position dealt, ``core.one_word``), so no hash collision can prune
  a position and a LOST is a proof (``core.table_key``);
* pruning that never loses a win: a card does not come down from a foundation when it would go
  straight back up, a move is not undone at once, in draw 1 after a talon card goes onto a
  column only a move that needs it follows, and positions where a set of cards can provably
  never leave their columns are dead ends (two more rearrangement prunings exist as options but
  are off: beside the talon one they can prune every order of a winning line, see
  ``core.DOM_ALL``);
* in draw 3, a draw-1 search of the same position shares the budget: a lost draw-1 version proves
  the draw-3 position lost (any draw-3 line is a draw-1 line); it searches as a draw-1 solve
  does, in four move orders (``relaxation.Relaxation``);
* long searches add three searches in other move orders, lonelybot's, talon first and talon last
  (after 10,000 positions in draw 1, 20,000 in draw 3); all insert into one table, so together they
  search the space once (``drive.Search.share_table``, ``drive.second_order_schedule``,
  ``drive.LATER_ORDERS``), but for the position another's first move leads to, which each may
  enter at its root (``core.enters_shared``);
* move ordering: foundation plays, moves that turn up a face-down card, talon plays (fewest taps
  first), the rest.

The engine stays the authority: every WON line is replayed through it before it is returned.

Background use
--------------
The compiled search runs in chunks and releases the GIL, so it can run in a thread while a
notebook stays responsive. :func:`solve_async` returns a ``concurrent.futures.Future``; stop it
with a ``threading.Event`` passed as ``cancel``::

    stop = threading.Event()
    future = solve_async(game, Limit(seconds=30), cancel=stop, progress=on_progress)
    future.add_done_callback(show_result)
    ...
    stop.set()  # the future then resolves to an UNKNOWN result (reason "cancelled")

>>> from klondike_widget.solver import solve, Limit, Status
>>> from klondike_widget.engine.deals import deal
>>> solve(deal(2), Limit(seconds=30)).status is Status.WON
True
"""

from __future__ import annotations

from klondike_widget.engine.outcome import StopReason, Verdict
from klondike_widget.solver.api import (
    Limit,
    SolveResult,
    Status,
    hint,
    solve,
    solve_async,
    warm_up,
)

__all__ = [
    "Limit",
    "SolveResult",
    "Status",
    "StopReason",
    "Verdict",
    "hint",
    "solve",
    "solve_async",
    "warm_up",
]
