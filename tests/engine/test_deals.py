"""Deals: pinned card by card so they can never drift; Solvitaire import and export."""

import json
from pathlib import Path

import pytest

from klondike_widget import Game, InvalidStateError, Rules
from klondike_widget.engine.cards import card_name
from klondike_widget.engine.deals import (
    deal,
    from_solvitaire,
    parse_deal_numbers,
    random_deal_number,
    shuffled_deck,
    state_from_solvitaire,
    to_solvitaire,
)

#: A copy of ``shared/reference/solvitaire-1-50.jsonl`` kept with the tests (a fresh clone has no
#: ``../shared``).
REFERENCE = Path(__file__).resolve().parents[1] / "data" / "solvitaire-1-50.jsonl"

# Pinned forever: changing the deal algorithm breaks every saved game and study.
PINNED_DECK_0 = ["Kc", "Th", "9c", "Ts", "3c", "Js", "Ks", "Qc", "3h", "Kd", "6d", "Ad", "Jd"]
PINNED_DECK_1 = [
    "9s",
    "7s",
    "Qh",
    "4s",
    "Ac",
    "8h",
    "Qs",
    "Jh",
    "6c",
    "5h",
    "7d",
    "Jc",
    "3d",
    "7h",
    "Qc",
    "As",
    "Tc",
    "5c",
    "2h",
    "8c",
    "5s",
    "Kd",
    "Td",
    "Ah",
    "5d",
    "Ad",
    "2c",
    "9c",
    "4c",
    "2d",
    "6h",
    "3c",
    "Ks",
    "8s",
    "3h",
    "6s",
    "7c",
    "3s",
    "8d",
    "6d",
    "Qd",
    "4d",
    "9h",
    "Kc",
    "Jd",
    "2s",
    "Th",
    "Js",
    "9d",
    "Ts",
    "Kh",
    "4h",
]
PINNED_DECK_MAX = ["3d", "7d", "Kc", "5d", "Qs", "3c", "Jh", "7h"]
PINNED_COLUMNS_1 = [
    ["9s"],
    ["7s", "Jh"],
    ["Qh", "6c", "7h"],
    ["4s", "5h", "Qc", "2h"],
    ["Ac", "7d", "As", "8c", "Td"],
    ["8h", "Jc", "Tc", "5s", "Ah", "Ad"],
    ["Qs", "3d", "5c", "Kd", "5d", "2c", "9c"],
]
PINNED_STOCK_1 = [
    "4h",
    "Kh",
    "Ts",
    "9d",
    "Js",
    "Th",
    "2s",
    "Jd",
    "Kc",
    "9h",
    "4d",
    "Qd",
    "6d",
    "8d",
    "3s",
    "7c",
    "6s",
    "3h",
    "8s",
    "Ks",
    "3c",
    "6h",
    "2d",
    "4c",
]


def names(cards) -> list[str]:  # type: ignore[no-untyped-def]
    return [card_name(c) for c in cards]


def test_pinned_deck_orders() -> None:
    assert names(shuffled_deck(0))[:13] == PINNED_DECK_0
    assert names(shuffled_deck(1)) == PINNED_DECK_1
    assert names(shuffled_deck(2**64 - 1))[:8] == PINNED_DECK_MAX


def test_pinned_deal_layout() -> None:
    s = deal(1)
    assert [names(c) for c in s.columns] == PINNED_COLUMNS_1
    assert names(s.stock) == PINNED_STOCK_1


def test_deals_are_permutations_and_differ() -> None:
    seen = set()
    for n in range(200):
        deck = shuffled_deck(n)
        assert sorted(deck) == list(range(52))
        seen.add(tuple(deck))
    assert len(seen) == 200


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "7", True, None])
def test_bad_deal_numbers(bad: object) -> None:
    with pytest.raises(ValueError, match="deal number"):
        deal(bad)  # type: ignore[arg-type]


def test_random_deals() -> None:
    numbers = {random_deal_number() for _ in range(20)}
    assert len(numbers) > 15
    g = Game.new(draw=3)
    assert g.deal_number is not None
    assert g.state == deal(g.deal_number, Rules(draw=3))


def test_parse_deal_numbers() -> None:
    assert parse_deal_numbers("1-3, 10") == [1, 2, 3, 10]
    for bad in ["", "a-b", "5-1", "-3"]:
        with pytest.raises(ValueError, match="deal"):
            parse_deal_numbers(bad)


def test_every_reference_deal_round_trips_through_solvitaire_json() -> None:
    lines = REFERENCE.read_text().splitlines()
    assert len(lines) == 100
    for line in lines:
        record = json.loads(line)
        g = from_solvitaire(record["deal"], draw=record["draw"])
        assert g.rules.draw == record["draw"]
        assert to_solvitaire(g.state) == record["deal"]
        assert sum(g.state.face_down) == 21
        assert len(g.state.stock) == 24


def test_solvitaire_mid_game_positions_round_trip() -> None:
    s = deal(4)
    for text in ["s", "s", "s"]:
        s = s.apply(text)
    s = s.replace(foundations=s.foundations)  # unchanged, validated
    assert state_from_solvitaire(to_solvitaire(s)) == s


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tableau piles"][1].reverse(), "above a face-up"),
        (lambda d: d["tableau piles"].pop(), "7"),
        (lambda d: d["stock"].append("9D"), "duplicated"),
        (lambda d: d["stock"].pop(), "missing"),
        (lambda d: d["stock"].__setitem__(0, "1H"), "not a Solvitaire card"),
        (lambda d: d.update(foundations=["2C"]), "out of order"),
        (lambda d: d.update(extra=1), "unknown keys"),
        (lambda d: d["tableau piles"].__setitem__(0, ["9d"]), "face up"),
    ],
)
def test_bad_solvitaire_deals(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(REFERENCE.read_text().splitlines()[0])["deal"]
    change(data)
    with pytest.raises(InvalidStateError, match=message):
        state_from_solvitaire(data)
