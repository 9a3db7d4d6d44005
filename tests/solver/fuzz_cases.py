"""Positions for the solver's differential fuzzer, and the brute force it is checked against.

Shared by ``benchmarks/fuzz_solver.py`` (the long run) and ``tests/solver/test_solver_soundness.py``
(a fixed-seed sample). Nothing here imports the solver: :func:`brute_force` is a plain
visited-set depth-first search over the engine's own legal moves, so it shares no code with
what it checks. The positions are sized (few cards off the foundations) to keep it feasible.

Categories (:data:`CATEGORIES`):

* ``dealt``: the cards left, dealt into the columns in any order, face-down counts at random,
  foundations at any heights, some cards in the stock and waste with the pointer anywhere;
* ``kings``: several Kings and high cards face down in one column (the shape of issue 13's
  reproductions), the rest dealt as above, empty columns likely;
* ``talon``: most of the cards left in the stock and waste, the pointer anywhere;
* ``played``: endgames reached from real deals along a winning line, then random legal moves
  (detours: taps, recycles, cards back down from the foundations...).

Every position is given a draw mode, a foundation-to-column rule and, for a quarter of them,
the solver's ``foundation_to_tableau`` override flipped (the brute force then searches under
the flipped rules).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from klondike_widget.engine.cards import KING, RANKS
from klondike_widget.engine.moves import Move, apply_unchecked, generate_moves
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState

CATEGORIES = ("dealt", "kings", "talon", "played")

#: A winning line from a real deal: the start and its moves (``played`` positions follow it).
Line = tuple[GameState, Sequence[Move]]


@dataclass(frozen=True)
class Case:
    """One fuzzer position: the position, its category and the override the solver gets."""

    state: GameState
    category: str
    override: bool | None  # the solver's foundation_to_tableau argument

    @property
    def searched(self) -> GameState:
        """The position under the rules that are actually searched (override applied)."""
        if self.override is None:
            return self.state
        return self.state.replace(rules=Rules(self.state.rules.draw, self.override))


def position_key(s: GameState) -> tuple[object, ...]:
    """A position for a visited set: its columns as a sorted multiset (their order cannot
    matter for winnability), its talon and its foundations."""
    return (
        tuple(sorted(zip(s.columns, s.face_down, strict=True))),
        s.stock,
        s.waste,
        s.foundations,
    )


def brute_force(
    state: GameState, max_states: int = 100_000, *, breadth_first: bool = False
) -> bool | None:
    """Decide ``state``: a plain visited-set search over the engine's legal moves.

    Returns True (a won position is reachable), False (none is) or None (more than
    ``max_states`` positions reached: undecided). The visited set keys a position by
    :func:`position_key`. Depth first (the default), the moves are tried in the engine's order
    (foundation plays first), which finds most wins early; ``breadth_first`` searches level by
    level instead. No other reduction: every legal move of every position is tried.

    >>> from klondike_widget.state import GameState
    >>> brute_force(GameState([[51]] + [[]] * 6, [0] * 7, (), (), (13, 13, 13, 12)))
    True
    """
    seen = {position_key(state)}
    todo = deque([state])
    while todo:
        s = todo.popleft() if breadth_first else todo.pop()
        if s.is_won:
            return True
        moves = list(generate_moves(s))
        for move in moves if breadth_first else reversed(moves):
            t = apply_unchecked(s, move)
            k = position_key(t)
            if k not in seen:
                if len(seen) >= max_states:
                    return None
                seen.add(k)
                todo.append(t)
    return False


def heights_leaving(rng: random.Random, left: int) -> tuple[list[int], list[int]]:
    """Foundation heights with ``left`` cards off them (taken from random suits' tops)."""
    heights = [RANKS] * 4
    remaining: list[int] = []
    while len(remaining) < left:
        suit = rng.randrange(4)
        if heights[suit] == 0:
            continue
        heights[suit] -= 1
        remaining.append(suit * RANKS + heights[suit])
    return heights, remaining


def _deal_columns(
    rng: random.Random, cards: list[int], columns: list[list[int]], used: int
) -> list[int]:
    """Deal ``cards`` in the given order onto ``used`` random columns; return face-down counts."""
    targets = rng.sample(range(7), used)
    for card in cards:
        columns[rng.choice(targets)].append(card)
    return [rng.randrange(len(col)) if col else 0 for col in columns]


def _talon(rng: random.Random, cards: list[int]) -> tuple[list[int], list[int]]:
    """Split talon ``cards`` into stock and waste: the pointer anywhere."""
    cut = rng.randint(0, len(cards))
    return cards[:cut], cards[cut:]


def dealt_case(rng: random.Random, rules: Rules) -> GameState:
    """The cards left (5..11) dealt into the columns in any order, a few into the talon."""
    heights, remaining = heights_leaving(rng, rng.randint(5, 11))
    rng.shuffle(remaining)
    if rng.random() < 0.5:  # high cards first: low ones end up on top of them, deadlocks likely
        remaining.sort(key=lambda c: -(c % RANKS) + rng.random() * 4)
    n_talon = rng.choice((0, 0, 1, 2, 3))
    stock, waste = _talon(rng, remaining[:n_talon])
    rest = remaining[n_talon:]
    columns: list[list[int]] = [[] for _ in range(7)]
    face_down = _deal_columns(rng, rest, columns, rng.randint(1, min(4, len(rest))))
    return GameState(columns, face_down, stock, waste, heights, rules)


def kings_case(rng: random.Random, rules: Rules) -> GameState:
    """Several Kings and high cards face down in one column, foundations nearly full."""
    heights = [RANKS] * 4
    remaining: list[int] = []
    for suit in rng.sample(range(4), rng.randint(2, 4)):
        drop = rng.choice((1, 1, 2, 2, 3, 5, 7))
        heights[suit] = RANKS - drop
        remaining.extend(suit * RANKS + r for r in range(heights[suit], RANKS))
    while len(remaining) > 11:  # keep it small: put the lowest cards back up
        low = min(remaining, key=lambda c: c % RANKS)
        if low % RANKS != heights[low // RANKS]:
            break
        remaining.remove(low)
        heights[low // RANKS] += 1
    high = [c for c in remaining if c % RANKS >= KING - 2]
    rng.shuffle(high)
    buried = high[: rng.randint(2, max(2, min(4, len(high))))]
    rest = [c for c in remaining if c not in buried]
    rng.shuffle(rest)
    columns: list[list[int]] = [[] for _ in range(7)]
    col = rng.randrange(7)
    columns[col] = list(buried)
    n_talon = rng.choice((0, 0, 0, 1, 2))
    stock, waste = _talon(rng, rest[:n_talon])
    rest = rest[n_talon:]
    on_top = rest[: rng.randint(1, max(1, min(2, len(rest))))] if rest else []
    columns[col].extend(on_top)
    if not on_top:  # the column needs a face-up top card: turn the last buried card up
        columns[col].append(columns[col].pop())
    face_down = [0] * 7
    others = rest[len(on_top) :]
    if others:
        face_down = _deal_columns(rng, others, columns, rng.randint(1, 3))
        face_down[col] = 0
    face_down[col] = len(columns[col]) - len(on_top) if on_top else len(columns[col]) - 1
    return GameState(columns, face_down, stock, waste, heights, rules)


def talon_case(rng: random.Random, rules: Rules) -> GameState:
    """Most cards left in the stock and waste, the pointer anywhere, a few in columns."""
    heights, remaining = heights_leaving(rng, rng.randint(5, 9))
    rng.shuffle(remaining)
    n_talon = rng.randint(3, min(7, len(remaining)))
    stock, waste = _talon(rng, remaining[:n_talon])
    rest = remaining[n_talon:]
    columns: list[list[int]] = [[] for _ in range(7)]
    face_down = [0] * 7
    if rest:
        face_down = _deal_columns(rng, rest, columns, rng.randint(1, min(3, len(rest))))
    return GameState(columns, face_down, stock, waste, heights, rules)


def played_case(rng: random.Random, rules: Rules, lines: Sequence[Line]) -> GameState:
    """An endgame along a real deal's winning line, then up to 30 random legal moves."""
    start, moves = rng.choice(lines)
    left = rng.randint(8, 16)
    state = start
    for move in moves:
        if 52 - state.cards_on_foundations <= left:
            break
        state = apply_unchecked(state, move)
    for _ in range(rng.randint(0, 30)):
        legal = list(generate_moves(state))
        if not legal:
            break
        state = apply_unchecked(state, rng.choice(legal))
    return state.replace(rules=rules)


def make_case(seed: int, index: int, lines: dict[int, Sequence[Line]]) -> Case:
    """Case ``index`` of the run with ``seed``: always the same position for the same pair.

    ``lines`` maps a draw mode to winning lines of real deals under that draw mode.
    """
    rng = random.Random(f"klondike-fuzz:{seed}:{index}")
    category = CATEGORIES[index % len(CATEGORIES)]
    rules = Rules(draw=rng.choice((1, 3)), foundation_to_tableau=rng.random() < 0.5)
    if category == "dealt":
        state = dealt_case(rng, rules)
    elif category == "kings":
        state = kings_case(rng, rules)
    elif category == "talon":
        state = talon_case(rng, rules)
    else:
        state = played_case(rng, rules, lines[rules.draw])
    override = (not state.rules.foundation_to_tableau) if rng.random() < 0.25 else None
    return Case(state, category, override)
