"""The content of locales/*.json: same keys, right plural forms, placeholders, rules pages."""

# Arabic letters are real text here, not confusables.
# ruff: noqa: RUF001

from __future__ import annotations

import difflib
import json
import re
import warnings
from pathlib import Path

import pytest

from klondike_widget import i18n
from klondike_widget.engine.ratings import LEVELS
from klondike_widget.i18n import (
    CLDR_PLURAL_CATEGORIES,
    COUNT_OPTIONAL_CATEGORIES,
    LocaleCatalog,
    placeholders,
    plural_families,
)
from klondike_widget.widget.protocol import REASONS

LOCALES = ("ar", "en", "pl", "tr")
REPO = Path(__file__).resolve().parents[2]
#: Copies of the user's rules pages (``shared/seeds``) kept with the tests.
SEEDS = Path(__file__).resolve().parents[1] / "data" / "seeds"

# The contract the widget relies on (documented in klondike_widget/i18n.py). Plural families
# are listed by base name with a trailing "_*".
WIDGET_KEYS = {
    "app.title": set(),
    **{
        f"button.{b}.{part}": set()
        for b in (
            "new_deal",
            "deal_by_number",
            "restart",
            "undo",
            "redo",
            "hint",
            "finish",
            "stop",
            "solver_line",
            "rules",
            "close",
            "more",
            "keys",
            "statistics",
            "auto_complete",
        )
        for part in ("label", "tooltip")
    },
    "deal_number.label": set(),
    "deal_number.hint": set(),
    "deal_number.submit": set(),
    "option.draw.label": set(),
    "option.draw.one": set(),
    "option.draw.three": set(),
    "option.draw.tooltip": set(),
    "notice.draw_next_deal": {"mode"},
    "language.label": set(),
    "language.tooltip": set(),
    "analysis.title": set(),
    "analysis.play_from_here.label": set(),
    "analysis.play_from_here.tooltip": set(),
    "analysis.back_to_game.label": set(),
    "analysis.back_to_game.tooltip": set(),
    "review.title": set(),
    "review.losing": set(),
    "review.try_from_here.label": set(),
    "review.try_from_here.tooltip": set(),
    "button.review.label": set(),
    "button.review.tooltip": set(),
    "review.progress": {"decided", "total"},
    "review.summary.losing": {"index", "move"},
    "review.summary.none": set(),
    "review.summary.lost_start": set(),
    "review.summary.undecided": set(),
    "error.review": set(),
    **{f"settings.deal_level.{v}": set() for v in ("label", *LEVELS)},
    **{f"lesson.{b}.label": set() for b in ("hint", "show", "retry")},
    "lesson.show.tooltip": set(),
    "lesson.retry.tooltip": set(),
    "lesson.right": {"move"},
    "lesson.right_why": {"move", "why"},
    "lesson.right_line": set(),
    "lesson.going": {"move"},
    "lesson.explore": set(),
    "lesson.answer_in_cell": set(),
    "analysis.first": set(),
    "analysis.previous": set(),
    "analysis.next": set(),
    "analysis.last": set(),
    "analysis.autoplay": set(),
    "analysis.pause": set(),
    "analysis.speed": set(),
    "analysis.start": set(),
    "analysis.step": {"index", "total"},
    "counter.label.moves": set(),
    "counter.label.time": set(),
    "counter.label.stock": set(),
    "counter.label.waste": set(),
    "counter.label.score": set(),
    "counter.label.vegas_total": set(),
    "counter.moves_*": {"count"},
    "counter.stock_*": {"count"},
    "counter.waste_*": {"count"},
    "counter.deal": {"number"},
    **{
        f"status.{s}": set()
        for s in (
            "solving",
            "winnable",
            "unwinnable",
            "unwinnable_deal",
            "unknown",
            "won",
            "finishing",
            "stopped",
        )
    },
    "hint.show": {"move"},
    **{
        f"hint.unavailable.{r}": set()
        for r in ("not_solved", "pending", "no_win", "unknown", "game_over")
    },
    **{f"finish.unavailable.{r}": set() for r in ("not_solved", "no_win", "unknown")},
    "win.title": set(),
    "win.message_*": {"count", "time"},
    **{f"reject.{code}": set() for code in REASONS},
    "reject.other": {"code"},
    "dialog.confirm_new_deal": set(),
    "dialog.confirm_restart": set(),
    "dialog.confirm_reset_stats": set(),
    "dialog.ok": set(),
    "dialog.cancel": set(),
    "error.solver": set(),
    "error.generic": {"detail"},
    "announce.draw_*": {"count", "card"},
    "announce.recycle": set(),
    "announce.waste_to_column": {"card", "column"},
    "announce.waste_to_foundation": {"card"},
    "announce.column_to_foundation": {"card", "from"},
    "announce.column_to_column": {"card", "from", "to"},
    "announce.run_to_column_*": {"card", "count", "from", "to"},
    "announce.foundation_to_column": {"card", "column"},
    "announce.flip": {"card", "column"},
    "announce.select": {"card"},
    "announce.undo": {"move"},
    "announce.redo": {"move"},
    "announce.new_deal": {"number"},
    "announce.restart": {"number"},
    "announce.win": set(),
    "announce.step": {"step", "move"},
    "announce.finishing_*": {"count"},
    "move.draw": set(),
    "move.recycle": set(),
    "move.waste_to_column": {"card", "target", "column"},
    "move.waste_to_empty_column": {"card", "column"},
    "move.waste_to_foundation": {"card"},
    "move.column_to_foundation": {"card", "from"},
    "move.column_to_column": {"card", "from", "target", "to"},
    "move.column_to_empty_column": {"card", "from", "to"},
    "move.run_to_column_*": {"card", "count", "from", "target", "to"},
    "move.run_to_empty_column_*": {"card", "count", "from", "to"},
    "move.foundation_to_column": {"card", "target", "column"},
    "move.foundation_to_empty_column": {"card", "column"},
    "narrate.reveal": {"card"},
    "narrate.empty": {"column"},
    "narrate.king": {"card", "column"},
    "narrate.frees": {"card"},
    "narrate.foundation": {"card"},
    "narrate.stock_until_*": {"card", "count"},
    "narrate.turn_over_*": {"count"},
    "pile.stock": set(),
    "pile.waste": set(),
    "pile.foundation": {"suit"},
    "pile.column": {"column"},
    "pile.empty": set(),
    "pile.cards_*": {"count"},
    "pile.face_down_*": {"count"},
    "card.label": {"rank", "suit"},
    "card.face_down": set(),
    # Names for assistive technology (screen readers): the table, the line's steps, the marks.
    "a11y.board": set(),
    "a11y.line_list": set(),
    **{
        f"a11y.mark.{m}": set()
        for m in ("picked", "target", "hint_from", "hint_to", "next_from", "next_to")
    },
    **{f"card.rank.{r}": set() for r in range(13)},
    **{f"card.suit.{s}": set() for s in range(4)},
    "settings.title": set(),
    "settings.mirror.label": set(),
    "settings.mirror.auto": set(),
    "settings.mirror.on": set(),
    "settings.mirror.off": set(),
    "settings.animation.label": set(),
    "settings.animation.off": set(),
    "settings.animation.slow": set(),
    "settings.animation.normal": set(),
    "settings.animation.fast": set(),
    **{f"settings.back.{b}": set() for b in ("label", "lattice", "waves", "stars")},
    "settings.analysis.label": set(),
    **{
        f"keys.{k}": set()
        for k in ("title", "arrows_lr", "arrows_ud", "enter", "escape", "help", "line", "note")
    },
    "settings.foundation_to_column.label": set(),
    # Scoring, statistics and one-click moves (klondike_widget.play).
    **{f"settings.scoring.{k}": set() for k in ("label", "standard", "vegas", "none")},
    "settings.vegas_cumulative.label": set(),
    "settings.one_click.label": set(),
    "settings.auto_safe.label": set(),
    **{
        f"stats.{k}": set()
        for k in (
            "title",
            "mode",
            "played",
            "won",
            "won_with_help",
            "lost",
            "win_rate",
            "streak",
            "best_streak",
            "best_time",
            "fewest_moves",
            "best_score",
            "vegas_total",
            "note",
            "empty",
            "off",
            "reset.label",
            "reset.tooltip",
        )
    },
    "stats.skipped": {"number"},
    "stats.error": {"detail"},
}


def raw(code: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((REPO / "locales" / f"{code}.json").read_text("utf-8"))
    return data


def strings(code: str) -> dict[str, str]:
    value = raw(code)["strings"]
    assert isinstance(value, dict)
    return value


def schema(code: str) -> dict[str, set[str]]:
    """Key -> placeholders, with plural families folded to 'base_*' -> union of placeholders."""
    s = strings(code)
    families = plural_families(s)
    out: dict[str, set[str]] = {}
    for key, value in s.items():
        base = next((b for b in families if key in {f"{b}_{c}" for c in families[b]}), None)
        name = f"{base}_*" if base else key
        out.setdefault(name, set()).update(placeholders(value))
    return out


def rules_text(code: str) -> str:
    rules = raw(code)["rules"]
    assert isinstance(rules, dict)
    return "\n".join(
        [rules["title"]] + [t for s in rules["sections"] for t in [s["heading"], *s["paragraphs"]]]
    )


def all_texts(code: str) -> list[str]:
    return [*strings(code).values(), *rules_text(code).split("\n")]


def test_the_four_locales_are_shipped() -> None:
    assert i18n.available_locales() == LOCALES
    assert sorted(p.stem for p in (REPO / "locales").glob("*.json")) == list(LOCALES)


@pytest.mark.parametrize("code", LOCALES)
def test_every_file_loads_without_any_fallback_warning(code: str) -> None:
    catalog = LocaleCatalog([REPO / "locales"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        merged = catalog.merged_strings(code)
    assert catalog.load(code).meta.code == code
    assert set(merged) >= {k for k in strings("en") if not k.endswith(("_one", "_other"))}


@pytest.mark.parametrize("code", LOCALES)
def test_same_keys_and_placeholders_as_english(code: str) -> None:
    assert schema(code) == schema("en")


def test_english_has_every_key_the_widget_needs_and_no_other() -> None:
    # "notebook.*" keys belong to the rules notebook (klondike_widget/lessons.py, its own tests).
    widget = {k: v for k, v in schema("en").items() if not k.startswith("notebook.")}
    assert widget == WIDGET_KEYS


@pytest.mark.parametrize("code", LOCALES)
def test_plural_families_have_exactly_the_language_categories(code: str) -> None:
    meta = raw(code)["meta"]
    assert isinstance(meta, dict)
    cats = CLDR_PLURAL_CATEGORIES[code]
    assert tuple(meta["plural_categories"]) == cats
    families = plural_families(strings(code))
    assert families, "no plural families found"
    for base, found in families.items():
        assert found == cats, base


def test_declared_categories_agree_with_babel_cldr_data() -> None:
    babel = pytest.importorskip("babel")
    for code in LOCALES:
        tags = babel.Locale.parse(code).plural_form.tags | {"other"}
        assert set(CLDR_PLURAL_CATEGORIES[code]) == tags, code


@pytest.mark.parametrize("code", LOCALES)
def test_plural_forms_keep_every_placeholder(code: str) -> None:
    s = strings(code)
    for base, cats in plural_families(s).items():
        union = set().union(*(placeholders(s[f"{base}_{c}"]) for c in cats))
        assert "count" in union, f"{base}: the count placeholder selects the form"
        assert "count" in placeholders(s[f"{base}_other"]), base
        for c in cats:
            missing = union - placeholders(s[f"{base}_{c}"])
            if c in COUNT_OPTIONAL_CATEGORIES:
                missing.discard("count")
            assert not missing, f"{base}_{c} lacks {missing}"


@pytest.mark.parametrize("code", LOCALES)
def test_no_empty_or_padded_text_and_no_stray_braces(code: str) -> None:
    for value in all_texts(code):
        assert value.strip() == value and value, repr(value)
        leftover = re.sub(r"\{[a-z_][a-z0-9_]*\}", "", value)
        assert "{" not in leftover and "}" not in leftover, value


@pytest.mark.parametrize("code", LOCALES)
def test_no_html_looking_markup(code: str) -> None:
    # The front end renders with textContent: markup would show as literal characters.
    markup = re.compile(r"<[A-Za-z/!?]|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);")
    for value in all_texts(code):
        assert not markup.search(value), value


@pytest.mark.parametrize("code", LOCALES)
def test_card_names_are_52_distinct_labels(code: str) -> None:
    cards = i18n.strings_for(code)["cards"]
    assert len(cards) == 52 and len(set(cards)) == 52


def test_direction_and_native_names() -> None:
    metas = {code: raw(code)["meta"] for code in LOCALES}
    assert {c: m["dir"] for c, m in metas.items()} == {  # type: ignore[index]
        "ar": "rtl",
        "en": "ltr",
        "pl": "ltr",
        "tr": "ltr",
    }
    assert {c: m["name"] for c, m in metas.items()} == {  # type: ignore[index]
        "ar": "العربية",
        "en": "English",
        "pl": "Polski",
        "tr": "Türkçe",
    }


# -- rules pages ------------------------------------------------------------------------------

STUDY_FIGURES = {
    "en": ("0.34%", "0.52%"),
    "pl": ("0,34%", "0,52%"),
    "tr": ("%0,34", "%0,52"),
    # Western digits with a point, as the Arabic seed page and the locale's numbering "latn".
    "ar": ("0.34%", "0.52%"),
}


@pytest.mark.parametrize("code", LOCALES)
def test_rules_state_the_study_figures_in_the_locale_number_format(code: str) -> None:
    text = rules_text(code)
    for figure in STUDY_FIGURES[code]:
        assert text.count(figure) == 1, figure
    wrong = {"en": "0,34", "pl": "0.34", "tr": "0.34", "ar": "\u0660\u066b\u0663\u0664"}[code]
    assert wrong not in text


@pytest.mark.parametrize("code", LOCALES)
def test_rules_name_the_controls_as_the_widget_labels_them(code: str) -> None:
    s, text = strings(code), rules_text(code)
    for key in (
        "button.finish.label",
        "counter.label.moves",
        "option.draw.one",
        "option.draw.three",
    ):
        assert s[key] in text, key


# Each fact of the seed pages, as words that must occur in each language's rules page.
FACTS: dict[str, dict[str, list[str]]] = {
    "en": {
        "deal": ["52", "seven columns", "one card in the first", "seven in the seventh", "21"],
        "stock": ["24 cards form the stock", "four foundations", "start empty"],
        "move": ["one rank higher", "other colour", "red 9 on a black 10", "alternating"],
        "empty column": ["only by a King", "run headed by a King"],
        "flip": ["turns face up by itself"],
        "waste": ["Only the card on top of the waste", "turn the waste over", "no limit"],
        "draw 3": ["three at a time", "out of reach until the waste changes"],
        "foundations": ["single suit", "Ace", "King", "back onto a column"],
        "study": ["million deals", "winnable", "could not be won without it"],
        "win": ["all 52 cards are on the foundations", "plays a winning line"],
        "moves": ["counts every action", "each tap on the stock"],
    },
    "pl": {
        "deal": ["52 kart", "siedem kolumn", "pierwsza liczy jedną kartę", "siedem", "21"],
        "stock": ["24 nierozdanych kart", "cztery stosy bazowe", "nie leży na nich nic"],
        "move": ["o oczko starszej", "przeciwnym kolorze", "czerwona dziewiątka", "przeplatając"],
        "empty column": ["tylko królem", "na którego czele stoi król"],
        "flip": ["odwróci się sama"],
        "waste": ["wyłącznie ta z wierzchu", "stos odkryty zostaje przewrócony", "bez końca"],
        "draw 3": ["trójkami", "niedostępne"],
        "foundations": ["jednego koloru", "od asa", "na królu", "z powrotem przełożyć do kolumny"],
        "study": ["miliona rozdań", "możliwych do wygrania", "nie do wygrania"],
        "win": ["wszystkie 52 karty", "rozegrać ją zwycięsko"],
        "moves": ["każdą czynność", "każde stuknięcie w stos dobierania"],
    },
    "tr": {
        "deal": ["52 kartlık", "yedi sütun", "birincisinde bir kart", "yedi kart", "21"],
        "stock": ["24 kart çekme destesine", "dört hedef yığını", "hiçbirinde kart yoktur"],
        "move": ["bir büyük", "öteki renkten", "kırmızı 9 siyah 10'a", "renkleri değişerek"],
        "empty column": ["yalnızca papaz", "başında papaz"],
        "flip": ["kendiliğinden yüzü yukarı döner"],
        "waste": ["en üstte durandır", "açık deste olduğu gibi çevrilir", "istediğiniz kadar"],
        "draw 3": ["üçlü gruplar", "kullanılamaz"],
        "foundations": ["tek bir türün", "önce as", "en son papaz", "sütuna geri"],
        "study": ["bir milyon dağıtım", "kazanılabilir dağıtımlardan", "kazanılamaz hâle"],
        "win": ["52 kart hedef yığınlarına", "kazanan yol"],
        "moves": ["her işlemi sayar", "çekme destesine her dokunuş"],
    },
    "ar": {
        "deal": ["52 ورقة", "سبعة أعمدة", "يحمل أولها ورقة", "سبع ورقات", "الـ21"],
        "stock": ["24 ورقة", "أربع أكوام تجميع", "لا تحمل في أول اللعبة أي ورقة"],
        "move": ["رتبةً واحدة", "تخالفها في اللون", "الـ9 الحمراء", "متناوبة الألوان"],
        "empty column": ["إلا بملك", "يتصدرها ملك"],
        "flip": ["انقلبت الورقة المخفية تحتها وحدها"],
        "waste": ["لا يصلح للعب إلا ما يستقر في أعلاها", "تُقلب الأوراق المسحوبة", "بلا نهاية"],
        "draw 3": ["ثلاثًا معًا", "لا تطاله يدك"],
        "foundations": ["رمز واحد", "بالآس", "بالملك", "أن تعيدها إلى أحد الأعمدة"],
        "study": ["مليون توزيعة", "القابلة للفوز", "مستحيلًا"],
        "win": ["الأوراق الـ52 جميعها", "طريق الفوز"],
        "moves": ["كل إجراء", "كل نقرة على كومة السحب"],
    },
}


@pytest.mark.parametrize("code", LOCALES)
def test_rules_cover_every_fact_of_the_seed_pages(code: str) -> None:
    text = rules_text(code)
    missing = {fact: w for fact, words in FACTS[code].items() for w in words if w not in text}
    assert not missing


SEED_FILES = {"pl": "000_*.txt", "tr": "001_*.txt", "ar": "002_*.txt"}


def _sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?:;])\s+|\n", text)
    return [p.strip() for p in parts if len(p.strip()) > 30]


@pytest.mark.parametrize("code", sorted(SEED_FILES))
def test_rules_are_written_anew_not_copied_from_the_seed(code: str) -> None:
    seed_paths = sorted(SEEDS.glob(SEED_FILES[code]))
    assert seed_paths, f"seed page missing from {SEEDS}"
    seed = _sentences(seed_paths[0].read_text("utf-8"))
    for ours in _sentences(rules_text(code)):
        best = max(difflib.SequenceMatcher(None, ours, s).ratio() for s in seed)
        assert best < 0.85, ours
