"""Locales: the user-facing texts in English, Polish, Turkish and Arabic.

Every string the widget shows lives in ``locales/<code>.json`` (``en``, ``pl``, ``tr``, ``ar``).
This module finds, validates and caches those files, negotiates a requested language tag to an
available locale, falls back to English (with a :class:`MissingStringWarning`) for any key a
locale lacks, and builds the texts Python composes itself: screen-reader card names
(:func:`card_label`), solver-line move descriptions (:func:`describe_move`) and aria-live move
announcements (:func:`announce_move`). :func:`strings_for` returns the bundle the front end gets.

Where the files are
-------------------
``klondike_widget/locales`` (inside an installed wheel: pyproject force-includes them) is searched
first, then the repository root ``locales/`` (an editable install). The first of these folders that
holds ``en.json`` wins. Loaded files are cached per catalog (:meth:`LocaleCatalog.clear_cache`).

File format
-----------
One JSON object with exactly three members::

    {"meta":    {"code": "pl", "name": "Polski", "english_name": "Polish", "dir": "ltr",
                 "numbering": "latn", "plural_categories": ["one", "few", "many", "other"]},
     "strings": {"button.undo.label": "Cofnij", ...},
     "rules":   {"title": "...", "sections": [{"heading": "...", "paragraphs": ["...", ...]}]}}

``meta.code`` equals the file name; ``meta.name`` is the native name for the language picker;
``meta.dir`` is ``"ltr"`` or ``"rtl"`` (set ``dir`` and ``lang`` on the widget root);
``meta.numbering`` is the CLDR numbering system to format numbers with (``"latn"`` everywhere: the
Arabic texts use Western digits, as the Arabic rules page does, so build number formats as
``new Intl.NumberFormat(meta.code, {numberingSystem: meta.numbering})``);
``meta.plural_categories`` are the CLDR plural categories of the language.

Strings are plain text, never HTML: the front end puts them in the page with ``textContent`` (or
``setAttribute`` for ``aria-label``/``title``), so ``<`` or ``&`` would show literally.
Placeholders are ``{name}`` (lower-case ASCII); they are the same in every language for a key.

Plural families
---------------
A key ending in ``_zero``, ``_one``, ``_two``, ``_few``, ``_many`` or ``_other`` is one form of a
plural family ``<base>_<category>``; each file holds exactly its language's categories (English
and Turkish ``one``/``other``; Polish ``one``/``few``/``many``/``other``; Arabic all six). The
number that selects the form is always the ``{count}`` placeholder.

A form may leave out ``{count}`` only in the ``zero``/``one``/``two`` categories (Arabic writes
"حركتان", "two moves", with no digit); every other placeholder appears in every form.
:func:`plural_category` implements the CLDR rules, :func:`plural_text` picks and fills the form.

Texts are composed on one side only, here: the widget's front end never fills a template nor
picks a plural form. It looks fixed labels up by key and gets every text with a number or a name
in it finished (``view["texts"]``, see :mod:`klondike_widget.widget.texts`). Whole numbers are
written as the browser's ``Intl.NumberFormat`` writes them (:mod:`klondike_widget.i18n.numbers`).

Key schema (flat dotted keys; ``*`` marks a plural family, ``{...}`` its placeholders)
-------------------------------------------------------------------------------------
- ``app.title``
- Buttons, each ``.label`` and ``.tooltip``: ``button.new_deal``, ``button.deal_by_number``,
  ``button.restart``, ``button.undo``, ``button.redo``, ``button.hint``, ``button.finish``,
  ``button.stop``, ``button.solver_line``, ``button.rules``, ``button.close``,
  ``button.more``, ``button.keys``, ``button.statistics``, ``button.auto_complete``.
- Deal-number input: ``deal_number.label``, ``deal_number.hint``, ``deal_number.submit``.
- Draw mode: ``option.draw.label``, ``option.draw.one``, ``option.draw.three``,
  ``option.draw.tooltip``. Language picker: ``language.label``, ``language.tooltip``.
- Solver-line panel: ``analysis.title``, ``analysis.play_from_here.label``/``.tooltip``,
  ``analysis.back_to_game.label``/``.tooltip``, ``analysis.first``, ``analysis.previous``,
  ``analysis.next``, ``analysis.last``, ``analysis.autoplay``, ``analysis.pause``,
  ``analysis.speed``, ``analysis.start``, ``analysis.step`` {index} {total}.
- Counters: ``counter.label.moves``, ``counter.label.time``, ``counter.label.stock``,
  ``counter.label.waste``, ``counter.label.score``, ``counter.label.vegas_total``,
  ``counter.moves_*`` {count}, ``counter.stock_*`` {count},
  ``counter.waste_*`` {count}, ``counter.deal`` {number}.
- Status: ``status.solving``, ``status.winnable``, ``status.unwinnable``, ``status.unknown``,
  ``status.won``, ``status.finishing``, ``status.stopped``.
- Hints and Finish: ``hint.show`` {move}; ``hint.unavailable.<reason>`` for ``not_solved``,
  ``no_win``, ``unknown``, ``game_over``; ``finish.unavailable.<reason>`` for ``not_solved``,
  ``no_win``, ``unknown``.
- Win: ``win.title``, ``win.message_*`` {count} {time} (``time`` preformatted, e.g. ``4:05``).
- Rejections, ``reject.<code>`` for the codes ``illegal_move``, ``stale``, ``malformed``,
  ``unknown_intent``, ``busy``, ``game_over``, ``nothing_to_undo``, ``nothing_to_redo``,
  ``invalid_deal_number``, ``unknown_locale``; ``reject.other`` {code} for any other code.
- Dialogs and errors: ``dialog.confirm_new_deal``, ``dialog.confirm_restart``,
  ``dialog.confirm_reset_stats``, ``dialog.ok``,
  ``dialog.cancel``, ``error.solver``, ``error.generic`` {detail}.
- Announcements (aria-live; :func:`announce_move` fills the move ones): ``announce.draw_*``
  {count} {card}, ``announce.recycle``, ``announce.waste_to_column`` {card} {column},
  ``announce.waste_to_foundation`` {card}, ``announce.column_to_foundation`` {card} {from},
  ``announce.column_to_column`` {card} {from} {to}, ``announce.run_to_column_*`` {card} {count}
  {from} {to} (``count`` = cards above the first), ``announce.foundation_to_column`` {card}
  {column}, ``announce.flip`` {card} {column}, ``announce.select`` {card}, ``announce.undo``
  {move}, ``announce.redo`` {move}, ``announce.new_deal`` {number}, ``announce.restart``
  {number}, ``announce.win``.
- Move descriptions (solver lines and hints; :func:`describe_move` fills them; cards as symbols
  such as ``9♥``): ``move.draw``, ``move.recycle``, ``move.waste_to_column`` {card} {target}
  {column}, ``move.waste_to_empty_column`` {card} {column}, ``move.waste_to_foundation`` {card},
  ``move.column_to_foundation`` {card} {from}, ``move.column_to_column`` {card} {from} {target}
  {to}, ``move.column_to_empty_column`` {card} {from} {to}, ``move.run_to_column_*`` {card}
  {count} {from} {target} {to}, ``move.run_to_empty_column_*`` {card} {count} {from} {to},
  ``move.foundation_to_column`` {card} {target} {column}, ``move.foundation_to_empty_column``
  {card} {column}.
- Piles (screen readers): ``pile.stock``, ``pile.waste``, ``pile.foundation`` {suit},
  ``pile.column`` {column}, ``pile.empty``, ``pile.cards_*`` {count}, ``pile.face_down_*``
  {count}.
- Cards: ``card.label`` {rank} {suit}, ``card.face_down``, ``card.rank.0`` .. ``card.rank.12``
  (Ace .. King, in the form ``card.label`` needs), ``card.suit.0`` .. ``card.suit.3`` (clubs,
  diamonds, hearts, spades). :func:`strings_for` also gives all 52 labels ready-made.
- Settings: ``settings.title``, ``settings.mirror.label``, ``settings.mirror.auto``,
  ``settings.mirror.on``, ``settings.mirror.off``, ``settings.animation.label``,
  ``settings.animation.off``, ``settings.animation.slow``, ``settings.animation.normal``,
  ``settings.animation.fast``, ``settings.foundation_to_column.label``; scoring and one-click
  moves: ``settings.scoring.label``/``.standard``/``.vegas``/``.none``,
  ``settings.vegas_cumulative.label``, ``settings.one_click.label``, ``settings.auto_safe.label``.
- Statistics panel: ``stats.title``, ``stats.mode``, the columns ``stats.played``, ``stats.won``,
  ``stats.won_with_help``, ``stats.lost``, ``stats.win_rate``, ``stats.streak``,
  ``stats.best_streak``, ``stats.best_time``, ``stats.fewest_moves``, ``stats.best_score``,
  ``stats.vegas_total``; ``stats.note``, ``stats.empty``, ``stats.off``, ``stats.skipped``
  {number}, ``stats.error`` {detail}, ``stats.reset.label``/``.tooltip``.

Examples
--------
>>> available_locales()
('ar', 'en', 'pl', 'tr')
>>> negotiate_locale("pl_PL"), negotiate_locale("AR-eg"), negotiate_locale(["fr-FR", "tr"])
('pl', 'ar', 'tr')
>>> text("button.undo.label", "pl")
'Cofnij'
>>> plural_text("counter.moves", 22, "pl"), plural_text("counter.moves", 25, "pl")
('22 ruchy', '25 ruchów')
>>> card_label(34, "en"), card_label(34, "pl"), card_label(34, "tr")
('nine of hearts', 'dziewiątka kier', 'kupa dokuzu')
"""

from __future__ import annotations

from klondike_widget.i18n.catalog import (
    DEFAULT_LOCALE,
    Locale,
    LocaleCatalog,
    LocaleFileError,
    LocaleMeta,
    MissingStringWarning,
    available_locales,
    default_catalog,
    load_locale,
    negotiate_locale,
    plural_text,
    strings_for,
    text,
)
from klondike_widget.i18n.describe import announce_move, card_label, describe_move
from klondike_widget.i18n.plural import (
    CLDR_PLURAL_CATEGORIES,
    COUNT_OPTIONAL_CATEGORIES,
    PLURAL_CATEGORIES,
    UnknownLocaleError,
    family_problem,
    format_template,
    placeholders,
    plural_category,
    plural_families,
)

__all__ = [
    "CLDR_PLURAL_CATEGORIES",
    "COUNT_OPTIONAL_CATEGORIES",
    "DEFAULT_LOCALE",
    "PLURAL_CATEGORIES",
    "Locale",
    "LocaleCatalog",
    "LocaleFileError",
    "LocaleMeta",
    "MissingStringWarning",
    "UnknownLocaleError",
    "announce_move",
    "available_locales",
    "card_label",
    "default_catalog",
    "describe_move",
    "format_template",
    "load_locale",
    "negotiate_locale",
    "placeholders",
    "plural_category",
    "plural_families",
    "family_problem",
    "plural_text",
    "strings_for",
    "text",
]
