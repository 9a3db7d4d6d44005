"""``core.autos_may_follow``: the one rule, read off the parent, for whether an automatic move
may follow a move (the search's ``play`` and ``quiet_key`` both ask it).

* Against the child, for every move the search generates in mid-game positions (``ALW_BACK_UP``
  on): where the rule says no, the child has no automatic move; and it says no exactly when
  the child shows no new card next and safe on its foundation where one could be (the card a
  run uncovers, a draw-3 talon play's card and the talon's new last card). Catches reading the
  run's own bottom card instead of the uncovered one, a rule that forgets the talon's new
  last card, and one that reads ``T[n - 1]`` whatever the index (each fails the soundness
  assert, an automatic move where the rule says none, even without the comparison), and
  ``True`` for every run (the comparison).
* A draw-3 play of the talon's last card, which leaves an Ace last (the index shift). Catches
  the last two talon mutants above.
* With ``ALW_BACK_UP`` off, a safe card left on a column. Catches a rule without the
  ``ALW_BACK_UP`` test.

(Each mutant checked by applying it to ``autos_may_follow``.)
"""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import midgame_positions

from klondike_widget.solver import core
from klondike_widget.solver.bridge import encode_state


def _goes_up(S: np.ndarray, card: int) -> bool:
    """``card`` is next on its foundation and safe there."""
    return bool(core.is_next(S, card) and core.is_safe(S, card))


def _new_card_next(S: np.ndarray, m: int) -> bool:
    """On the child of move ``m``: whether a card the move may have made playable is next on
    its foundation and safe there (any move but a foundation-to-column move, a run between
    columns or a talon play counts as one that may have)."""
    kind = core.move_kind(m)
    if kind == core.K_FND_COL or (kind == core.K_TAL_COL and S[core.O_DRAW] == 1):
        return False
    if kind == core.K_COL_COL:
        src = core.move_src(m)
        top = S[core.O_LEN + src]
        return top > 0 and _goes_up(S, S[core.O_COLS + src * core.CAP + top - 1])
    if kind == core.K_TAL_COL:
        tal = S[core.O_TAL : core.O_TAL + S[core.O_TN]]
        return any(_goes_up(S, int(c)) for c in (core.move_card(m), *tal[-1:]))
    return True


@pytest.mark.parametrize(("draw", "f2t"), [(1, True), (3, True), (3, False)])
def test_the_rule_against_the_child(draw: int, f2t: bool) -> None:
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    AUM = np.zeros(64, dtype=np.int32)
    AUU = np.zeros(64, dtype=np.int64)
    said = {(kind, may): 0 for kind in (core.K_COL_COL, core.K_TAL_COL) for may in (0, 1)}
    for state in midgame_positions(800, seed=47, draw=draw, steps=100):
        S = encode_state(state, foundation_to_tableau=f2t)
        core.compute_hashes(S, H)
        core.apply_autos(S, H, AUM, AUU, 0)  # as in the search: none left
        n = core.gen_moves(S, out, mark, True)
        for m in (int(code) for code in out[:n]):
            may = bool(core.autos_may_follow(S, m))
            u = core.do_move(S, H, m)
            assert may == _new_card_next(S, m), (state, m)
            top = core.apply_autos(S, H, AUM, AUU, 0)
            assert may or top == 0, (state, m)
            while top > 0:
                top -= 1
                core.undo_move(S, H, int(AUM[top]), int(AUU[top]))
            core.undo_move(S, H, m, u)
            if core.move_kind(m) in (core.K_COL_COL, core.K_TAL_COL):
                said[core.move_kind(m), int(may)] += 1
    assert said[core.K_COL_COL, 0] > 40 and said[core.K_COL_COL, 1] > 5, said
    assert said[core.K_TAL_COL, 0] > 50, said
    if draw == 3:
        assert said[core.K_TAL_COL, 1] > 5, said


def _talon_only(cards: list[int], clubs: int) -> np.ndarray:
    """A draw-3 position with ``cards`` in the talon (pointer at its end), ``clubs`` clubs on
    their foundation, the diamonds up to the Jack (K♦ not next), the other suits up."""
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DOM] = core.DOM_ALL
    S[core.O_ALW] = core.ALW_ALL
    S[core.O_DRAW] = 3
    S[core.O_TN] = S[core.O_TP] = len(cards)
    S[core.O_TAL : core.O_TAL + len(cards)] = cards
    S[core.O_FND : core.O_FND + 4] = [clubs, 11, 13, 13]
    return S


def test_a_draw3_talon_play_of_the_last_card_leaves_the_card_before_it_last() -> None:
    """Talon A♣, K♦: K♦ onto an empty column leaves A♣ last, under pointer 1, which reaches
    what pointer 0 reaches, so A♣ goes up at once; talon K♦, c: K♦ from the front leaves c
    last, so an automatic move may follow if c is next (2♣ over A♣), not if not (3♣)."""
    S = _talon_only([0, 25], 0)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    m = core.encode(core.K_TAL_COL, 25, 1, 0, 1, 0)
    assert core.autos_may_follow(S, m)
    assert core.quiet_key(S, H, m)[1] == 0
    core.do_move(S, H, m)
    AUM = np.zeros(8, dtype=np.int32)
    AUU = np.zeros(8, dtype=np.int64)
    assert core.apply_autos(S, H, AUM, AUU, 0) == 1
    m = core.encode(core.K_TAL_COL, 25, 0, 0, 1, 0)
    assert core.autos_may_follow(_talon_only([25, 1], 1), m)
    assert not core.autos_may_follow(_talon_only([25, 2], 1), m)


def test_with_back_up_off_a_safe_card_may_wait_on_a_column() -> None:
    """With ``ALW_BACK_UP`` off a safe card may come down (2♣, ♣ at the Ace) and stay on its
    column (no automatic move after a foundation-to-column move), so after any other move, here
    Q♥ onto K♠, which uncovers nothing, an automatic move may follow: it does."""
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DOM] = core.DOM_ALL
    S[core.O_DRAW] = 1
    S[core.O_F2T] = 1
    S[core.O_FND : core.O_FND + 4] = [1, 13, 11, 12]
    for c, card in enumerate((1, 37, 51)):  # 2♣, Q♥, K♠ alone in columns 0, 1, 2
        S[core.O_LEN + c] = 1
        S[core.O_COLS + c * core.CAP] = card
    m = core.encode(core.K_COL_COL, 37, 1, 2, 1, 0)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    for always, may in ((core.ALW_ALL, False), (core.ALW_ALL & ~core.ALW_BACK_UP, True)):
        S[core.O_ALW] = always
        core.compute_hashes(S, H)
        assert core.autos_may_follow(S, m) == may
    core.do_move(S, H, m)
    AUM = np.zeros(8, dtype=np.int32)
    AUU = np.zeros(8, dtype=np.int64)
    assert core.apply_autos(S, H, AUM, AUU, 0) == 1
