"""Tests of the dead-end test (``core.is_dead``, switch ``core.DOM_DEAD_ENDS``) with talon cards.

* numbered deal 64, which the test decides at the root only through its talon cards (in both
  draw modes); the search without the test loses it too, in some 100,000 positions or more;
* random endgames (deadlocks likely, some talon cards): every one the test calls dead is lost
  by the brute force of ``tests/solver/fuzz_cases.py`` (no solver code).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from solver_helpers import brute_force, random_endgame

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core
from klondike_widget.solver.api import Search
from klondike_widget.solver.bridge import encode_state


def _search(number: int, draw: int, dominances: int = core.DOM_ALL) -> Search:
    search = Search(deal(number, Rules(draw, True)), dominances=dominances)
    while search.result not in (core.R_WON, core.R_EXHAUSTED):
        search.step(1_000_000)
    return search


@pytest.mark.parametrize("draw", [1, 3])
def test_a_deal_lost_at_the_root_through_its_talon(draw: int) -> None:
    """Lost in one position; without the test the search needs many to lose it."""
    search = _search(64, draw)
    assert search.result == core.R_EXHAUSTED and search.nodes == 1
    without = _search(64, draw, core.DOM_ALL & ~core.DOM_DEAD_ENDS)
    assert without.result == core.R_EXHAUSTED and without.nodes > 10_000, without.nodes


def test_every_dead_endgame_is_lost_by_brute_force() -> None:
    """Random endgames of 10-16 cards off the foundations, both draw modes and both rules."""
    rng = random.Random(14)
    scratch = np.zeros(core.SCR_SIZE, dtype=np.int32)
    dead = with_talon = 0
    for i in range(600):
        state = random_endgame(rng, rng.randint(10, 16), 1 + 2 * (i % 2), i % 4 < 2)
        if not core.is_dead(encode_state(state), scratch):
            continue
        assert brute_force(state, 200_000) is False, state
        dead += 1
        with_talon += bool(state.stock or state.waste)
    assert dead >= 25 and with_talon >= 20, (dead, with_talon)
