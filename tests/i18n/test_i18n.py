"""klondike_widget.i18n: loading, negotiation, fallbacks, plural rules, card and move texts."""

from __future__ import annotations

import json
import random
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from klondike_widget import i18n
from klondike_widget.engine.cards import InvalidCardError, parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.errors import IllegalMoveError
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import (
    LocaleCatalog,
    LocaleFileError,
    MissingStringWarning,
    UnknownLocaleError,
    announce_move,
    card_label,
    describe_move,
    negotiate_locale,
    plural_category,
    plural_text,
    strings_for,
)

REPO = Path(__file__).resolve().parents[2]
LOCALES = ("ar", "en", "pl", "tr")
LRI, PDI = "\u2066", "\u2069"


# -- negotiation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("requested", "expected"),
    [
        ("pl", "pl"),
        ("pl-PL", "pl"),
        ("pl_PL", "pl"),
        ("PL_pl", "pl"),
        ("pl_PL.UTF-8", "pl"),
        ("pl_PL@euro", "pl"),
        ("ar-EG", "ar"),
        ("AR", "ar"),
        ("ar_SA", "ar"),
        ("en-US", "en"),
        ("EN-gb", "en"),
        ("tr-TR", "tr"),
        (" tr ", "tr"),
        (["fr-FR", "de", "tr-TR", "en"], "tr"),
        (("xx", "ar-EG"), "ar"),
    ],
)
def test_negotiation(requested: str | list[str], expected: str) -> None:
    assert negotiate_locale(requested) == expected


@pytest.mark.parametrize("requested", ["fr", "", "zh-Hant-TW", "english", "p", ["de", "fr"]])
def test_unknown_locale_error_lists_the_available_ones(requested: str | list[str]) -> None:
    with pytest.raises(UnknownLocaleError) as info:
        negotiate_locale(requested)
    assert isinstance(info.value, ValueError)
    assert info.value.available == LOCALES
    assert "available locales: ar, en, pl, tr" in str(info.value)


def test_non_string_tags_are_rejected_clearly() -> None:
    with pytest.raises(UnknownLocaleError):
        negotiate_locale([42])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        plural_category(1, 42)  # type: ignore[arg-type]


def test_every_public_function_accepts_region_tags() -> None:
    assert i18n.text("button.undo.label", "pl-PL") == "Cofnij"
    assert card_label(parse_card("9h"), "tr_TR") == "kupa dokuzu"
    assert strings_for("AR-eg")["meta"]["code"] == "ar"
    with pytest.raises(UnknownLocaleError):
        card_label(0, "fr")


# -- plural rules -----------------------------------------------------------------------------


def test_plural_category_examples() -> None:
    pl = [plural_category(n, "pl") for n in (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 102, 112)]
    assert pl == [
        "many",
        "one",
        "few",
        "few",
        "many",
        "many",
        "many",
        "many",
        "many",
        "few",
        "many",
        "few",
        "many",
    ]
    ar = [plural_category(n, "ar") for n in (0, 1, 2, 3, 10, 11, 99, 100, 101, 102, 103, 111)]
    assert ar == [
        "zero",
        "one",
        "two",
        "few",
        "few",
        "many",
        "many",
        "other",
        "other",
        "other",
        "few",
        "many",
    ]
    assert [plural_category(n, "en") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category(n, "tr") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert plural_category(-1, "en") == "one"
    assert plural_category(1.0, "en") == "one"  # a float has no visible decimals, as in JS
    assert plural_category(Decimal("1.0"), "en") == "other"
    assert plural_category(Decimal("1.0"), "tr") == "one"  # Turkish looks at n, not v
    assert plural_category(1.5, "pl") == "other"
    assert plural_category(Decimal("3.0"), "ar") == "few"  # n % 100 = 3 holds for 3.0


def test_plural_category_matches_babel_cldr_rules() -> None:
    babel = pytest.importorskip("babel")
    numbers: list[int | Decimal] = list(range(1300))
    numbers += [Decimal(s) for s in ("0.0", "0.5", "1.0", "1.5", "2.0", "2.25", "3.0", "10.5")]
    numbers += [Decimal(s) for s in ("11.0", "12.5", "100.0", "101.0", "102.5", "1000000")]
    for code in LOCALES:
        rule = babel.Locale.parse(code).plural_form
        for n in numbers:
            assert plural_category(n, code) == rule(n), (code, n)


def test_plural_category_rejects_non_numbers() -> None:
    with pytest.raises(TypeError):
        plural_category(True, "en")
    with pytest.raises(TypeError):
        plural_category("3", "en")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="finite"):
        plural_category(float("nan"), "ar")
    with pytest.raises(UnknownLocaleError):
        plural_category(1, "de")


def test_plural_text_picks_the_right_form() -> None:
    assert [plural_text("counter.moves", n, "pl") for n in (1, 3, 5, 22)] == [
        "1 ruch",
        "3 ruchy",
        "5 ruchów",
        "22 ruchy",
    ]
    assert [plural_text("counter.moves", n, "en") for n in (0, 1, 2)] == [
        "0 moves",
        "1 move",
        "2 moves",
    ]
    assert [plural_text("counter.moves", n, "ar") for n in (0, 1, 2, 3, 11, 100)] == [
        "لا حركات بعد",
        "حركة واحدة",
        "حركتان",
        "3 حركات",
        "11 حركة",
        "100 حركة",
    ]
    assert plural_text("win.message", 87, "tr", time="4:05") == "Kazandınız! 87 hamle, süre 4:05."


# -- loading, validation, fallbacks ----------------------------------------------------------


def test_default_catalog_finds_the_repository_or_package_locales() -> None:
    package = Path(i18n.__file__).resolve().parent.parent
    assert i18n.default_catalog.directory in (package / "locales", REPO / "locales")


def test_package_folder_is_searched_before_the_repository_root(tmp_path: Path) -> None:
    first, second = tmp_path / "pkg", tmp_path / "repo"
    first.mkdir()
    shutil.copytree(REPO / "locales", second)
    catalog = LocaleCatalog([first, second])
    assert catalog.directory == second  # the first folder has no en.json
    shutil.copy(REPO / "locales" / "en.json", first / "en.json")
    assert catalog.directory == first
    assert catalog.available() == ("en",)


def test_loaded_files_are_cached_until_cleared() -> None:
    catalog = LocaleCatalog([REPO / "locales"])
    first = catalog.load("pl")
    assert catalog.load("pl-PL") is first
    catalog.clear_cache()
    assert catalog.load("pl") is not first
    assert catalog.load("pl") == first


def _copy_locales(tmp_path: Path) -> Path:
    target = tmp_path / "locales"
    shutil.copytree(REPO / "locales", target)
    return target


def _edit(path: Path, change: object) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")


def test_missing_key_falls_back_to_english_with_a_warning(tmp_path: Path) -> None:
    folder = _copy_locales(tmp_path)

    def damage(data: dict[str, dict[str, str]]) -> None:
        s = data["strings"]
        del s["button.undo.label"]
        for cat in ("one", "few", "many", "other"):
            del s[f"counter.stock_{cat}"]
        s["button.redo.label"] = "Ponów {what}"  # a placeholder English does not have

    _edit(folder / "pl.json", damage)
    catalog = LocaleCatalog([folder])
    with pytest.warns(MissingStringWarning) as record:
        merged = catalog.merged_strings("pl")
    message = str(record[0].message)
    assert "button.undo.label" in message
    assert "counter.stock_*" in message
    assert "button.redo.label" in message
    assert merged["button.undo.label"] == "Undo"
    assert merged["button.redo.label"] == "Redo"
    assert merged["button.hint.label"] == "Podpowiedź"
    # English forms of the family stand in; the browser's "few" falls back to "_other".
    assert "counter.stock_few" not in merged
    assert merged["counter.stock_other"] == "{count} cards left"
    assert catalog.plural_text("counter.stock", 3, "pl") == "3 cards left"
    assert catalog.text("button.undo.label", "pl") == "Undo"
    bundle = catalog.strings_for("pl")
    assert bundle["strings"]["button.undo.label"] == "Undo"


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s.pop("counter.moves_few"),
        lambda s: s.update({"counter.moves_two": "{count} ruchy"}),
        lambda s: s.update({"counter.moves_few": "ruchy"}),
        lambda s: s.update({"win.message_few": "{count} ruchy"}),
    ],
)
def test_a_faulty_plural_family_falls_back_to_english(tmp_path: Path, change: object) -> None:
    folder = _copy_locales(tmp_path)
    _edit(folder / "pl.json", lambda d: change(d["strings"]))  # type: ignore[operator]
    catalog = LocaleCatalog([folder])
    with pytest.warns(MissingStringWarning, match=r"wrong plural forms or placeholders in \w+"):
        merged = catalog.merged_strings("pl")
    family = "win.message" if "win.message_few" not in merged else "counter.moves"
    assert f"{family}_few" not in merged
    assert merged[f"{family}_other"] == catalog.merged_strings("en")[f"{family}_other"]
    assert catalog.load("pl").meta.code == "pl"  # the rest of the locale still works
    assert catalog.text("button.undo.label", "pl") == "Cofnij"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.pop("counter.moves_one"), "plural family 'counter.moves'"),
        (lambda s: s.update({"counter.moves_few": "x"}), "needs exactly"),
        (lambda s: s.update({"win.message_one": "{count} move"}), "lacks placeholders"),
    ],
)
def test_english_plural_families_must_be_consistent(
    tmp_path: Path, change: object, message: str
) -> None:
    folder = _copy_locales(tmp_path)
    _edit(folder / "en.json", lambda d: change(d["strings"]))  # type: ignore[operator]
    with pytest.raises(LocaleFileError, match=message):
        LocaleCatalog([folder]).load("en")


def test_a_key_unknown_everywhere_shows_the_key_not_a_blank() -> None:
    with pytest.warns(MissingStringWarning, match="no.such.key"):
        assert i18n.text("no.such.key", "pl") == "no.such.key"
    with pytest.warns(MissingStringWarning, match="no.such.family"):
        assert plural_text("no.such.family", 2, "ar") == "no.such.family"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(extra=1), "expected an object with keys"),
        (lambda d: d["meta"].update(dir="up"), "meta.dir"),
        (lambda d: d["meta"].update(code="en"), "does not match the file name"),
        (lambda d: d["meta"].update(plural_categories=["other", "one"]), "plural_categories"),
        (lambda d: d["strings"].update({"button.undo.label": "  "}), "non-empty string"),
        (lambda d: d["strings"].update({"Bad Key": "x"}), "bad key"),
        (lambda d: d["rules"]["sections"].append({"heading": "x"}), "'rules' must be"),
        (lambda d: d["rules"].update(title=""), "'rules' must be"),
    ],
)
def test_malformed_files_are_rejected_with_the_reason(
    tmp_path: Path, change: object, message: str
) -> None:
    folder = _copy_locales(tmp_path)
    _edit(folder / "pl.json", change)
    with pytest.raises(LocaleFileError, match=message) as info:
        LocaleCatalog([folder]).load("pl")
    assert isinstance(info.value, ValueError)
    assert "pl.json" in str(info.value)


def test_invalid_json_and_missing_english_are_clear_errors(tmp_path: Path) -> None:
    folder = _copy_locales(tmp_path)
    (folder / "tr.json").write_text("{not json", "utf-8")
    with pytest.raises(LocaleFileError, match="not valid UTF-8 JSON"):
        LocaleCatalog([folder]).load("tr")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(LocaleFileError, match=r"no en\.json"):
        LocaleCatalog([empty]).available()


def test_strings_for_bundle() -> None:
    bundle = strings_for("pl")
    assert set(bundle) == {"meta", "strings", "rules", "cards", "selected", "available"}
    assert bundle["meta"] == {
        "code": "pl",
        "name": "Polski",
        "english_name": "Polish",
        "dir": "ltr",
        "numbering": "latn",
        "plural_categories": ["one", "few", "many", "other"],
    }
    assert bundle["strings"]["counter.moves_few"] == "{count} ruchy"
    assert bundle["cards"][parse_card("9h")] == "dziewiątka kier"
    assert bundle["selected"][parse_card("9h")] == "Wybrano: dziewiątka kier."
    assert len(bundle["selected"]) == 52
    assert [a["code"] for a in bundle["available"]] == list(LOCALES)
    assert {a["code"]: a["dir"] for a in bundle["available"]}["ar"] == "rtl"
    assert bundle["rules"]["title"] == "Jak grać w Klondike"
    assert json.loads(json.dumps(bundle)) == bundle
    bundle["strings"]["button.undo.label"] = "changed"
    bundle["rules"]["title"] = "changed"
    assert strings_for("pl")["strings"]["button.undo.label"] == "Cofnij"
    assert strings_for("pl")["rules"]["title"] == "Jak grać w Klondike"


# -- card names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        ("9h", {"en": "nine of hearts", "pl": "dziewiątka kier", "tr": "kupa dokuzu"}),
        ("As", {"en": "ace of spades", "pl": "as pik", "tr": "maça ası", "ar": "آس البستوني"}),
        (
            "Qh",
            {"en": "queen of hearts", "pl": "dama kier", "tr": "kupa kızı", "ar": "ملكة القلوب"},
        ),
        ("Kd", {"en": "king of diamonds", "pl": "król karo", "tr": "karo papazı"}),
        ("Jc", {"en": "jack of clubs", "pl": "walet trefl", "tr": "sinek valesi"}),
        ("Tc", {"en": "ten of clubs", "pl": "dziesiątka trefl", "tr": "sinek onu"}),
        ("4s", {"pl": "czwórka pik", "tr": "maça dördü", "ar": "أربعة البستوني"}),
        ("9h", {"ar": "تسعة القلوب"}),
    ],
)
def test_card_label(card: str, expected: dict[str, str]) -> None:
    for code, label in expected.items():
        assert card_label(parse_card(card), code) == label


@pytest.mark.parametrize("bad", [-1, 52, True, "9h", 3.0])
def test_card_label_rejects_non_cards(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        card_label(bad, "en")  # type: ignore[arg-type]


# -- moves ------------------------------------------------------------------------------------


def _c(text: str) -> int:
    return parse_card(text)


def showcase_state(rules: Rules | None = None) -> GameState:
    """A position with one example of each brief case.

    Column 1 empty; column 2: K♠; column 3: (down) 9♥; column 4: (down) K♥ Q♣ J♥ 10♣;
    column 6: 10♠; diamonds foundation up to the Q♦; waste top A♠.
    """
    fixed = {_c(t) for t in ("Ks", "9h", "Kh", "Qc", "Jh", "Tc", "Ts", "As")}
    fixed |= {_c(f"{r}d") for r in "A23456789TJQ"}
    rest = [c for c in range(52) if c not in fixed]
    down3, down4, col5, col7 = rest[0], rest[1], rest[2], rest[3]
    waste = (rest[4], _c("As"))
    stock = tuple(rest[5:])
    columns = [
        (),
        (_c("Ks"),),
        (down3, _c("9h")),
        (down4, _c("Kh"), _c("Qc"), _c("Jh"), _c("Tc")),
        (col5,),
        (_c("Ts"),),
        (col7,),
    ]
    return GameState(
        columns,
        [0, 0, 1, 1, 0, 0, 0],
        stock=stock,
        waste=waste,
        foundations=(0, 12, 0, 0),
        rules=rules or Rules(),
    )


SHOWCASE = {
    "t3-t6": {
        "en": "9♥ from column 3 onto 10♠ in column 6",
        "pl": "9♥ z kolumny 3 na 10♠ w kolumnie 6",
        "tr": "9♥ 3. sütundan 6. sütundaki 10♠ kartının üzerine",
        "ar": f"{LRI}9♥{PDI} من العمود 3 فوق {LRI}10♠{PDI} في العمود 6",
    },
    "w-f": {
        "en": "A♠ from the waste to the foundation",
        "pl": "A♠ ze stosu odkrytego na stos bazowy",
        "tr": "A♠ açık desteden hedef yığınına",
        "ar": f"{LRI}A♠{PDI} من الأوراق المسحوبة إلى كومة التجميع",
    },
    "fd-t2": {
        "en": "Q♦ from the foundation onto K♠ in column 2",
        "pl": "Q♦ ze stosu bazowego na K♠ w kolumnie 2",
        "tr": "Q♦ hedef yığınından 2. sütundaki K♠ kartının üzerine",
        "ar": f"{LRI}Q♦{PDI} من كومة التجميع فوق {LRI}K♠{PDI} في العمود 2",
    },
    "t4:4-t1": {
        "en": "K♥ and 3 cards from column 4 to empty column 1",
        "pl": "K♥ i 3 karty z kolumny 4 do pustej kolumny 1",
        "tr": "K♥ ve üstündeki 3 kart, 4. sütundan boş 1. sütuna",
        "ar": f"{LRI}K♥{PDI} مع 3 ورقات أخرى من العمود 4 إلى العمود الفارغ رقم 1",
    },
    "t2-t1": {
        "en": "K♠ from column 2 to empty column 1",
        "pl": "K♠ z kolumny 2 do pustej kolumny 1",
        "tr": "K♠ 2. sütundan boş 1. sütuna",
        "ar": f"{LRI}K♠{PDI} من العمود 2 إلى العمود الفارغ رقم 1",
    },
    "s": {
        "en": "tap the stock",
        "pl": "stuknij stos dobierania",
        "tr": "çekme destesine dokunun",
        "ar": "انقر كومة السحب",
    },
}


def test_showcase_moves_are_legal_in_the_showcase_state() -> None:
    state = showcase_state()
    for text in SHOWCASE:
        assert Move.parse(text) in state.legal_moves, text


@pytest.mark.parametrize("move", sorted(SHOWCASE))
@pytest.mark.parametrize("code", LOCALES)
def test_describe_move_exact_texts(move: str, code: str) -> None:
    assert describe_move(showcase_state(), Move.parse(move), code) == SHOWCASE[move][code]


def test_run_of_two_uses_the_one_form() -> None:
    state = showcase_state()
    cols = list(state.columns)
    cols[3] = (cols[3][0], _c("Kh"), _c("Qc"))
    cols[6] = (*cols[6], _c("Jh"), _c("Tc"))
    state = state.replace(columns=tuple(cols), face_down=(0, 0, 1, 1, 0, 0, 1))
    expected = {
        "en": "K♥ and 1 card from column 4 to empty column 1",
        "pl": "K♥ i 1 karta z kolumny 4 do pustej kolumny 1",
        "tr": "K♥ ve üstündeki 1 kart, 4. sütundan boş 1. sütuna",
        "ar": f"{LRI}K♥{PDI} مع ورقة أخرى من العمود 4 إلى العمود الفارغ رقم 1",
    }
    for code, text in expected.items():
        assert describe_move(state, Move.parse("t4:2-t1"), code) == text


def test_recycle_is_described() -> None:
    state = showcase_state()
    empty_stock = state.replace(stock=(), waste=state.stock + state.waste)
    expected = {
        "en": "turn the waste over",
        "pl": "odwróć stos odkryty",
        "tr": "açık desteyi ters çevirin",
        "ar": "اقلب الأوراق المسحوبة إلى كومة السحب",
    }
    for code, text in expected.items():
        assert describe_move(empty_stock, Move.recycle(), code) == text
    assert announce_move(empty_stock, Move.recycle(), "en") == (
        "The waste was turned over into the stock."
    )


def test_describe_move_refuses_illegal_moves() -> None:
    state = showcase_state()
    with pytest.raises(IllegalMoveError):
        describe_move(state, Move.recycle(), "en")
    with pytest.raises(IllegalMoveError):
        announce_move(state, Move.parse("t3-t2"), "pl")
    with pytest.raises(TypeError):
        describe_move(state, "t3-t6", "en")  # type: ignore[arg-type]


def test_announce_move_uses_spoken_names_and_reports_flips() -> None:
    state = showcase_state()
    run = Move.parse("t4:4-t1")
    flipped = state.apply(run).columns[3][-1]
    expected = {
        "en": "King of hearts and 3 more cards from column 4 to column 1. "
        f"Turned face up in column 4: {card_label(flipped, 'en')}.",
        "pl": "Król kier i jeszcze 3 karty z kolumny 4 do kolumny 1. "
        f"Odkryta karta w kolumnie 4: {card_label(flipped, 'pl')}.",
        "tr": "Kupa papazı ve üstündeki 3 kart, 4. sütundan 1. sütuna. "
        f"4. sütunda açılan kart: {card_label(flipped, 'tr')}.",
        "ar": "ملك القلوب مع 3 ورقات أخرى، من العمود 4 إلى العمود 1. "
        f"الورقة المكشوفة في العمود 4: {card_label(flipped, 'ar')}.",
    }
    for code, text in expected.items():
        assert announce_move(state, run, code) == text
    assert (
        announce_move(state, Move.parse("w-f"), "pl") == "As pik ze stosu odkrytego na stos bazowy."
    )
    assert (
        announce_move(state, Move.parse("fd-t2"), "ar")
        == "ملكة الديناري من كومة التجميع إلى العمود 2."
    )


def test_announce_draw_names_the_new_waste_top_and_counts_cards() -> None:
    three = showcase_state(Rules(draw=3))
    top = three.apply(Move.draw()).waste[-1]
    assert announce_move(three, Move.draw(), "en") == (
        f"3 cards turned onto the waste; {card_label(top, 'en')} is on top."
    )
    assert announce_move(three, Move.draw(), "pl").startswith("Odkryto 3 karty, na wierzchu: ")
    assert announce_move(three, Move.draw(), "ar").startswith("قُلبت 3 ورقات")
    two_left = three.replace(stock=three.stock[:2], waste=three.stock[2:] + three.waste)
    assert announce_move(two_left, Move.draw(), "ar").startswith("قُلبت ورقتان")
    one = showcase_state()
    top1 = one.apply(Move.draw()).waste[-1]
    assert announce_move(one, Move.draw(), "tr") == (
        f"Açık desteye çevrilen kart: {card_label(top1, 'tr')}."
    )


def _random_walk(seed: int, steps: int) -> list[tuple[GameState, Move]]:
    rng = random.Random(seed)
    state = deal(seed, Rules(draw=1 + 2 * (seed % 2)))
    visited = []
    for _ in range(steps):
        moves = list(state.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        visited.append((state, move))
        state = state.apply(move)
    return visited


def test_every_move_kind_is_described_in_every_language_on_real_games() -> None:
    seen: set[tuple[MoveKind, bool, bool]] = set()
    for seed in range(12):
        for state, move in _random_walk(seed, 250):
            target_empty = (
                move.kind
                in (
                    MoveKind.WASTE_TO_COLUMN,
                    MoveKind.COLUMN_TO_COLUMN,
                    MoveKind.FOUNDATION_TO_COLUMN,
                )
                and state.top(move.target) is None
            )
            seen.add((move.kind, move.count > 1, target_empty))
            for code in LOCALES:
                text = describe_move(state, move, code)
                spoken = announce_move(state, move, code)
                for t in (text, spoken):
                    assert t and "{" not in t and "}" not in t, (str(move), code, t)
                if move.kind not in (MoveKind.DRAW, MoveKind.RECYCLE):
                    assert "♣" in text or "♦" in text or "♥" in text or "♠" in text
                    assert not any(s in spoken for s in "♣♦♥♠")
                assert (LRI in text) == (
                    code == "ar" and move.kind not in (MoveKind.DRAW, MoveKind.RECYCLE)
                )
    assert {k for k, _, _ in seen} == set(MoveKind), "the random games missed a move kind"
    assert (MoveKind.COLUMN_TO_COLUMN, True, False) in seen
