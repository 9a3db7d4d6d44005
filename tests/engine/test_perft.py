"""Perft regression counts: legal move sequences to depth 7 from pinned deals.

Counts were recorded when the engine was first checked; the generator they came from is
cross-checked here against a brute-force one (every conceivable move tried with the rules'
legality check) to a smaller depth, so they pin the rules rather than an accident.
"""

import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.moves import ALL_MOVES, apply_unchecked, why_illegal
from klondike_widget.engine.perft import perft
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState

# (deal number, draw, foundation_to_tableau): counts for depths 1..7
PERFT = {
    (1, 1, True): [4, 13, 41, 130, 428, 1372, 4242],
    (1, 1, False): [4, 13, 39, 111, 320, 886, 2223],
    (1, 3, True): [4, 13, 41, 127, 386, 1154, 3446],
    (1, 3, False): [4, 13, 39, 108, 278, 668, 1556],
    (2, 1, True): [5, 23, 104, 466, 2030, 8596, 35328],
    (2, 1, False): [5, 22, 92, 371, 1410, 5038, 16764],
    (2, 3, True): [5, 23, 100, 417, 1674, 6513, 24723],
    (2, 3, False): [5, 22, 88, 327, 1129, 3620, 10875],
    (3, 1, True): [3, 8, 20, 47, 106, 253, 628],
    (3, 1, False): [3, 8, 20, 47, 106, 253, 628],
    (3, 3, True): [3, 8, 22, 63, 172, 470, 1148],
    (3, 3, False): [3, 8, 22, 63, 172, 470, 1148],
    (7, 1, True): [2, 4, 10, 19, 42, 113, 320],
    (7, 1, False): [2, 4, 10, 19, 42, 113, 320],
    (7, 3, True): [2, 4, 8, 17, 44, 110, 317],
    (7, 3, False): [2, 4, 8, 17, 44, 110, 317],
    (42, 1, True): [4, 17, 68, 260, 916, 2801, 8088],
    (42, 1, False): [4, 17, 68, 260, 916, 2801, 8088],
    (42, 3, True): [4, 16, 57, 178, 528, 1521, 3869],
    (42, 3, False): [4, 16, 57, 178, 528, 1521, 3869],
}


@pytest.mark.parametrize(("number", "draw", "back"), list(PERFT))
def test_perft_counts(number: int, draw: int, back: bool) -> None:
    start = deal(number, Rules(draw=draw, foundation_to_tableau=back))
    assert [perft(start, depth) for depth in range(1, 8)] == PERFT[(number, draw, back)]


def brute_perft(state: GameState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(
        brute_perft(apply_unchecked(state, m), depth - 1)
        for m in ALL_MOVES
        if why_illegal(state, m) is None
    )


@pytest.mark.parametrize(("number", "draw"), [(2, 1), (2, 3), (42, 3)])
def test_perft_agrees_with_brute_force(number: int, draw: int) -> None:
    start = deal(number, Rules(draw=draw))
    assert brute_perft(start, 4) == perft(start, 4)
