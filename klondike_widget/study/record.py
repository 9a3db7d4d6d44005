"""One deal's outcome in a winnability study: the row of a result file.

>>> r = DealResult(7, 1, "lost", 0.25, 1000, 0, None, None, None)
>>> DealResult.from_fields(r.csv_fields()) == r
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from klondike_widget.engine.errors import quote
from klondike_widget.engine.outcome import Verdict

__all__ = ["COLUMNS", "VERDICTS", "DealResult"]

#: The verdict words of a result file (the values of the Verdict enum).
VERDICTS = tuple(v.value for v in Verdict)
COLUMNS = (
    "deal",
    "draw",
    "verdict",
    "seconds",
    "nodes",
    "line_length",
    "verdict_no_f2t",
    "seconds_no_f2t",
    "nodes_no_f2t",
)


@dataclass(frozen=True)
class DealResult:
    """The outcome of one deal (one row of a result file).

    ``line_length`` is the number of engine moves (stock taps and recycles included) of the winning
    line, 0 unless won. The ``*_no_f2t`` fields are the check with foundation-to-column moves
    forbidden, run only on won deals (``None`` otherwise); when the winning line already uses no
    such move, the check is settled by that line without a second search (0 seconds, 0 nodes).
    """

    deal: int
    draw: int
    verdict: str
    seconds: float
    nodes: int
    line_length: int
    verdict_no_f2t: str | None
    seconds_no_f2t: float | None
    nodes_no_f2t: int | None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, not {quote(self.verdict)}")
        if self.verdict_no_f2t not in (None, *VERDICTS):
            raise ValueError(f"verdict_no_f2t must be one of {VERDICTS} or empty")
        # The check without foundation-to-column moves is all there (a won deal, checked) or
        # all absent: a row with only some of its three fields is a write cut short.
        check = (self.verdict_no_f2t, self.seconds_no_f2t, self.nodes_no_f2t)
        if any(v is None for v in check) and any(v is not None for v in check):
            raise ValueError("verdict_no_f2t, seconds_no_f2t and nodes_no_f2t: all or none")
        if self.verdict_no_f2t is not None and self.verdict != "won":
            raise ValueError("verdict_no_f2t is only recorded for a won deal")

    def csv_fields(self) -> list[str]:
        """The row's fields as CSV text (``None`` as an empty field)."""
        out = []
        for name in COLUMNS:
            value = getattr(self, name)
            if value is None:
                out.append("")
            elif isinstance(value, float):
                out.append(f"{value:.6f}")
            else:
                out.append(str(value))
        return out

    @classmethod
    def from_fields(cls, fields: Sequence[str]) -> DealResult:
        """Inverse of :meth:`csv_fields`; raises ``ValueError`` on anything malformed."""
        if len(fields) != len(COLUMNS):
            raise ValueError(f"expected {len(COLUMNS)} fields, found {len(fields)}")
        f = dict(zip(COLUMNS, fields, strict=True))

        def opt(name: str, kind: type[Any]) -> Any:
            return None if f[name] == "" else kind(f[name])

        return cls(
            deal=int(f["deal"]),
            draw=int(f["draw"]),
            verdict=f["verdict"],
            seconds=float(f["seconds"]),
            nodes=int(f["nodes"]),
            line_length=int(f["line_length"]),
            verdict_no_f2t=opt("verdict_no_f2t", str),
            seconds_no_f2t=opt("seconds_no_f2t", float),
            nodes_no_f2t=opt("nodes_no_f2t", int),
        )
