"""Run lonelybot, an outside exhaustive Klondike solver, on a fresh deal (benchmarks only).

lonelybot (github vuonghy2442/lonelybot, Rust) is never a dependency of the project and is never
downloaded by it: ``benchmarks/solver.py --lonelybot PATH`` takes a binary built by hand, the
small ``lonely_anchor`` CLI of ``../shared/anchors`` (``build-lonelybot.sh``), which is called as
``lonely_anchor solve DRAW C0,C1,...,C51`` and prints ``result: solved|unsolvable|...``,
``visits: N`` (states searched) and ``ms: F`` lines.

Its rules: thoughtful Klondike, draw 1 or 3, unlimited recycling, foundation cards may always go
back to a column, and only a fresh deal (seven columns of 1..7 cards, only their top face up, 24
cards in the stock, empty waste and foundations). Solve ours with the same rules to compare.

>>> from klondike_widget.engine.deals import deal
>>> codes = deck_codes(deal(1))
>>> sorted(codes) == list(range(52)), codes[0]
(True, 35)
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

from klondike_widget.engine.cards import CARD_RANK, CARD_SUIT
from klondike_widget.engine.state import GameState

#: Our suit (clubs, diamonds, hearts, spades) -> lonelybot's (hearts 0, diamonds 1, clubs 2,
#: spades 3; 0 and 1 are one colour, 2 and 3 the other).
LONELYBOT_SUIT = (2, 1, 0, 3)

_VERDICT = {"solved": "won", "unsolvable": "lost"}


class NotFreshDealError(ValueError):
    """lonelybot only takes a fresh deal."""


@dataclass(frozen=True)
class AnchorResult:
    """One lonelybot run.

    ``status`` is ``"won"``, ``"lost"``, ``"unknown"`` (stopped at the time limit) or ``"error"``;
    ``seconds`` the process's wall time (start-up included), ``cpu_seconds`` its user + system
    CPU time (from ``os.wait4``), ``own_seconds`` the search's time by its own clock and
    ``states`` the states it visited (both ``None`` when killed before reporting), ``raw`` its
    output. (Its peak memory is not measured: a child's ``ru_maxrss`` starts from the forking
    parent's.)
    """

    status: str
    seconds: float
    cpu_seconds: float
    own_seconds: float | None
    states: int | None
    raw: str


def deck_codes(state: GameState) -> list[int]:
    """lonelybot's deck for a fresh deal: ``rank * 4 + suit`` codes (see :data:`LONELYBOT_SUIT`).

    The seven columns bottom to top, shortest first (column ``i`` of lonelybot has ``i + 1``
    cards), then the 24 stock cards, the next one a tap turns over first.

    Raises
    ------
    NotFreshDealError
        If ``state`` is not a fresh deal.
    """
    lengths = sorted(len(col) for col in state.columns)
    fresh = (
        lengths == list(range(1, 8))
        and not state.waste
        and not any(state.foundations)
        and len(state.stock) == 24
        and all(d == len(c) - 1 for c, d in zip(state.columns, state.face_down, strict=True))
    )
    if not fresh:
        raise NotFreshDealError("lonelybot only takes a fresh deal")
    columns = sorted(state.columns, key=len)
    cards = [c for col in columns for c in col] + list(reversed(state.stock))
    return [CARD_RANK[c] * 4 + LONELYBOT_SUIT[CARD_SUIT[c]] for c in cards]


def parse_output(text: str) -> tuple[str | None, int | None, float | None]:
    """The ``result:`` word, ``visits:`` count and ``ms:`` (as seconds) of lonelybot's output.

    ``None`` for what is absent.

    >>> parse_output("result: solved\\nvisits: 512\\nunique: 300\\nms: 1.5\\n")
    ('solved', 512, 0.0015)
    >>> parse_output("")
    (None, None, None)
    """
    result = re.search(r"^result:\s*(\S+)", text, re.M)
    visits = re.search(r"^visits:\s*(\d+)", text, re.M)
    ms = re.search(r"^ms:\s*([0-9.]+)", text, re.M)
    return (
        result.group(1) if result else None,
        int(visits.group(1)) if visits else None,
        float(ms.group(1)) / 1e3 if ms else None,
    )


def solve(binary: str, state: GameState, seconds: float) -> AnchorResult:
    """Run lonelybot on the fresh deal ``state`` (its draw mode), killed after ``seconds``.

    The child's own resource usage (``os.wait4``) gives its CPU time.
    """
    codes = deck_codes(state)
    cmd = [binary, "solve", str(state.rules.draw), ",".join(map(str, codes))]
    killed = threading.Event()

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )

    def kill() -> None:
        killed.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    timer = threading.Timer(seconds, kill)
    timer.start()
    try:
        _, wait_status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(wait_status)
    assert proc.stdout is not None
    raw = proc.stdout.read()
    proc.stdout.close()
    word, states, own_seconds = parse_output(raw)
    if killed.is_set():
        status = "unknown"
    elif proc.returncode == 0 and word in _VERDICT:
        status = _VERDICT[word]
    else:
        status = "error"
    return AnchorResult(
        status=status,
        seconds=wall,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        own_seconds=own_seconds,
        states=states,
        raw=raw.strip(),
    )
