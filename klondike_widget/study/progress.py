"""Progress of a running study on stderr: done/total, running win rate, time left.

Uses tqdm when it is installed, else a compact line of its own rewritten in place.

>>> import io
>>> out = io.StringIO()
>>> p = Progress(total=4, stream=out, use_tqdm=False)
>>> p.update("won"); p.update("lost"); p.close()
>>> out.getvalue().split("\\r")[-1].split(" eta")[0]
'2/4 deals  win 50.0% (1 won, 1 lost, 0 unknown)'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import Any, TextIO

__all__ = ["Progress", "win_rate_text"]


def win_rate_text(won: int, lost: int, unknown: int) -> str:
    """The running win rate as shown in the progress line.

    >>> win_rate_text(3, 1, 1)
    'win 60.0% (3 won, 1 lost, 1 unknown)'
    >>> win_rate_text(0, 0, 0)
    'win -'
    """
    n = won + lost + unknown
    if n == 0:
        return "win -"
    return f"win {100.0 * won / n:.1f}% ({won} won, {lost} lost, {unknown} unknown)"


class Progress:
    """A progress display over ``total`` deals still to solve in this run.

    ``earlier`` are the verdicts of deals finished by earlier runs of a resumed study: they count
    in the win rate shown, not in the deals to go.
    """

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        use_tqdm: bool | None = None,
        enabled: bool = True,
        earlier: Iterable[str] = (),
    ) -> None:
        self.total = total
        self.counts = {"won": 0, "lost": 0, "unknown": 0}
        self.rate_counts = dict(self.counts)
        for verdict in earlier:
            self.rate_counts[verdict] += 1
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self._start = time.monotonic()
        self._bar: Any = None
        if enabled and use_tqdm is not False:
            try:
                from tqdm import tqdm
            except ImportError:
                if use_tqdm:
                    raise
            else:
                self._bar = tqdm(
                    total=total, unit="deal", file=self.stream, dynamic_ncols=True, smoothing=0.05
                )

    @property
    def done(self) -> int:
        """Deals finished in this run."""
        return sum(self.counts.values())

    def update(self, verdict: str) -> None:
        """Count one finished deal."""
        self.counts[verdict] += 1
        self.rate_counts[verdict] += 1
        if not self.enabled:
            return
        c = self.rate_counts
        rate = win_rate_text(c["won"], c["lost"], c["unknown"])
        if self._bar is not None:
            self._bar.set_postfix_str(rate, refresh=False)
            self._bar.update(1)
            return
        elapsed = time.monotonic() - self._start
        left = elapsed / self.done * (self.total - self.done)
        self.stream.write(
            f"\r{self.done}/{self.total} deals  {rate} eta {_clock(left)} elapsed {_clock(elapsed)}"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the display (a newline after the own line)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()
        self.enabled = False


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
