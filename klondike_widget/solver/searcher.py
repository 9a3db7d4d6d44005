"""What the turns of a solve drive (:func:`~.turns.take_turns`) and report on
(:func:`~.api.solve`): :class:`Searcher`, met by a :class:`~.drive.Search` and by the draw-1
relaxation's two searches (:class:`~.relaxation.Relaxation`).

>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.solver.drive import Search
>>> searcher: Searcher = Search(deal(1))
>>> searcher.nodes >= 1
True
"""

from __future__ import annotations

from typing import Protocol

from klondike_widget.engine.state import GameState

__all__ = ["Searcher"]


class Searcher(Protocol):
    """A search driven in turns: a :class:`~.drive.Search`, or the two searches of a draw-3
    solve's draw-1 relaxation (:class:`~.relaxation.Relaxation`)."""

    @property
    def state(self) -> GameState:
        """The position searched."""

    @property
    def result(self) -> int:
        """The core's result code after the last step."""

    @property
    def nodes(self) -> int:
        """Positions searched so far."""

    @property
    def visits(self) -> int:
        """Children visited so far."""

    @property
    def shared(self) -> int:
        """Positions entered after the partner had entered them."""

    @property
    def overflowed(self) -> bool:
        """True if some part of the space was cut off by the stack sizes."""

    @property
    def peak_memory(self) -> int:
        """Peak bytes."""

    def step(self, max_nodes: int) -> int:
        """Search up to ``max_nodes`` more positions; return the core's result code."""
