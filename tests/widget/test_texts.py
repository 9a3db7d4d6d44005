"""Texts are composed on one side only: Python sends them finished, the front end shows them.

``view["texts"]``, ``view["line"]``'s words, a notice's ``text``, ``strings["selected"]`` and the
statistics warnings, checked in all four locales (plural forms included: Polish one/few/many,
Arabic zero/one/two/few/many/other), and the shipped ``widget.js`` checked to compose nothing.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from klondike_widget import Game, KlondikeWidget, i18n
from klondike_widget.engine.cards import parse_card
from klondike_widget.widget import asset_path
from klondike_widget.widget.line_panel import LinePanel, line_from
from klondike_widget.widget.protocol import StatsView, View, ViewTexts
from klondike_widget.widget.texts import stats_warnings, view_texts
from klondike_widget.widget.view import board_view

LOCALES = ("en", "pl", "tr", "ar")


def _view(taps: int = 0, **changes: Any) -> View:
    """Deal 2 (draw 1) after ``taps`` taps on the stock, with ``changes`` over its view."""
    game = Game.new(deal=2)
    for _ in range(taps):
        game.play("s")
    view = board_view(game, seq=0)
    view.update(changes)  # type: ignore[typeddict-item]
    return view


# -- the piles ---------------------------------------------------------------------------------

DEAL_2_PILES = {
    "en": (
        "Stock: 24 cards left",
        "Waste: empty; 0 cards",
        "Foundation of diamonds: empty",
        "Column 3: 2 face-down cards: eight of diamonds",
    ),
    "pl": (
        "Stos dobierania: 24 karty",
        "Stos odkryty: pusty; 0 kart",
        "Stos bazowy: karo: pusty",
        "Kolumna 3: 2 karty zakryte: ósemka karo",
    ),
    "tr": (
        "Çekme destesi: 24 kart kaldı",
        "Açık deste: boş; toplam 0 kart",
        "karo hedef yığını: boş",
        "3. sütun: 2 kapalı kart: karo sekizi",
    ),
    "ar": (
        "كومة السحب: بقيت 24 ورقة",
        "الأوراق المسحوبة: لا أوراق; لا أوراق مسحوبة",
        "كومة تجميع الديناري: لا أوراق",
        "العمود 3: ورقتان مقلوبتان: ثمانية الديناري",
    ),
}


@pytest.mark.parametrize("lang", LOCALES)
def test_pile_names_of_a_deal(lang: str) -> None:
    piles = view_texts(_view(), lang)["piles"]
    assert set(piles) == {"s", "w", "fc", "fd", "fh", "fs", *(f"t{i}" for i in range(1, 8))}
    assert (piles["s"], piles["w"], piles["fd"], piles["t3"]) == DEAL_2_PILES[lang]


def test_a_pile_with_cards_up_and_down_and_a_waste_top() -> None:
    piles = view_texts(_view(taps=1), "en")["piles"]
    assert piles["w"] == "Waste: ten of clubs; 1 card"
    assert piles["s"] == "Stock: 23 cards left"
    assert piles["t7"] == "Column 7: 6 face-down cards: king of diamonds"


@pytest.mark.parametrize(
    ("lang", "taps", "stock", "waste"),
    [
        # Polish: one (1), few (2-4, 22-24), many (0, 5-21)
        ("pl", 2, "22 karty", "2 karty"),
        ("pl", 3, "21 kart", "3 karty"),
        ("pl", 19, "5 kart", "19 kart"),
        ("pl", 23, "1 karta", "23 karty"),
        ("pl", 24, "0 kart", "24 karty"),
        # Arabic: zero, one, two, few (3-10), many (11-99)
        ("ar", 0, "بقيت 24 ورقة", "لا أوراق مسحوبة"),
        ("ar", 1, "بقيت 23 ورقة", "ورقة مسحوبة واحدة"),
        ("ar", 2, "بقيت 22 ورقة", "ورقتان مسحوبتان"),
        ("ar", 13, "بقيت 11 ورقة", "13 ورقة مسحوبة"),
        ("ar", 14, "بقيت 10 ورقات", "14 ورقة مسحوبة"),
        ("ar", 21, "بقيت 3 ورقات", "21 ورقة مسحوبة"),
        ("ar", 22, "بقيت ورقتان", "22 ورقة مسحوبة"),
        ("ar", 23, "بقيت ورقة واحدة", "23 ورقة مسحوبة"),
        ("ar", 24, "لم تبقَ أي ورقة", "24 ورقة مسحوبة"),
        ("tr", 23, "1 kart kaldı", "toplam 23 kart"),
        ("en", 23, "1 card left", "23 cards"),
    ],
)
def test_stock_and_waste_counts_take_the_languages_plural_form(
    lang: str, taps: int, stock: str, waste: str
) -> None:
    piles = view_texts(_view(taps=taps), lang)["piles"]
    assert piles["s"].endswith(": " + stock)
    assert piles["w"].endswith("; " + waste)


@pytest.mark.parametrize("lang", LOCALES)
@pytest.mark.parametrize("taps", [0, 1, 5, 24])
def test_the_stock_and_the_waste_are_named_once(lang: str, taps: int) -> None:
    piles = view_texts(_view(taps=taps), lang)["piles"]
    for pile, key in (("s", "pile.stock"), ("w", "pile.waste")):
        title = i18n.text(key, lang)
        assert piles[pile].startswith(title + ": ") and piles[pile].count(title) == 1


# -- the win, Finish, the deal, the hint, the review -------------------------------------------

WIN = {  # moves -> the message, time 1:05
    "en": {1: "You won in 1 move, time 01:05.", 1234: "You won in 1,234 moves, time 01:05."},
    "pl": {
        1: "Wygrana! 1 ruch, czas 01:05.",
        3: "Wygrana! 3 ruchy, czas 01:05.",
        5: "Wygrana! 5 ruchów, czas 01:05.",
        122: "Wygrana! 122 ruchy, czas 01:05.",
        1234: "Wygrana! 1234 ruchy, czas 01:05.",
    },
    "tr": {1: "Kazandınız! 1 hamle, süre 01:05.", 1234: "Kazandınız! 1.234 hamle, süre 01:05."},
    "ar": {
        0: "فزت دون أي حركة! الوقت 01:05.",
        1: "فزت بحركة واحدة! الوقت 01:05.",
        2: "فزت بحركتين! الوقت 01:05.",
        7: "فزت بـ7 حركات! الوقت 01:05.",
        99: "فزت بـ99 حركة! الوقت 01:05.",
        100: "فزت بـ100 حركة! الوقت 01:05.",
        1234: "فزت بـ1,234 حركة! الوقت 01:05.",
    },
}


@pytest.mark.parametrize("lang", LOCALES)
def test_the_win_message_has_the_moves_and_the_time(lang: str) -> None:
    for moves, message in WIN[lang].items():
        clock = {"ms": 65_400, "at": 0, "run": False}
        texts = view_texts(_view(status="won", moves=moves, clock=clock), lang)
        assert texts["win"] == message
    assert view_texts(_view(), lang)["win"] is None


def test_the_win_time_from_an_hour() -> None:
    clock = {"ms": 3_725_000, "at": 0, "run": False}
    assert view_texts(_view(status="won", moves=3, clock=clock), "en")["win"] == (
        "You won in 3 moves, time 1:02:05."
    )


@pytest.mark.parametrize(
    ("lang", "found", "said"),
    [
        ("en", [None, None, None, None], "Finishing: 0 cards on the foundations."),
        ("en", [0, None, None, None], "Finishing: 1 card on the foundations."),
        ("pl", [12, 25, None, None], "Dokańczam: 26 kart na stosach bazowych."),
        ("pl", [1, None, None, None], "Dokańczam: 2 karty na stosach bazowych."),
        ("ar", [None, None, None, None], "جارٍ الإكمال: لا أوراق على أكوام التجميع بعد."),
        ("ar", [1, None, None, None], "جارٍ الإكمال: ورقتان على أكوام التجميع."),
        ("ar", [12, 25, 38, 51], "جارٍ الإكمال: 52 ورقة على أكوام التجميع."),
        ("tr", [4, None, None, None], "Tamamlanıyor: hedef yığınlarında 5 kart var."),
    ],
)
def test_finish_progress_counts_the_cards_up(lang: str, found: list[int | None], said: str) -> None:
    assert view_texts(_view(status="finishing", found=found), lang)["finishing"] == said
    assert view_texts(_view(found=found), lang)["finishing"] is None


@pytest.mark.parametrize(
    ("lang", "deal"),
    [
        ("en", "Deal 1,234,567"),
        ("pl", "Rozdanie 1\u00a0234\u00a0567"),
        ("tr", "1.234.567 numaralı dağıtım"),
        ("ar", "التوزيعة رقم 1,234,567"),
    ],
)
def test_the_deal_number_is_grouped_as_the_language_groups_it(lang: str, deal: str) -> None:
    assert view_texts(_view(deal="1234567"), lang)["deal"] == deal
    assert view_texts(_view(deal=None), lang)["deal"] is None


def test_the_hint_and_the_review_progress() -> None:
    hint = {"src": "t3", "n": 1, "dst": "t2", "text": "8♦ onto 9♣"}
    assert view_texts(_view(hint=hint), "pl")["hint"] == "Podpowiedź: 8♦ onto 9♣"
    assert view_texts(_view(), "pl")["hint"] is None
    review = {"running": True, "decided": 12, "total": 1500}
    assert view_texts(_view(review=review), "tr")["review"] == (
        "Oyun inceleniyor… karara bağlanan konumlar: 12/1.500"
    )
    assert view_texts(_view(review=None), "tr")["review"] is None


def test_the_texts_have_exactly_the_typed_keys() -> None:
    texts = view_texts(_view(), "en")
    assert set(texts) == set(ViewTexts.__required_keys__)  # type: ignore[attr-defined]


# -- the line panel, notices, picking a card, the statistics -----------------------------------

LINE = {  # step 0, step 3 (text, said), opened at step 3 (solver line / review)
    "en": (
        "Starting position",
        "Step 3 of 3",
        "Step 3 of 3: 8♦ from column 3 onto 9♣ in column 2",
        "Solver line: Step 3 of 3",
        "Game review: Step 3 of 3",
    ),
    "pl": (
        "Pozycja wyjściowa",
        "Krok 3 z 3",
        None,
        "Linia solvera: Krok 3 z 3",
        "Przegląd partii: Krok 3 z 3",
    ),
    "tr": ("Başlangıç konumu", "Adım 3 / 3", None, "Çözücü yolu: Adım 3 / 3", None),
    "ar": ("وضعية البداية", "الخطوة 3 من 3", None, "طريق الحل: الخطوة 3 من 3", None),
}


@pytest.mark.parametrize("lang", LOCALES)
def test_the_line_step_in_words(lang: str) -> None:
    from klondike_widget.i18n import describe_move

    start, text, said, opened, reviewed = LINE[lang]
    line = line_from(["s", "s", "t3-t2"], Game.new(deal=2).state)
    panel = LinePanel(line, ident=1)
    at_start = panel.view_part(True, lang)
    assert at_start["text"] == at_start["said"] == start
    panel.index = 3
    part = panel.view_part(True, lang)
    assert part["text"] == text
    words = describe_move(line[2], line.moves[2], lang)
    assert part["said"] == (said or f"{text}: {words}")
    assert part["opened"] == opened
    if reviewed:
        review = LinePanel(line, ident=2, review=True)
        review.index = 3
        assert review.view_part(True, lang)["opened"] == reviewed


class _Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def __call__(self, content: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(content)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "“Draw 3” applies from the next deal; this game goes on as it was"),
        ("pl", None),
        ("tr", None),
        ("ar", None),
    ],
)
def test_a_notice_comes_with_its_arguments_filled(lang: str, text: str | None) -> None:
    from klondike_widget.i18n import text as i18n_text

    w = KlondikeWidget(deal=2, analyse=False, locale=lang)
    w.send = _Recorder()  # type: ignore[method-assign]
    w.play("s")  # a touched game: draw 3 applies from the next deal
    w._handle_custom_msg({"kind": "set_draw", "seq": w.view["seq"], "draw": 3}, [])
    notice = w.send.sent[-1]  # type: ignore[attr-defined]
    assert notice["key"] == "notice.draw_next_deal"
    mode = i18n_text("option.draw.three", lang)
    assert notice["text"] == (text or i18n_text("notice.draw_next_deal", lang, mode=mode))
    assert mode in notice["text"] and "{" not in notice["text"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Selected: nine of hearts."),
        ("pl", "Wybrano: dziewiątka kier."),
        ("tr", "Seçildi: kupa dokuzu."),
        ("ar", "اخترت: تسعة القلوب."),
    ],
)
def test_what_is_said_when_a_card_is_picked(lang: str, said: str) -> None:
    w = KlondikeWidget(deal=2, analyse=False, locale=lang)
    assert w.strings["selected"][parse_card("9h")] == said
    assert len(w.strings["selected"]) == 52


def test_statistics_warnings_in_words() -> None:
    summary = {"skipped": 1200, "error": "PermissionError"}
    assert stats_warnings(summary, "pl") == [
        "Pominięte uszkodzone wiersze pliku statystyk: 1200",
        "Nie udało się zapisać statystyk (PermissionError).",
    ]
    assert stats_warnings({"skipped": 0, "error": None}, "ar") == []


def test_the_texts_follow_a_change_of_language() -> None:
    w = KlondikeWidget(deal=2, analyse=False)
    assert w.view["texts"]["piles"]["fd"] == "Foundation of diamonds: empty"
    assert w.strings["selected"][parse_card("9h")] == "Selected: nine of hearts."
    w.locale = "ar"
    assert w.view["texts"]["piles"]["fd"] == "كومة تجميع الديناري: لا أوراق"
    assert w.view["texts"]["deal"] == "التوزيعة رقم 2"
    assert w.strings["selected"][parse_card("9h")] == "اخترت: تسعة القلوب."
    assert set(w.stats_view) == set(StatsView.__required_keys__)  # type: ignore[attr-defined]


# -- the front end composes nothing ------------------------------------------------------------


def _shipped_js() -> str:
    return asset_path("widget.js").read_text(encoding="utf-8")


def test_the_front_end_never_picks_a_plural_form_nor_fills_a_template() -> None:
    js = _shipped_js()
    assert "PluralRules" not in js
    assert not re.search(r"\.tp\(", js), "a plural text picked in the JS"
    # no {name} template filled: a replace() whose pattern looks for a brace
    assert not re.search(r"\.replace(All)?\(\s*/\\\{", js), "a {placeholder} filled in the JS"
    assert not re.search(r"\.replace(All)?\(\s*[\"'`]\{", js), "a {placeholder} filled in the JS"
    # a text looked up by key takes no arguments to fill in
    assert not re.search(r"\bi18n\.t\([^()]*,", js), "i18n.t() called with arguments"
    assert re.search(r"\n  t\(key\) \{", js), "I18n.t takes a key only"
