"""Rule variants as data.

>>> Rules()
Rules(draw=1, foundation_to_tableau=True)
>>> Rules(draw=3).draw
3
>>> Rules(draw=2)
Traceback (most recent call last):
...
ValueError: draw must be 1 or 3, not 2
>>> Rules(draw=3.0)
Traceback (most recent call last):
...
ValueError: draw must be 1 or 3, not 3.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from klondike_widget.engine.errors import as_whole, quote

__all__ = ["NUM_COLUMNS", "Rules"]

#: The tableau's columns: seven in every variant (not a rule option).
NUM_COLUMNS = 7


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of a game of Klondike.

    Parameters
    ----------
    draw : int
        Cards turned by one stock tap: 1 or 3. Recycling the waste is always unlimited.
    foundation_to_tableau : bool
        Whether a foundation's top card may move back onto a column (allowed by default; the
        winnability studies also solve with it forbidden).
    """

    draw: int = 1
    foundation_to_tableau: bool = True

    def __post_init__(self) -> None:
        # A bool or a float is not a draw mode: 3.0 would break slicing the stock later.
        draw = as_whole(self.draw)  # np.int64(3) counts and is kept as 3
        if draw not in (1, 3):
            raise ValueError(f"draw must be 1 or 3, not {quote(self.draw)}")
        object.__setattr__(self, "draw", draw)
        if not isinstance(self.foundation_to_tableau, bool):
            raise ValueError(
                "foundation_to_tableau must be True or False, "
                f"not {quote(self.foundation_to_tableau)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form.

        >>> Rules(draw=3).to_dict()
        {'draw': 3, 'foundation_to_tableau': True}
        """
        return {"draw": self.draw, "foundation_to_tableau": self.foundation_to_tableau}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Inverse of :meth:`to_dict`; raises ``ValueError`` on anything malformed.

        >>> Rules.from_dict({"draw": 3, "foundation_to_tableau": False})
        Rules(draw=3, foundation_to_tableau=False)
        """
        if not isinstance(data, dict) or set(data) != {"draw", "foundation_to_tableau"}:
            raise ValueError(
                "rules must be an object with keys 'draw' and 'foundation_to_tableau', "
                f"not {quote(data)}"
            )
        return cls(draw=data["draw"], foundation_to_tableau=data["foundation_to_tableau"])
