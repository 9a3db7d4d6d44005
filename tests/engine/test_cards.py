"""Cards: representation, parsing, printing, colours and the stacking table."""

import pytest

from klondike_widget.engine.cards import (
    NUM_CARDS,
    InvalidCardError,
    can_stack,
    card_name,
    card_symbol,
    is_red,
    make_card,
    parse_card,
    rank_of,
    suit_of,
)


def test_every_card_round_trips_through_both_names() -> None:
    for card in range(NUM_CARDS):
        assert parse_card(card_name(card)) == card
        assert parse_card(card_symbol(card)) == card
        assert make_card(rank_of(card), suit_of(card)) == card


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Th", "Th"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("T♥", "Th"),
        ("10♥", "Th"),
        ("as", "As"),
        ("K♠", "Ks"),
        ("q♢", "Qd"),
        (" 2C ", "2c"),
    ],
)
def test_parse_accepts_the_usual_spellings(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("bad", ["", "1", "11h", "Xh", "Tx", "10", "hh", "♥T"])
def test_parse_rejects_nonsense(bad: str) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(bad)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(InvalidCardError):
        parse_card(5)  # type: ignore[arg-type]


def test_colours_and_stacking() -> None:
    reds = [c for c in range(NUM_CARDS) if is_red(c)]
    assert len(reds) == 26
    assert {card_symbol(c)[-1] for c in reds} == {"♦", "♥"}
    assert can_stack(parse_card("9h"), parse_card("Ts"))
    assert can_stack(parse_card("9h"), parse_card("Tc"))
    assert not can_stack(parse_card("9h"), parse_card("Td"))  # same colour
    assert not can_stack(parse_card("9h"), parse_card("Js"))  # two ranks apart
    assert not can_stack(parse_card("Ks"), parse_card("Ah"))  # no wrap-around
    # every card but a King has exactly two possible parents
    for c in range(NUM_CARDS):
        parents = [t for t in range(NUM_CARDS) if can_stack(c, t)]
        assert len(parents) == (0 if rank_of(c) == 12 else 2)


def test_bad_card_ints_are_rejected() -> None:
    for bad in (-1, 52, True):
        with pytest.raises(InvalidCardError):
            card_name(bad)
