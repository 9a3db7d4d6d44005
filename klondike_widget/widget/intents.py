"""The handler table: what each intent of :data:`~klondike_widget.widget.protocol.INTENTS` does.

:func:`~klondike_widget.widget.protocol.parse_intent` checks a message; :data:`HANDLERS` maps its
kind to the function that runs it on the :class:`~klondike_widget.widget.table.Table`, called with
the checked fields as keyword arguments (a test checks that every kind has one handler whose
parameters are the kind's fields). A handler refuses with
:class:`~klondike_widget.widget.protocol.Rejected` (a reason code the front end shows in the
active language) and then changes nothing.

Examples
--------
>>> from klondike_widget.widget.host import PlainHost
>>> from klondike_widget.widget.table import Table
>>> table = Table(PlainHost(), deal=2, analyse=False, stats=False); table.open()
>>> do_undo(table)
Traceback (most recent call last):
...
klondike_widget.widget.protocol.Rejected: nothing_to_undo
>>> do_move(table, "t3-t2"); table.game.moves_count
1
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from klondike_widget import i18n
from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError
from klondike_widget.engine.line import Line
from klondike_widget.play import assist
from klondike_widget.widget.line_panel import LinePanel
from klondike_widget.widget.protocol import Intent, Rejected, parse_intent
from klondike_widget.widget.rebase import same_move

if TYPE_CHECKING:
    from klondike_widget.widget.lesson_coach import LessonCoach
    from klondike_widget.widget.table import Table

__all__ = ["HANDLERS", "Handler", "run_intent", "rebased"]

_log = logging.getLogger("klondike_widget.widget")

#: A handler: the table, then the intent's checked fields by name.
Handler = Callable[..., None]

# why a hint (or a line) is not there, by the verdict on the position
_NO_HINT = {"unwinnable": "no_win", "unknown": "unknown"}


def guard(table: Table, *, board: bool = True) -> None:
    """Refuse a play while Finish plays, a line is open, or (``board``) the game is won."""
    if table.finishing:
        raise Rejected("busy", "Finish is playing")
    if table.desk.panel is not None:
        raise Rejected("in_analysis", "a solver line is open")
    if board and table.game.is_won:
        raise Rejected("game_over")


def do_move(table: Table, move: str) -> None:
    guard(table)
    try:
        table.play_by_player(move)
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise Rejected("illegal_move", str(exc)) from None


def do_undo(table: Table) -> None:
    guard(table, board=False)
    if not table.game.can_undo:
        raise Rejected("nothing_to_undo")
    table.undo()


def do_redo(table: Table) -> None:
    guard(table, board=False)
    if not table.game.can_redo:
        raise Rejected("nothing_to_redo")
    table.redo()


def do_hint(table: Table) -> None:
    guard(table)
    if table.show_hint() is None:
        reason = _NO_HINT.get(table.analysis or "", "not_solved")
        if table.analysis == "solving":  # shown as soon as the solver's line is in
            table.hint_wanted = True
            reason = "pending"
        table.notice("hint.unavailable." + reason)


def do_finish(table: Table) -> None:
    guard(table)
    line = table.verdicts.line(table.game.state)
    if not line:
        table.notice(table.finish_block() or "finish.unavailable.not_solved")
        return
    table.tracker.helped()
    table.finisher.start(line)


def do_stop(table: Table) -> None:
    table.finisher.stop_and_say()


def do_open_line(table: Table) -> None:
    if table.finishing:
        raise Rejected("busy", "Finish is playing")
    game = table.game
    known = () if game.is_won else table.verdicts.line(game.state)
    if known:
        table.desk.show_line(Line(game.state, known))
    elif table.last_line is not None:
        table.desk.show_line(table.last_line)
    elif game.is_won:
        table.notice("hint.unavailable.game_over")
    else:
        table.notice("hint.unavailable." + _NO_HINT.get(table.analysis or "", "not_solved"))


def panel_for(table: Table, line: int) -> LinePanel:
    """The open panel, if ``line`` names it; otherwise the intent is refused."""
    panel = table.desk.panel
    if panel is None:
        raise Rejected("no_line")
    if line != panel.ident:
        raise Rejected("stale", f"line {line}, open is {panel.ident}")
    return panel


def do_step(table: Table, line: int, index: int) -> None:
    panel = panel_for(table, line)
    if index > panel.total:
        raise Rejected("step_out_of_range", f"{index} > {panel.total}")
    table.desk.step(index)


def do_autoplay(table: Table, line: int, on: bool) -> None:
    panel_for(table, line)
    table.desk.autoplay(on)


def do_play_from_here(table: Table, line: int, index: int) -> None:
    if table.finishing:
        raise Rejected("busy", "Finish is playing")
    panel = panel_for(table, line)
    if index != panel.index:
        raise Rejected("stale", f"step {index}, shown is {panel.index}")
    if not panel.review and panel.line.start != table.game.state:
        raise Rejected("line_not_current")
    table.desk.play_from_here()


def do_back_to_game(table: Table) -> None:
    if table.desk.panel is None:
        raise Rejected("no_line")
    table.desk.back_to_game()


def do_restart(table: Table) -> None:
    if table.coach is not None:  # a lesson board starts its exercise again
        do_lesson_retry(table)
        return
    table.restart()


def do_new_deal(table: Table, deal: int | None = None) -> None:
    if table.coach is not None:
        raise Rejected("in_lesson")
    table.new_deal(deal)


def do_set_deal_level(table: Table, level: str) -> None:
    table.host.deal_level = level


# the game review (widget.review_run), run in the background


def do_review(table: Table) -> None:
    if table.finishing:
        raise Rejected("busy", "Finish is playing")
    if table.desk.reviewer.run.running:
        raise Rejected("busy", "a review is running")
    if not table.desk.reviewer.start():
        raise Rejected("nothing_to_review")


# a lesson board (widget.lesson_coach)


def require_coach(table: Table) -> LessonCoach:
    """The board's lesson coach; refused with ``no_lesson`` on an ordinary board."""
    if table.coach is None:
        raise Rejected("no_lesson")
    return table.coach


def do_lesson_hint(table: Table) -> None:
    coach = require_coach(table)
    coach.hinted = True
    answer = coach.answer()
    if answer and not table.game.history and not table.finishing:
        table.set_hint(answer[0], publish=False)  # the cards of the move light up too
    table.publish()


def do_lesson_show(table: Table) -> None:
    coach = require_coach(table)
    answer = coach.answer()
    if not answer:
        raise Rejected("no_lesson", "this exercise is answered in a cell")
    table.replace_game(coach.new_game())
    coach.shown = True
    table.finisher.start(answer)  # played move by move at the pace: the cards glide


def do_lesson_retry(table: Table) -> None:
    table.replace_game(require_coach(table).new_game())


def do_set_draw(table: Table, draw: int) -> None:
    """Draw 1/3 applies now to a numbered deal not yet touched, else from the next deal."""
    table.host.draw = draw
    game = table.game
    if game.rules.draw == draw:
        return
    untouched = game.moves_count == 0 and not table.finishing and table.desk.panel is None
    if untouched and game.deal_number is not None:  # nothing to lose: deal it again now
        table.new_deal(game.deal_number)
    else:
        mode = table.text("option.draw.three" if draw == 3 else "option.draw.one")
        table.notice("notice.draw_next_deal", mode=mode)


def do_set_locale(table: Table, locale: str) -> None:
    if locale not in i18n.available_locales():
        raise Rejected("unknown_locale", locale[:16])
    table.host.locale = locale


def do_set_mirror(table: Table, mirror: str) -> None:
    table.host.mirror = mirror


def do_set_pace(table: Table, pace: int) -> None:
    table.host.pace = pace


def do_set_step_pace(table: Table, pace: int) -> None:
    table.host.step_pace = pace


def do_set_back(table: Table, back: str) -> None:
    table.host.back = back


def do_set_show_analysis(table: Table, on: bool) -> None:
    table.host.show_analysis = on


# scoring, statistics, one-click moves (klondike_widget.play)


def do_auto_complete(table: Table) -> None:
    guard(table)
    if assist.auto_complete_line(table.game.state) is None:
        raise Rejected("auto_complete_unavailable")
    table.finisher.auto_complete()


def do_set_scoring(table: Table, scoring: str) -> None:
    table.host.scoring = scoring


def do_set_option(table: Table, name: str, on: bool) -> None:
    setattr(table.host, name, on)  # one of the flags INTENTS lets through


def do_open_stats(table: Table) -> None:
    table.publish_stats(refresh=True)


def do_reset_stats(table: Table, draw: int | None = None) -> None:
    table.reset_stats(draw)


def run_intent(table: Table, content: object, buffers: object = None) -> None:
    """Check and run one intent from the front end; a refusal is sent back as a notice.

    A fresh intent (one that acts on the position) sent against an older view is rebased
    (:func:`rebased`) or refused as ``stale``; nothing raises out of here.
    """
    cid = content.get("cid") if isinstance(content, dict) else None
    cid = cid if isinstance(cid, str) and len(cid) <= 40 else None
    with table.lock:
        try:
            intent = parse_intent(content, buffers)
            if intent.spec.fresh and intent.seq != table.seq:
                intent = rebased(table, intent)
            HANDLERS[intent.kind](table, **intent.args)
        except Rejected as exc:
            table.notice("reject." + exc.reason, exc.detail, cid=cid)
        except Exception as exc:  # never let a traceback reach the user
            _log.exception("klondike-widget: intent failed")
            table.notice("error.generic", repr(exc), cid=cid, detail=type(exc).__name__)


def rebased(table: Table, intent: Intent) -> Intent:
    """A move made on an older view, as a move on the table now; else ``stale``.

    Clicks are sent at once, each stamped with the view it was made on, so a fast player
    on a slow kernel makes several on the same view. Such a move still counts when it means
    the same move now (:func:`~klondike_widget.widget.rebase.same_move`).
    """
    seen = table.seen.get(intent.seq) if intent.kind == "move" else None
    if seen is not None and table.desk.panel is None and not table.finishing:
        move = same_move(seen, table.game.state, intent.args["move"])
        if move is not None:
            return Intent(intent.kind, table.seq, {"move": str(move)}, intent.cid)
    raise Rejected("stale", f"sent against {intent.seq}, now {table.seq}")


#: Intent kind -> the function that runs it with the checked fields (one per kind of INTENTS).
HANDLERS: Mapping[str, Handler] = {
    "move": do_move,
    "undo": do_undo,
    "redo": do_redo,
    "hint": do_hint,
    "finish": do_finish,
    "stop": do_stop,
    "restart": do_restart,
    "new_deal": do_new_deal,
    "set_draw": do_set_draw,
    "set_locale": do_set_locale,
    "set_mirror": do_set_mirror,
    "set_pace": do_set_pace,
    "open_line": do_open_line,
    "review": do_review,
    "set_deal_level": do_set_deal_level,
    "lesson_hint": do_lesson_hint,
    "lesson_show": do_lesson_show,
    "lesson_retry": do_lesson_retry,
    "step": do_step,
    "autoplay": do_autoplay,
    "play_from_here": do_play_from_here,
    "back_to_game": do_back_to_game,
    "set_step_pace": do_set_step_pace,
    "set_back": do_set_back,
    "set_show_analysis": do_set_show_analysis,
    "auto_complete": do_auto_complete,
    "set_scoring": do_set_scoring,
    "set_option": do_set_option,
    "open_stats": do_open_stats,
    "reset_stats": do_reset_stats,
}
