"""What a viewer sees of a game: the template context and the rendered partials.

The same partials serve the full page, the HTMX response and the WebSocket push;
they depend only on the game and on which seats the viewer holds. The board's data
comes from the game's catalog entry; the sentences from :mod:`games.presenting.sentences`; who may
see what from :mod:`games.services.policy`. JSON and record files are :mod:`games.presenting.downloads`'.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import cache
from html import escape
from html.parser import HTMLParser
from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import ai, catalog
from games.ai.base import ActionValue
from games.formats import boards
from games.models import Game
from games.presenting import clockface, sentences
from games.runner import readiness
from games.services import chat, moderation, policy
from games.services.base import Actor

PARTIALS = ("board", "pieces", "status", "clocks", "actions", "seats", "chat")
# Without JavaScript (no pushes), a page whose computer is to move reloads itself this often.
NO_JS_REFRESH_SECONDS = 2


@cache
def piece_html(template: str, shape: Hashable) -> SafeString:
    """A piece's markup from the game's ``piece`` partial. It depends on the shape alone
    (a frozen value), so each distinct piece is rendered once per process."""
    return mark_safe(render_to_string(f"{template}#piece", {"p": shape}).strip())


def _with_piece_markup(board: dict[str, Any], template: str) -> dict[str, Any]:
    """Adds the markup (``html``) of each piece the board data lists as shown
    (``shown_pieces``: dicts with a ``shape``), from the game's ``piece`` partial."""
    for piece in board.get("shown_pieces", ()):
        piece["html"] = piece_html(template, piece["shape"])
    return board


def hint_info(value: ActionValue) -> dict[str, Any]:
    """How one analysed action is shown: an icon and words, never colour alone."""
    if value.exact and value.value is not None:
        return {
            "kind": value.value,
            "icon": {"win": "✓", "draw": "=", "loss": "✗"}[value.value],
            "words": _value_words(value.value, value.distance),
        }
    score = value.score or 0.0
    return {
        "kind": "estimate",
        "icon": "~",
        "words": _("estimate %(score)s") % {"score": sentences.signed(score)},
    }


def _value_words(value: str, plies: int | None) -> str:
    """A proved value of an action in words: "wins in 5 plies", "draws", "loses"."""
    if value == "draw":
        return pgettext("an action's proved value", "draws")
    if not plies:
        return pgettext("an action's proved value", "wins" if value == "win" else "loses")
    if value == "win":
        return ngettext("wins in %(count)d ply", "wins in %(count)d plies", plies) % {"count": plies}
    return ngettext("loses in %(count)d ply", "loses in %(count)d plies", plies) % {"count": plies}


def _control_label(label: str, words: str, best: bool, at_best: bool) -> str:
    """A control's label with its analysed value (``at_best``: the best of a two-part
    move's ends)."""
    said = {"label": label, "value": words}
    if best and at_best:
        return pgettext("a control's label", "%(label)s, best move, at best %(value)s") % said
    if best:
        return pgettext("a control's label", "%(label)s, best move, %(value)s") % said
    if at_best:
        return pgettext("a control's label", "%(label)s, at best %(value)s") % said
    return pgettext("a control's label", "%(label)s, %(value)s") % said


def annotate_controls(
    controls: Iterable[dict[str, Any]],
    values: Sequence[ActionValue],
    describe: Callable[[ActionValue], dict[str, Any]] = hint_info,
) -> ActionValue | None:
    """Each control that plays an analysed action gets its hint (``describe``'s), in its
    looks and its label, the best one marked; the best value. A two-part move's first
    part (a control with ``ends``, :mod:`games.formats.boards`) has its ends annotated
    so, and itself the best of them."""
    by_text = {v.text: v for v in values}
    best = ai.best_value(values)
    for control in controls:
        ends = control.get("ends")
        if ends:
            annotate_controls(ends, values, describe)
            value = ai.best_value([by_text[e["move"]] for e in ends if e["move"] in by_text])
        else:
            value = by_text.get(control["move"])
        if value is not None:
            control["hint"] = describe(value)
            control["is_best"] = value is best
            control["label"] = _control_label(
                control["label"], control["hint"]["words"], value is best, bool(ends)
            )
    return best


def _attach_hints(context: dict[str, Any], values: list[ActionValue]) -> None:
    """The controls' hints, and the sentence naming the best action."""
    best = annotate_controls(context.get("controls", []), values)
    if best is not None:
        named = catalog.get(context["game"].kind).words.named(context["state"], best.text)
        said = {"action": named, "value": hint_info(best)["words"]}
        context["hint_text"] = _("Hint: %(action)s (%(value)s).") % said


def game_context(
    game: Game,
    actor: Actor,
    error: str | None = None,
    hints: list[ActionValue] | None = None,
    now: datetime | None = None,
    part: str | None = None,
) -> dict[str, Any]:
    """The page's context. ``now``: the full page's moment, for the clocks' times left;
    the partials (cached and pushed) leave it out (:mod:`games.presenting.clockface`).
    ``part``: the first part of a two-part move chosen on a page without JavaScript."""
    spec = catalog.get(game.kind)
    state = game.state
    seats = game.seat_list
    mine = policy.seats_of(game, actor)
    playing = policy.is_playing(game)
    my_turn = policy.is_my_turn(game, actor)
    ai_thinking = playing and seats[state.to_move].is_ai
    context: dict[str, Any] = {
        "game": game,
        "state": state,
        "seats": seats,
        "my_seats": mine,
        "is_player": bool(mine),
        "my_turn": my_turn,
        "ai_thinking": ai_thinking,
        "ai_getting_ready": ai_thinking and readiness.getting_ready(),
        "no_js_refresh": NO_JS_REFRESH_SECONDS,
        "status_text": sentences.status_text(game, state, mine, seats),
        "last_action": sentences.last_action_text(game, state, mine, seats),
        "clocks": clockface.clock_context(game, mine, seats, now),
        "error": error,
        "you_start": mine == [0] and game.ply <= 1,
        "players": [
            {
                "seat": seat,
                "symbol": spec.symbol(seat.index),
                "is_me": seat.index in mine,
                "who": seat.called,
                # Nobody is to move once the game is over, however it ended (a timeout, a
                # resignation or an abort leaves the rules' position unfinished).
                "to_move": playing and seat.index == state.to_move,
            }
            for seat in seats
        ],
        "variant": spec.words.variant(game.options),
        "kind_template": spec.template,
        "board_template": spec.board_template,
        "pieces_template": spec.pieces_template,
    }
    if policy.may_see_invite(game, actor):
        context["invite_url"] = reverse("games:join", args=[game.invite_code])
    context.update(_with_piece_markup(spec.board_after(state, game.move_texts, my_turn), spec.template))
    context.update(action_context(game, mine, my_turn))
    context["can_hint"] = policy.can_hint(game, actor)
    context["can_chat"] = policy.can_chat(game, actor)
    context["chat_lines"] = chat.visible_lines(game)
    context["my_name"] = next((s.name for s in seats if s.index in mine and s.name), "")
    # The clock's abort has its own sentence (sentences.no_start_text).
    context["aborted"] = moderation.abort_reason(game) if game.reason != Game.Reason.NO_START else None
    context["has_review"] = spec.capabilities.review and game.ply > 0
    if hints:
        _attach_hints(context, hints)
    boards.prepare_parts(context.get("controls", ()), part)
    return context


def action_context(game: Game, mine: list[int], my_turn: bool) -> dict[str, Any]:
    """What the status line's action buttons need: which to show this viewer now."""
    seats = game.seat_list
    playing = policy.is_playing(game) and bool(mine)
    vs_computer = any(s.is_ai for s in seats)
    offers = sentences.offer_lines(game, mine, seats)
    pending = {o["kind"] for o in offers}
    moved = any(seat in mine for seat, _ in game.move_rows)
    # The opponents who have gone (their seats), for whom this player may claim the game.
    gone = [seats[i] for i in policy.gone_seats(game) if i not in mine] if playing else []
    return {
        "is_over": game.is_finished,
        "offers": offers,
        "can_resign": playing,
        # The computer declines every draw (it plays each game out): no button to ask it.
        "can_offer_draw": playing and "draw" not in pending and not vs_computer,
        "can_take_back": playing
        and policy.takeback_refusal(game) is None
        and moved
        and "takeback" not in pending
        and (my_turn or not vs_computer),
        "can_claim": bool(gone),
        "gone": gone,
        "can_rematch": game.is_finished and bool(mine) and not game.rematch_id and "rematch" not in pending,
    }


def render_partials(
    game: Game, actor: Actor, error: str | None = None, hints: list[ActionValue] | None = None
) -> str:
    """Board, pieces, status and seats as out-of-band swaps, for HTMX responses and pushes.

    Each is the page's own part (``games/game.html#board``...), put in place by id.
    """
    context = game_context(game, actor, error, hints)
    return "".join(
        format_html(
            '<div id="{}" hx-swap-oob="innerHTML">{}</div>',
            name,
            render_to_string(f"games/game.html#{name}", context),
        )
        for name in PARTIALS
    )


def presence_html(text: str) -> str:
    """The page's presence line (``games/game.html#presence``) as an out-of-band swap: the
    socket's push of what the page rendered with it (:func:`games.presenting.sentences.presence_text`)."""
    return render_to_string("games/game.html#presence", {"presence_text": text, "oob": True})


class _ReadOnlyMarkup(HTMLParser):
    """Rewrites rendered partials so that nothing in them can submit or request.

    Forms become ``div``, buttons ``span`` (classes, labels and data attributes kept, so
    the board looks the same), inputs are dropped, and so are every ``hx-*`` attribute
    and the attributes that only controls have. A plain ``span`` may not carry an
    ``aria-label``: a labelled button becomes an image of its label (``role="img"``).
    """

    RENAMED = {"form": "div", "button": "span"}
    DROPPED_TAGS = {"input", "select", "textarea"}
    CONTROL_ATTRIBUTES = {"action", "method", "type", "name", "value", "disabled", "form", "tabindex"}

    def __init__(self, marks: Mapping[str, str] | None = None) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self.marks = marks or {}

    def _marked(self, attrs: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
        """A control that plays a marked action (its ``value``), or the piece it names
        (``data-piece``, as a piece in hand), gets the mark's class."""
        found = next(
            (
                self.marks[v]
                for n, v in attrs
                if n in ("value", "data-piece") and v is not None and v in self.marks
            ),
            None,
        )
        if found is None:
            return attrs
        if not any(n == "class" for n, _ in attrs):
            return [("class", found), *attrs]
        return [(n, f"{v or ''} {found}".strip() if n == "class" else v) for n, v in attrs]

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], close: str = ">") -> None:
        if tag in self.DROPPED_TAGS:
            return
        if self.marks:
            attrs = self._marked(attrs)
        kept = "".join(
            f" {name}" if value is None else f' {name}="{escape(value)}"'
            for name, value in attrs
            if name not in self.CONTROL_ATTRIBUTES and not name.startswith(("hx-", "data-hx-", "ws-"))
        )
        if tag == "button" and any(name == "aria-label" for name, _ in attrs):
            kept = ' role="img"' + kept
        self.parts.append(f"<{self.RENAMED.get(tag, tag)}{kept}{close}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, " />")

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.DROPPED_TAGS:
            self.parts.append(f"</{self.RENAMED.get(tag, tag)}>")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_entityref(self, name: str) -> None:
        self.parts.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.parts.append(f"&#{name};")


def read_only(html: str, marks: Mapping[str, str] | None = None) -> SafeString:
    """The same markup with no form, button or input: for showing a board inside another form.
    ``marks``: a class for the controls of some actions (the replay's played and best action)."""
    parser = _ReadOnlyMarkup(marks)
    parser.feed(html)
    parser.close()
    return mark_safe("".join(parser.parts))


def read_only_board(game: Game) -> SafeString:
    """The board and pieces as a bystander sees them, with nothing to click (the admin's view)."""
    context = game_context(game, Actor())
    return read_only(render_to_string("games/_admin_board.html", context))
