"""Tests of klondike_widget.render: the SVG picture, the HTML figure and the filmstrip."""

from __future__ import annotations

import base64
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from klondike_widget import render
from klondike_widget.engine.cards import CARD_RANK, CARD_SUIT, card_name, parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


# -- helpers --------------------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tagged(root: ET.Element, kind: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("data-kw") == kind]


def images(html: str) -> list[str]:
    """The SVG pictures an HTML output embeds as ``<img>`` data URIs, decoded."""
    assert "<svg" not in html  # inline SVG would be stripped from untrusted notebooks
    return [
        base64.b64decode(data).decode()
        for data in re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    ]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def find_position(want: Callable[[GameState, Move], bool], draw: int = 3) -> tuple[GameState, Move]:
    """A real position (reached by play from a numbered deal) with a legal move ``want`` accepts."""
    for number in range(1, 120):
        for seed in range(3):
            rng = random.Random(seed)
            state = deal(number, Rules(draw=draw))
            for _ in range(300):
                moves = list(state.legal_moves)
                for move in moves:
                    if want(state, move):
                        return state, move
                if not moves:
                    break
                plays = [m for m in moves if m.kind not in (MoveKind.DRAW, MoveKind.RECYCLE)]
                move = rng.choice(plays) if plays and rng.random() < 0.7 else moves[-1]
                state = state.apply(move)
    raise AssertionError("no position found")


def nearly_won() -> GameState:
    p = parse_card
    return GameState(
        columns=[[p("Kc"), p("Qh")], [p("Kd"), p("Qc"), p("Jh")], [p("Kh")], [], [], [], []],
        face_down=[0] * 7,
        foundations=(11, 12, 10, 13),
        rules=Rules(draw=3),
    )


def won() -> GameState:
    return GameState(columns=[()] * 7, face_down=[0] * 7, foundations=(13, 13, 13, 13))


def sample_states() -> list[GameState]:
    s = deal(7, Rules(draw=3))
    played = s
    for text in ["s", "s", "s"]:
        played = played.apply(text)
    return [deal(1), s, played, deal(3).apply("s"), nearly_won(), won()]


# -- the picture ----------------------------------------------------------------------------------


@pytest.mark.parametrize("state", sample_states())
def test_svg_parses_and_draws_every_visible_card(state: GameState) -> None:
    root = parse(render.state_svg(state))
    assert root.tag == f"{SVG}svg"
    faces = [e.get("data-card", "") for e in tagged(root, "card")]
    expected = [card_name(c) for i in range(7) for c in state.face_up(i)]
    shown_waste = state.waste[-3:] if state.rules.draw == 3 else state.waste[-1:]
    expected += [card_name(c) for c in shown_waste]
    expected += [card_name(t) for s in range(4) if (t := state.foundation_top(s)) is not None]
    assert sorted(faces) == sorted(expected)
    for card_el in tagged(root, "card"):
        card = parse_card(card_el.get("data-card", ""))
        rank_text = "10" if CARD_RANK[card] == 9 else "A23456789TJQK"[CARD_RANK[card]]
        assert rank_text in texts(card_el)
    assert len(tagged(root, "back")) == sum(state.face_down)


def test_face_up_rank_texts_of_a_deal() -> None:
    svg = render.state_svg(deal(1))
    for rank in ["9", "J", "7", "2", "10", "A"]:  # the tops of deal 1: 9s Jh 7h 2h Td Ad 9c
        assert f">{rank}</text>" in svg


def test_stock_count_and_recycle_mark() -> None:
    root = parse(render.state_svg(deal(1)))
    assert "24" in texts(root)
    assert tagged(root, "stock")
    assert not tagged(root, "recycle")
    state, _ = find_position(lambda s, m: m.kind is MoveKind.RECYCLE)
    root = parse(render.state_svg(state))
    assert not tagged(root, "stock")
    assert len(tagged(root, "recycle")) == 1
    # both empty: no mark
    assert not tagged(parse(render.state_svg(won())), "recycle")


def test_waste_fan_draw3_and_draw1() -> None:
    s3 = deal(4, Rules(draw=3)).apply("s").apply("s")
    s1 = deal(4, Rules(draw=1)).apply("s").apply("s")
    assert len(s3.waste) == 6
    assert len(s1.waste) == 2
    faces3 = {e.get("data-card") for e in tagged(parse(render.state_svg(s3)), "card")}
    faces1 = {e.get("data-card") for e in tagged(parse(render.state_svg(s1)), "card")}
    assert {card_name(c) for c in s3.waste[-3:]} <= faces3
    assert card_name(s3.waste[-4]) not in faces3
    assert card_name(s1.waste[-1]) in faces1
    assert card_name(s1.waste[-2]) not in faces1


def test_scale_and_size() -> None:
    root = parse(render.state_svg(deal(1), scale=0.5))
    assert float(root.get("width", "0")) == pytest.approx(render.BOARD_W * 0.5)
    assert root.get("viewBox", "").split()[2] == f"{render.BOARD_W:g}"
    assert 560 <= render.BOARD_W <= 700


def test_taller_columns_make_a_taller_picture() -> None:
    short = float(parse(render.state_svg(deal(1))).get("height", "0"))
    tall_state, _ = find_position(lambda s, m: max(len(s.face_up(i)) for i in range(7)) >= 6)
    tall = float(parse(render.state_svg(tall_state)).get("height", "0"))
    assert tall > short


def test_self_contained_and_no_classes() -> None:
    svg = render.state_svg(deal(5), highlight=Move.draw())
    assert "<script" not in svg
    assert "class=" not in svg
    assert "<style" not in svg
    urls = re.findall(r"https?://[^\"']+", svg)
    assert set(urls) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


def test_ids_are_unique_per_picture_and_references_resolve() -> None:
    state = deal(2)
    pictures = [
        parse(render.state_svg(state)),
        parse(render.state_svg(state, highlight=Move.draw())),
    ]
    id_sets = []
    for root in pictures:
        ids = [i for e in root.iter() if (i := e.get("id"))]
        assert len(ids) == len(set(ids))
        prefix = root.get("id", "")
        assert prefix
        assert all(i == prefix or i.startswith(prefix + "-") for i in ids)
        refs = {h[1:] for e in root.iter() if (h := e.get(XLINK_HREF))}
        refs |= {
            m
            for e in root.iter()
            for v in e.attrib.values()
            for m in re.findall(r"url\(#([^)]+)\)", v)
        }
        assert refs
        assert refs <= set(ids)
        id_sets.append(set(ids))
    assert not id_sets[0] & id_sets[1]


# -- highlights -----------------------------------------------------------------------------------


def outline_box(root: ET.Element, name: str) -> tuple[float, float, float, float]:
    (group,) = tagged(root, name)
    rect = group.find(f"{SVG}rect")
    assert rect is not None
    return tuple(float(rect.get(k, "nan")) for k in ("x", "y", "width", "height"))  # type: ignore[return-value]


PAD = 3.0


def slot_x(slot: int) -> float:
    return render.MARGIN + slot * (render.CARD_W + render.PILE_GAP) - PAD


KIND_WANTS: dict[MoveKind, Callable[[GameState, Move], bool]] = {
    MoveKind.DRAW: lambda s, m: m.kind is MoveKind.DRAW,
    MoveKind.RECYCLE: lambda s, m: m.kind is MoveKind.RECYCLE,
    MoveKind.WASTE_TO_COLUMN: lambda s, m: m.kind is MoveKind.WASTE_TO_COLUMN,
    MoveKind.WASTE_TO_FOUNDATION: lambda s, m: m.kind is MoveKind.WASTE_TO_FOUNDATION,
    MoveKind.COLUMN_TO_FOUNDATION: lambda s, m: m.kind is MoveKind.COLUMN_TO_FOUNDATION,
    MoveKind.COLUMN_TO_COLUMN: lambda s, m: m.kind is MoveKind.COLUMN_TO_COLUMN and m.count >= 2,
    MoveKind.FOUNDATION_TO_COLUMN: lambda s, m: m.kind is MoveKind.FOUNDATION_TO_COLUMN,
}


@pytest.mark.parametrize("kind", list(MoveKind), ids=lambda k: k.name)
def test_highlight_every_move_kind(kind: MoveKind) -> None:
    state, move = find_position(KIND_WANTS[kind])
    root = parse(render.state_svg(state, highlight=move))
    sx, sy, sw, sh = outline_box(root, "hl-source")
    tx, ty, tw, th = outline_box(root, "hl-target")
    (arrow,) = tagged(root, "hl-arrow")
    assert len(arrow.findall(f"{SVG}path")) >= 2  # the shaft and the head
    top_y = render.TOP_Y - PAD
    if kind is MoveKind.DRAW:
        assert (sx, sy) == (slot_x(0), top_y)
        assert tx == slot_x(1)
    elif kind is MoveKind.RECYCLE:
        assert sx == slot_x(1)
        assert (tx, ty) == (slot_x(0), top_y)
    elif kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
        assert sy == top_y
        assert slot_x(1) <= sx <= slot_x(1) + 2 * render.WASTE_DX
    elif kind is MoveKind.FOUNDATION_TO_COLUMN:
        assert (sx, sy) == (slot_x(3 + move.source), top_y)
    else:
        assert sx == slot_x(move.source)
        assert sy > render.TABLEAU_Y - PAD - 0.01
    if kind in (MoveKind.WASTE_TO_FOUNDATION, MoveKind.COLUMN_TO_FOUNDATION):
        card = state.waste[-1] if kind is MoveKind.WASTE_TO_FOUNDATION else state.top(move.source)
        assert card is not None
        assert (tx, ty) == (slot_x(3 + CARD_SUIT[card]), top_y)  # the card's own foundation
    if kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.COLUMN_TO_COLUMN, MoveKind.FOUNDATION_TO_COLUMN):
        assert tx == slot_x(move.target)
        assert ty >= render.TABLEAU_Y - PAD - 0.01
    if kind is MoveKind.COLUMN_TO_COLUMN:  # the outline covers exactly the moving run
        assert sh == pytest.approx((move.count - 1) * render.UP_DY + render.CARD_H + 2 * PAD)
    else:
        assert sh == pytest.approx(render.CARD_H + 2 * PAD)
    assert sw >= render.CARD_W
    assert tw >= render.CARD_W
    assert th == pytest.approx(render.CARD_H + 2 * PAD)


def test_highlight_into_an_empty_column() -> None:
    state, move = find_position(
        lambda s, m: m.kind is MoveKind.COLUMN_TO_COLUMN and s.top(m.target) is None
    )
    root = parse(render.state_svg(state, highlight=move))
    assert outline_box(root, "hl-target")[:2] == (slot_x(move.target), render.TABLEAU_Y - PAD)


def test_no_highlight_elements_without_a_move() -> None:
    root = parse(render.state_svg(deal(2)))
    assert not tagged(root, "hl-source")
    assert not tagged(root, "hl-arrow")


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(ValueError, match="waste is empty"):
        render.state_svg(deal(1), highlight=Move.waste_to_foundation())
    with pytest.raises(ValueError, match="face-up"):
        render.state_svg(deal(1), highlight=Move.column_to_column(0, 1, 2))
    with pytest.raises(ValueError, match="foundation is empty"):
        render.state_svg(deal(1), highlight=Move.foundation_to_column(0, 1))
    with pytest.raises(ValueError, match="stock is empty"):
        render.state_svg(won(), highlight=Move.draw())
    with pytest.raises(TypeError):
        render.state_svg(deal(1), highlight="s")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        render.state_svg("deal 1")  # type: ignore[arg-type]
    for scale in (0, -1, True, "1"):
        with pytest.raises(ValueError, match="scale"):
            render.state_svg(deal(1), scale=scale)  # type: ignore[arg-type]


def test_labels_can_be_hidden() -> None:
    with_labels = texts(parse(render.state_svg(deal(1))))
    without = texts(parse(render.state_svg(deal(1), show_labels=False)))
    for n in "1234567":
        assert with_labels.count(n) > without.count(n)


# -- HTML -----------------------------------------------------------------------------------------


def test_state_html_escapes_and_lists_moves() -> None:
    state = deal(2)
    html = render.state_html(state, caption='<b>"deal" & 2</b>', legal_moves=True)
    assert "&lt;b&gt;&quot;deal&quot; &amp; 2&lt;/b&gt;" in html
    assert "<b>" not in html
    for move in state.legal_moves:
        assert f">{move}</code>" in html
    assert len(images(html)) == 1
    plain = render.state_html(state)
    assert "<code" not in plain
    assert "figcaption" not in plain
    won_html = render.state_html(won(), legal_moves=True)
    assert "No legal moves" in won_html


def test_state_html_highlight() -> None:
    html = render.state_html(deal(2), highlight=Move.parse("t3-t2"))
    (picture,) = images(html)
    assert tagged(parse(picture), "hl-arrow")


def test_repr_svg_of_state_and_game() -> None:
    from klondike_widget import Game

    assert parse(deal(1)._repr_svg_()).tag == f"{SVG}svg"
    game = Game.new(deal=3)
    assert parse(game._repr_svg_()).tag == f"{SVG}svg"
    (picture,) = images(game._repr_html_())
    assert len(tagged(parse(picture), "card")) == len(tagged(parse(game._repr_svg_()), "card"))


def test_svg_shows_itself_as_svg_and_as_an_image() -> None:
    """The mime bundle IPython builds: image/svg+xml is the picture, text/html an <img> of it."""
    from IPython.core.formatters import DisplayFormatter

    pic = render.state_svg(deal(4), scale=0.5)
    assert isinstance(pic, str) and isinstance(pic, render.Svg)
    bundle, _ = DisplayFormatter().format(pic)
    assert bundle["image/svg+xml"] == str(pic)
    (decoded,) = images(bundle["text/html"])
    assert decoded == str(pic)
    width = parse(pic).get("width")
    assert f'width="{width}"' in bundle["text/html"]
    assert 'alt="Klondike position: stock 24, waste 0, 0 of 52 cards' in bundle["text/html"]
    assert 'alt="a &lt;b&gt;"' in pic.img(alt="a <b>")
    state_bundle, _ = DisplayFormatter().format(deal(4))
    assert {"image/svg+xml", "text/html", "text/plain"} <= set(state_bundle)
    assert len(images(state_bundle["text/html"])) == 1


# -- a line in one picture ----------------------------------------------------------------------


def test_line_svg_one_frame_per_position_in_rows() -> None:
    states, moves = line(6)
    root = parse(render.line_svg(states, moves, per_row=3))
    frames = tagged(root, "frame")
    assert len(frames) == 7
    captions = [texts(f)[0] for f in frames]
    assert captions == [f"{i}  →  {m}" for i, m in enumerate(moves)] + ["6"]
    boards = [f.find(f"{SVG}g/{SVG}svg") for f in frames]
    assert all(b is not None for b in boards)
    assert [bool(tagged(b, "hl-arrow")) for b in boards if b is not None] == [True] * 6 + [False]
    offsets = [f.get("transform") for f in frames]
    assert len({o.split()[1] for o in offsets if o}) == 3  # rows of 3, 3 and 1
    ids = [i for e in root.iter() if (i := e.get("id"))]
    assert len(ids) == len(set(ids))
    width = float(root.get("width", "0"))
    board_w = render.BOARD_W * 0.45
    assert width == pytest.approx(3 * board_w + 2 * render.FRAME_GAP)


def test_line_svg_leaves_out_the_middle_of_long_lines() -> None:
    states, moves = line(20)
    root = parse(render.line_svg(states, moves))
    captions = [texts(f)[0] for f in tagged(root, "frame")]
    assert len(captions) == 12
    assert captions[-1] == "(… 9 more positions …)  20"
    assert len(tagged(parse(render.line_svg(states, moves, max_frames=None)), "frame")) == 21


def test_line_svg_rejects_bad_arguments() -> None:
    states, moves = line(3)
    with pytest.raises(ValueError, match="needs 3 moves"):
        render.line_svg(states, moves[:2])
    with pytest.raises(ValueError, match=r"does not lead|cannot be played"):
        render.line_svg(states, [moves[1], moves[0], moves[2]])
    for bad in (0, True, 1.5):
        with pytest.raises(ValueError, match="per_row"):
            render.line_svg(states, moves, per_row=bad)  # type: ignore[arg-type]


def test_a_line_shows_itself_as_one_svg() -> None:
    from klondike_widget.engine.line import Line

    states, moves = line(4)
    shown = Line(states[0], moves)
    assert len(tagged(parse(shown._repr_svg_()), "frame")) == 5
    assert len(images(shown._repr_html_())) == 5


# -- filmstrip ------------------------------------------------------------------------------------


def line(length: int) -> tuple[list[GameState], list[Move]]:
    state = deal(5, Rules(draw=3))
    states, moves = [state], []
    for _ in range(length):
        move = next(iter(state.legal_moves))
        state = state.apply(move)
        states.append(state)
        moves.append(move)
    return states, moves


def test_filmstrip_one_frame_per_state() -> None:
    states, moves = line(6)
    html = render.filmstrip_html(states, moves)
    pictures = images(html)
    assert len(pictures) == len(states)
    # every frame but the last shows its move
    assert [bool(tagged(parse(p), "hl-arrow")) for p in pictures] == [True] * len(moves) + [False]
    for move in moves:
        assert f">{move}</code>" in html
    ids = [i for p in pictures for e in parse(p).iter() if (i := e.get("id"))]
    assert len(ids) == len(set(ids))
    for i in range(len(states)):
        assert f">{i}</figcaption>" in html
    assert "<script" not in html


def test_filmstrip_max_frames() -> None:
    states, moves = line(9)
    html = render.filmstrip_html(states, moves, max_frames=4)
    assert len(images(html)) == 4
    assert "6 more positions" in html
    assert ">9</figcaption>" in html


def test_filmstrip_rejects_inconsistent_lines() -> None:
    states, moves = line(3)
    with pytest.raises(ValueError, match="needs 3 moves"):
        render.filmstrip_html(states, moves[:2])
    with pytest.raises(ValueError, match=r"does not lead|cannot be played"):
        render.filmstrip_html(states, [moves[1], moves[0], moves[2]])
    with pytest.raises(ValueError, match="at least one"):
        render.filmstrip_html([], [])
    with pytest.raises(ValueError, match="max_frames"):
        render.filmstrip_html(states, moves, max_frames=1)
    assert len(images(render.filmstrip_html(states[:1], []))) == 1


def test_board_text_unchanged() -> None:
    text = render.board_text(deal(1))
    assert text.splitlines()[0] == "Stock 24 · Waste -- · Foundations ♣- ♦- ♥- ♠-"
    assert text.splitlines()[2].split() == ["9♠", "##", "##", "##", "##", "##", "##"]
