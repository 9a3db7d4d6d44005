"""The game's clock: it starts with the first action of a game and stops when the game is won.

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> clock, game = GameClock(), Game.new(deal=2)
>>> clock.tick(game); clock.running           # no move yet: the clock waits
False
>>> game.play("s") and None; clock.tick(game); clock.running
True
>>> clock.reset(); clock.seconds(), clock.running
(0.0, False)
"""

from __future__ import annotations

import time

from klondike_widget.engine.game import Game
from klondike_widget.widget.protocol import Clock

__all__ = ["GameClock"]


class GameClock:
    """Milliseconds played, counted on the monotonic clock while the game is under way."""

    def __init__(self) -> None:
        self._ms = 0.0
        self._since: float | None = None

    @property
    def running(self) -> bool:
        """True while the clock counts."""
        return self._since is not None

    def reset(self) -> None:
        """Back to zero, stopped (a new game)."""
        self._ms, self._since = 0.0, None

    def tick(self, game: Game) -> None:
        """The game changed: start at its first action, stop at the win."""
        if game.is_won and self._since is not None:
            self._ms += (time.monotonic() - self._since) * 1000.0
            self._since = None
        elif not game.is_won and self._since is None and game.moves_count > 0:
            self._since = time.monotonic()

    def seconds(self) -> float:
        """Seconds on the clock now."""
        ms = self._ms
        if self._since is not None:
            ms += (time.monotonic() - self._since) * 1000.0
        return ms / 1000.0

    def view(self) -> Clock:
        """``view["clock"]``: the milliseconds now, the epoch-ms they were read at, running."""
        return {
            "ms": round(self.seconds() * 1000.0),
            "at": round(time.time() * 1000),
            "run": self.running,
        }
