"""Tests of the draw-3 deck rule: no recycle-only talon card while the last one is safe.

``core.last_talon_card_first`` (bit 64 of ``core.O_DOM``, beside the last card going up
automatically): when the last talon card is next on its foundation and safe and the pointer is
not one that reaches what pointer 0 reaches, :func:`core.gen_abstract` generates only the
forward talon cards. These tests check that the rule fires, removes only recycle-only cards,
keeps every verdict against brute force over the engine, and keeps the win of positions that a
version without the safety test or without the "next on its foundation" test loses.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from klondike_widget.engine.notation import state_from_dict
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, Status, core, solve
from klondike_widget.solver.bridge import encode_state

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_cases import talon_case
from solver_helpers import brute_force, decide

LAST_TALON_CARD = 64


#: Won positions whose win needs a talon card that only a recycle reaches, while the last talon
#: card is not both next and safe (found by brute force: every child the over-eager rule keeps
#: at the root is lost). The first three fail the "next on its foundation" test, the last one
#: (Q♥ last, next but not safe: J♠ needs it on a column) only the safety test.
TRAPS: list[dict[str, Any]] = [
    {
        "rules": {"draw": 3, "foundation_to_tableau": False},
        "columns": [["Qs", "Jc"], [], [], [], [], [], []],
        "face_down": [0] * 7,
        "stock": ["Qc", "Tc"],
        "waste": ["Ks", "Kc"],
        "foundations": {"c": 9, "d": 13, "h": 13, "s": 11},
    },
    {
        "rules": {"draw": 3, "foundation_to_tableau": False},
        "columns": [[], [], [], [], [], [], []],
        "face_down": [0] * 7,
        "stock": ["Tc", "9c", "Qc"],
        "waste": ["Kc", "Ks", "Jc", "Kh"],
        "foundations": {"c": 8, "d": 13, "h": 12, "s": 12},
    },
    {
        "rules": {"draw": 3, "foundation_to_tableau": False},
        "columns": [["Ks", "Js"], [], [], ["Kd", "Qs", "Qc"], [], [], []],
        "face_down": [0, 0, 0, 1, 0, 0, 0],
        "stock": ["Ts", "Kc", "9s"],
        "waste": ["Jc"],
        "foundations": {"c": 10, "d": 12, "h": 13, "s": 8},
    },
    {
        "rules": {"draw": 3, "foundation_to_tableau": False},
        "columns": [["Ts", "Js"], [], [], [], [], [], []],
        "face_down": [0] * 7,
        "stock": ["Qh"],
        "waste": ["Kc", "Ks", "Kh", "Qs"],
        "foundations": {"c": 12, "d": 13, "h": 11, "s": 9},
    },
]


def _encoded(state: GameState) -> np.ndarray:
    return encode_state(state, dominances=core.DOM_ALL)


def _talon_indices(S: np.ndarray) -> set[int]:
    """Talon indices of the talon moves the search generates for ``S``."""
    out = np.zeros(core.MAXM, dtype=np.int32)
    n = core.gen_moves(S, out, np.zeros(core.SCR_SIZE, dtype=np.int32), True)
    kinds = (core.K_TAL_COL, core.K_TAL_FND)
    return {int(core.move_src(int(m))) for m in out[:n] if core.move_kind(int(m)) in kinds}


def _forward_and_all(S: np.ndarray) -> tuple[set[int], set[int]]:
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    tn = int(S[core.O_TN])
    core.reachable_talon(S, mark, False)
    forward = {i for i in range(tn) if mark[i]}
    core.reachable_talon(S, mark, True)
    return forward, {i for i in range(tn) if mark[i]}


@pytest.mark.parametrize("index", range(len(TRAPS)))
def test_traps_of_an_over_eager_rule_stay_won(index: int) -> None:
    state = state_from_dict(TRAPS[index])
    S = _encoded(state)
    last = int(S[core.O_TAL + S[core.O_TN] - 1])
    next_up = S[core.O_FND + last // 13] == last % 13
    assert core.key_pointer(S) != 0 and not (next_up and core.is_safe(S, last))
    forward, reachable = _forward_and_all(S)
    assert reachable - forward, "the win needs a recycle-only card"
    assert brute_force(state, 200_000) is True
    assert solve(state, Limit(seconds=None, nodes=100_000)).status is Status.WON


def _fired_cases(count: int, seed: int) -> list[GameState]:
    """Draw-3 talon positions where the rule fires and drops at least one reachable card."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        state = talon_case(rng, Rules(3, rng.random() < 0.5))
        S = _encoded(state)
        if core.last_talon_card_first(S):
            forward, reachable = _forward_and_all(S)
            if reachable - forward:
                out.append(state)
    return out


def test_rule_drops_only_recycle_only_cards() -> None:
    dropped = 0
    for state in _fired_cases(40, 7):
        S = _encoded(state)
        forward, _ = _forward_and_all(S)
        generated = _talon_indices(S)
        assert generated <= forward
        assert int(S[core.O_TN]) - 1 in generated  # the last card, to its foundation
        S[core.O_DOM] &= ~LAST_TALON_CARD
        assert not core.last_talon_card_first(S)
        without = _talon_indices(S)
        assert without & forward == generated
        dropped += bool(without - forward)  # a recycle-only card with a play came back
    assert dropped >= 10, dropped


def test_rule_keeps_every_verdict_against_brute_force() -> None:
    """The rule only removes moves, so it can only lose wins (a win's line is replayed): the
    positions where it fires are nearly all won, and each must stay so."""
    verdicts = {True: 0, False: 0}
    for state in _fired_cases(80, 2027):
        truth = brute_force(state, 100_000)
        if truth is None:
            continue
        result = decide(state, core.DOM_ALL, 200_000)
        assert result == (core.R_WON if truth else core.R_EXHAUSTED), state
        verdicts[truth] += 1
    assert verdicts[True] >= 60, verdicts
