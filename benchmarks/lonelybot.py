"""Run lonelybot, an outside exhaustive Klondike solver, on a fresh deal (benchmarks only).

lonelybot (github vuonghy2442/lonelybot, Rust) is never a dependency of the project and is never
downloaded by it: ``benchmarks/solver.py --lonelybot PATH`` takes a binary built by hand, the
small ``lonely_anchor`` CLI of ``../shared/anchors`` (``build-lonelybot.sh``), which is called as
``lonely_anchor solve DRAW C0,C1,...,C51`` and prints ``result: solved|unsolvable|...``,
``visits: N`` (states visited, transposition-table hits included), ``unique: N`` (states
expanded: the same count as our nodes, positions new to the table) and ``ms: F`` lines.

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
import math
import os
import re
import resource
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
    CPU time (from ``os.wait4``), ``own_seconds`` the search's time by its own clock,
    ``states`` the states it visited and ``unique`` those it expanded (these three ``None`` when
    killed before reporting), ``raw`` its output. (Its peak memory is not measured: a child's
    ``ru_maxrss`` starts from the forking parent's.)
    """

    status: str
    seconds: float
    cpu_seconds: float
    own_seconds: float | None
    states: int | None
    unique: int | None
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


def parse_output(text: str) -> dict[str, str]:
    """The ``result``, ``visits``, ``unique`` and ``ms`` fields of lonelybot's output.

    >>> parse_output("result: solved\\nvisits: 512\\nunique: 300\\nmoves: 90\\nms: 1.5\\n")
    {'result': 'solved', 'visits': '512', 'unique': '300', 'ms': '1.5'}
    >>> parse_output("thread panicked")
    {}
    """
    return dict(re.findall(r"^(result|visits|unique|ms):[ \t]*(\S+)", text, re.M))


def solve(binary: str, state: GameState, seconds: float, clock: str = "wall") -> AnchorResult:
    """Run lonelybot on the fresh deal ``state`` (its draw mode), stopped after ``seconds``.

    ``clock`` ``"wall"``: killed after ``seconds`` of wall time; ``"cpu"``: after ``seconds`` of
    its own CPU time (``RLIMIT_CPU``, whole seconds, rounded up; a wall-clock guard of ten times
    as long, at least a minute, stops a starved run). The child's own resource usage
    (``os.wait4``) gives its CPU time.
    """
    codes = deck_codes(state)
    cmd = [binary, "solve", str(state.rules.draw), ",".join(map(str, codes))]
    killed = threading.Event()
    cpu_limit = math.ceil(seconds)

    def limit_cpu() -> None:  # in the child, before exec
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=limit_cpu if clock == "cpu" else None,
    )

    def kill() -> None:
        killed.set()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)

    timer = threading.Timer(seconds if clock == "wall" else max(10 * seconds, 60.0), kill)
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
    fields = parse_output(raw)
    word = fields.get("result")
    over_cpu = os.WIFSIGNALED(wait_status) and os.WTERMSIG(wait_status) in (
        signal.SIGXCPU,
        signal.SIGKILL,
    )
    if killed.is_set() or (clock == "cpu" and over_cpu):
        status = "unknown"
    elif proc.returncode == 0 and word in _VERDICT:
        status = _VERDICT[word]
    else:
        status = "error"
    return AnchorResult(
        status=status,
        seconds=wall,
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        own_seconds=float(fields["ms"]) / 1e3 if "ms" in fields else None,
        states=int(fields["visits"]) if "visits" in fields else None,
        unique=int(fields["unique"]) if "unique" in fields else None,
        raw=raw.strip(),
    )
