"""The replay and the review on one page, ``/games/<id>/replay?ply=N``: the board at the
chosen ply (rendered on the server), the action played there and the computer's best one
drawn on it, the values before and after, the evaluation graph of the whole game (each
point a link to its ply), the judged actions, and the way to the analysis board.

The review can take seconds the first time: the page shows the board at once and asks
for the review part (``review/table?ply=N``, by htmx; a link without JavaScript, which
answers the whole page once the review is computed). Once computed it is cached, and
the page carries it straight away. ``/games/<id>/review`` is an old address: it redirects
here."""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_htmx.middleware import HtmxDetails

from games import catalog
from games.ai.base import ReviewEntry, first_proved_loss
from games.models import Game
from games.presenting import evaluation, front, presenters, sentences
from games.presenting import replay as replay_words
from games.runner import turns as ai_runner
from games.services import players, policy, ratelimit
from games.services.base import Actor


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def parse_ply(text: str | None, last: int) -> tuple[int, str | None]:
    """The ply to show and, when the request's was unusable, a sentence saying what is shown."""
    if text is None or text == "":
        return last, None
    try:
        ply = int(text)
    except ValueError:
        return last, _("“%(text)s” is not a ply number: showing the final position (ply %(last)s).") % {
            "text": text[:20],
            "last": last,
        }
    if ply < 0:
        return 0, _("There is no ply %(ply)s: showing the start (ply 0).") % {"ply": ply}
    if ply > last:
        return last, _("The game has %(last)s plies: showing the last one.") % {"last": last}
    return ply, None


def at_ply(game: Game, ply: int) -> Game:
    """A copy of ``game`` as it stood after ``ply`` actions (never saved)."""
    rows = game.move_rows[:ply]
    snapshot = copy.copy(game)
    snapshot.__dict__["move_rows"] = rows
    snapshot.__dict__["state"] = catalog.get(game.kind).rules.replay(game.options, [t for _, t in rows])
    snapshot.__dict__["seat_list"] = game.seat_list
    snapshot.ply = ply
    if ply < len(game.move_rows):
        snapshot.status = Game.Status.PLAYING
    return snapshot


def _load(pk: int) -> Game:
    game = get_object_or_404(Game, pk=pk)
    game.move_rows  # noqa: B018 (loaded here, in a thread, not later on the event loop)
    return game


def _review_part(
    game: Game, ply: int, entries: list[ReviewEntry], mine: list[int]
) -> tuple[dict[str, Any], dict[str, str]]:
    """The review's context at ``ply`` and the marks its board gets: the action played
    there and, when it was not the best, the best one."""
    rows = sentences.review_rows(game, entries, mine)
    here = rows[ply - 1] if 0 < ply <= len(rows) else None
    marks: dict[str, str] = {}
    if here is not None:
        entry = here["entry"]
        marks[entry.text] = "is-played"
        if entry.best and entry.best != entry.text:
            marks[entry.best] = "is-best-move"
    context: dict[str, Any] = {
        "judged": rows,
        "here": here,
        "first": rows[0] if rows and ply == 0 else None,
        "turning": next((r for r in rows if r["entry"].turning_point), None),
    }
    outcome = game.state.outcome
    late = first_proved_loss(entries, outcome.winner if outcome is not None else None)
    context["late_loss"] = late.ply if late is not None else None
    if len(game.seat_list) == 2:  # one value for both: the second player's is its opposite
        graph = evaluation.points(game.pk, entries)
        context["graph"] = evaluation.svg(graph, current=ply)
        context["graph_tall"] = evaluation.svg(graph, current=ply, shape="tall")
        context["graph_rows"] = [{**point, "words": evaluation.words(point)} for point in graph]
    return context, marks


def _context(game: Game, ply: int, notice: str | None, review: dict[str, Any]) -> dict[str, Any]:
    """The page's context; ``review``: the review's part (empty while it is computed)."""
    last = len(game.move_rows)
    shown = at_ply(game, ply)
    context = {
        **presenters.game_context(shown, Actor()),
        "status_text": replay_words.position_text(game, shown),
    }
    marks = review.pop("marks", {})
    board = presenters.read_only(render_to_string("games/replay.html#position", context), marks)
    spec = catalog.get(game.kind)
    state = spec.rules.new_state(game.options)
    moves = []
    for number, (seat, text) in enumerate(game.move_rows, start=1):
        who = sentences.seat_title(spec, seat, game.seat_list)
        moves.append({"ply": number, "who": who, "words": spec.words.review(state, text)})
        state = state.play(spec.rules.parse_move(text))
    refusal = policy.review_refusal(game)
    return {
        **context,
        **review,
        "game": game,
        "board_html": board,
        "ply": ply,
        "last": last,
        "notice": notice,
        "moves": moves,
        "prev": max(ply - 1, 0),
        "next": min(ply + 1, last),
        "position_links": front.position_links(game, ply),
        "reviewable": refusal is None,
        "review_refusal": refusal,
        "review_href": reverse("games:review_table", args=[game.pk]) + f"?ply={ply}",
    }


async def _entries(request: HttpRequest, game: Game, wait: bool) -> tuple[list[ReviewEntry] | None, str]:
    """The game's review: cached, or computed when ``wait``; None while it is not there.
    The sentence says why it is missing (the analysis pool is busy)."""
    if policy.review_refusal(game) is not None:
        return None, ""
    entries = await ai_runner.cached_review(game.pk, game.move_texts)
    if entries is not None or not wait:
        return entries, ""
    address = ratelimit.request_address(request)
    try:
        found = await ai_runner.review(
            game.pk, game.kind, game.options, game.move_texts, settings.REVIEW_BUDGET, f"ip:{address}"
        )
    except ai_runner.Busy as busy:
        return None, busy.message
    return found, ""


async def _answer(request: HtmxHttpRequest, pk: int, wait: bool) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    game = await sync_to_async(_load)(pk)
    ply, notice = parse_ply(request.GET.get("ply"), len(game.move_rows))
    entries, trouble = await _entries(request, game, wait)
    refused = policy.review_refusal(game) is not None
    pending = entries is None and not (trouble or refused)
    review: dict[str, Any] = {"pending": pending, "review_error": trouble}
    if entries is not None:
        actor = Actor(player_id=await sync_to_async(players.identify)(request.session))
        mine = await sync_to_async(policy.seats_of)(game, actor)
        part, marks = await sync_to_async(_review_part)(game, ply, entries, mine)
        review.update(part, marks=marks)
    context = await sync_to_async(_context)(game, ply, notice, review)
    template = "games/replay.html#study" if wait and request.htmx else "games/replay.html"
    return await sync_to_async(render)(request, template, context)


async def replay(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The page at ``?ply=N``, with the review when it is computed already."""
    return await _answer(request, pk, wait=False)


async def review_table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The page at ``?ply=N`` once the review is computed: its study part for htmx, the
    whole page otherwise."""
    return await _answer(request, pk, wait=True)


@require_safe
def review(request: HttpRequest, pk: int) -> HttpResponse:
    """The old review address: the one page, at the asked ply or the last one."""
    game = get_object_or_404(Game, pk=pk)
    ply = request.GET.get("ply") or str(len(game.move_texts))
    address = reverse("games:replay", args=[pk]) + "?" + urlencode({"ply": ply})
    return HttpResponseRedirect(f"{address}#review")
