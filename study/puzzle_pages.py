"""The puzzles' pages, ``/puzzles/``: the next puzzle near the player's rating, the board at
its position, the player's actions as form posts (place, then give), each judged by the
solver in the analysis pool: a right one continues with the solver's most stubborn reply,
a wrong one is refuted on the board and in words, the win ends it. An account's first try
moves its puzzle rating, shown on the page."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_safe

from games.engine import MoveError
from games.runner import turns as ai_runner
from games.runner.pools import gate
from games.services import ratelimit
from games.services.base import ServiceError
from ratings import glicko2
from study import board, puzzle_modes, puzzle_rules, puzzles
from study.models import Puzzle
from study.positions import Position, refused_action, spec_of

MAX_QUERY = 400  # characters of an attempt's actions in an address


# The themes as the pages show them; the stored and addressed values stay these keys.
THEME_WORDS = {
    "win_in_1": pgettext_lazy("puzzle theme", "win in 1"),
    "win_in_2": pgettext_lazy("puzzle theme", "win in 2"),
    "win_in_3": pgettext_lazy("puzzle theme", "win in 3"),
    "safe_give": pgettext_lazy("puzzle theme", "safe give"),
    "advanced": pgettext_lazy("puzzle theme", "advanced"),
}


def theme_words(theme: str) -> str:
    """A puzzle theme in the reader's language (an unknown one as its key reads)."""
    return str(THEME_WORDS.get(theme, theme.replace("_", " ")))


def user_id_of(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def theme_of(request: HttpRequest, kind: str) -> str:
    """The theme this browser chose for ``kind`` (``?theme=``, kept in the session; an
    empty one is any theme)."""
    chosen = dict(request.session.get("puzzle_theme") or {})
    if "theme" in request.GET:
        chosen[kind] = request.GET["theme"][:30]
        request.session["puzzle_theme"] = chosen
    return str(chosen.get(kind, ""))


@require_safe
def next_puzzle(request: HttpRequest) -> HttpResponse:
    """``/puzzles/?game=<kind>&theme=<theme>``: a puzzle near the player's rating (1500
    for anyone without an account), one an account has not tried yet, of the chosen theme."""
    kind = request.GET.get("game", "quarto")[:20]
    try:
        spec_of(kind)
        puzzle = puzzles.next_puzzle(kind, user_id_of(request), theme=theme_of(request, kind))
    except ServiceError as error:
        if error.code == "bad_theme":
            request.session["puzzle_theme"] = {}
        return render(request, "study/puzzle.html", {"error": error.message}, status=error.status)
    return HttpResponseRedirect(reverse("study:puzzle", args=[puzzle.key]))


@require_safe
def daily_puzzle(request: HttpRequest) -> HttpResponse:
    """``/puzzles/daily/?game=<kind>``: the day's puzzle, the same for everyone."""
    kind = request.GET.get("game", "quarto")[:20]
    try:
        spec_of(kind)
        puzzle = puzzle_modes.daily(kind)
    except ServiceError as error:
        return render(request, "study/puzzle.html", {"error": error.message}, status=error.status)
    return HttpResponseRedirect(reverse("study:puzzle", args=[puzzle.key]))


@require_safe
def streak(request: HttpRequest) -> HttpResponse:
    """``/puzzles/streak/?game=<kind>``: the streak's puzzle (``?new=1`` starts again)."""
    kind = request.GET.get("game", "quarto")[:20]
    if request.GET.get("new"):
        request.session["puzzle_streak"] = {}
    try:
        spec_of(kind)
        puzzle = puzzle_modes.streak_puzzle(request.session, kind)
    except ServiceError as error:
        return render(request, "study/puzzle.html", {"error": error.message}, status=error.status)
    return HttpResponseRedirect(reverse("study:puzzle", args=[puzzle.key]))


def read_moves(text: str | None) -> list[str]:
    if text and len(text) > MAX_QUERY:
        words = _("An attempt is at most %(count)d actions.") % {"count": puzzle_rules.MAX_ACTIONS}
        raise ServiceError("too_many_moves", words)
    return [m.strip() for m in (text or "").split(",") if m.strip()]


def position_of(puzzle: Puzzle, moves: Sequence[str]) -> Position:
    """The puzzle's position after the attempt's actions, each checked by the rules."""
    spec = spec_of(puzzle.kind)
    state = spec.rules.replay(puzzle.options, puzzle.moves)
    for index, text in enumerate(moves):
        try:
            state = state.play(spec.rules.parse_move(text[:20]))
        except MoveError as exc:
            raise ServiceError(exc.code, refused_action(index, text, exc)) from None
    return Position(puzzle.kind, dict(puzzle.options), [*puzzle.moves, *moves], state)


def said(where: Position, start: int, count: int | None = None) -> list[str]:
    """The actions from ``start`` (an index in the position's actions), in words."""
    spec = where.spec
    state = spec.rules.replay(where.options, where.moves[:start])
    words = []
    for text in where.moves[start : None if count is None else start + count]:
        words.append(spec.words.review(state, text))
        state = state.play(spec.rules.parse_move(text))
    return words


def _rating(user_id: int | None, kind: str) -> int | None:
    row = puzzles.rating_of(user_id, kind)
    return glicko2.points(row.rating) if row else None


def _page(
    request: HttpRequest,
    puzzle: Puzzle,
    attempt: list[str],
    shown: list[str],
    outcome: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """The puzzle at the attempt's position (``attempt``: the player's actions with the
    site's replies) or, once decided, at ``shown`` (the refutation or the win played out)."""
    where = position_of(puzzle, shown)
    spec = where.spec
    verdict = outcome.get("status")
    playable = verdict not in ("failed", "solved") and not where.state.is_over()
    turn = spec.words.turn(where.state)
    url = reverse("study:puzzle", args=[puzzle.key])
    user_id = user_id_of(request)
    chosen = theme_of(request, puzzle.kind)
    run = outcome.pop("streak", None) or puzzle_modes.in_streak(request.session, puzzle.key)
    context = {
        "daily": puzzle_modes.daily(puzzle.kind).key == puzzle.key,
        "streak": run,
        "best_streak": puzzle_modes.best_streak(request.session, puzzle.kind, user_id),
        "theme_links": [
            {"theme": theme, "words": theme_words(theme), "current": theme == chosen}
            for theme in puzzles.themes_of(puzzle.kind)
        ],
        "any_theme": not chosen,
        "puzzle": puzzle,
        "spec": spec,
        "url": url,
        "moves_text": ",".join(attempt),
        "side": puzzle.to_move + 1,
        "task": turn.others if turn else "move",
        "your_way": said(where, len(puzzle.moves), len(attempt)),
        "puzzle_rating": round(puzzle.rating),
        "themes": [theme_words(theme) for theme in puzzle.themes],
        "my_rating": _rating(user_id_of(request), puzzle.kind),
        "signed_in": user_id_of(request) is not None,
        "retry_href": f"{url}?{urlencode({'moves': ','.join(attempt[:-1]) if verdict == 'failed' else ''})}",
        "analyse_href": reverse("study:analysis", args=[puzzle.kind])
        + "?"
        + board.query(where.options, where.moves),
        **outcome,
        **board.board_context(where, playable=playable),
    }
    return render(request, "study/puzzle.html", context, status=status)


def _limited(request: HttpRequest) -> str | None:
    wait = ratelimit.check("hint", ratelimit.request_address(request), "RATE_LIMIT_HINT")
    return _("You tried many actions: try again in %(seconds)d s.") % {"seconds": wait} if wait else None


async def puzzle(request: HttpRequest, key: str) -> HttpResponse:
    """GET: the puzzle after ``moves`` (the attempt so far). POST (``moves`` and the
    clicked ``move``): the solver's judgement of the attempt, shown at once."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405)
    try:
        found = await sync_to_async(puzzles.get)(key)
    except ServiceError as error:
        return await sync_to_async(render)(request, "404.html", {"error": error.message}, status=404)
    data = request.POST if request.method == "POST" else request.GET
    try:
        attempt = read_moves(data.get("moves"))
        if request.method != "POST":
            return await sync_to_async(_page)(request, found, attempt, attempt, {})
        attempt = [*attempt, data.get("move", "")[:20]]
        await sync_to_async(position_of)(found, attempt)
    except ServiceError as error:
        return await sync_to_async(_page)(request, found, [], [], {"error": error.message}, 400)
    return await _judged(request, found, attempt)


async def _judged(request: HttpRequest, found: Puzzle, attempt: list[str]) -> HttpResponse:
    refusal = await sync_to_async(_limited)(request)
    if refusal:
        return await sync_to_async(_page)(request, found, attempt[:-1], attempt[:-1], {"error": refusal}, 429)
    client = f"ip:{ratelimit.request_address(request)}"
    try:
        future = gate.submit(
            client, puzzle_rules.judge_moves, found.kind, found.options, found.moves, attempt
        )
        verdict: puzzle_rules.Verdict = await asyncio.wrap_future(future)
    except (ai_runner.Busy, puzzle_rules.Unsolved) as exc:
        message = getattr(exc, "message", None) or _(
            "The solver ran out of time: try again in a few seconds."
        )
        return await sync_to_async(_page)(request, found, attempt[:-1], attempt[:-1], {"error": message}, 503)
    except puzzle_rules.BadAttempt as exc:
        return await sync_to_async(_page)(
            request, found, attempt[:-1], attempt[:-1], {"error": exc.said(_)}, 400
        )
    user_id = await sync_to_async(user_id_of)(request)
    rating = await sync_to_async(puzzles.settle)(found, user_id, verdict)
    run = await sync_to_async(puzzle_modes.settle_streak)(request.session, found.key, verdict.status, user_id)
    outcome: dict[str, Any] = {"status": verdict.status, "rating_change": rating, "streak": run}
    if verdict.status == "continue":
        moves = [*attempt, *verdict.reply]
        where = await sync_to_async(position_of)(found, moves)
        outcome["reply_words"] = await sync_to_async(said)(where, len(found.moves) + len(attempt))
        return await sync_to_async(_page)(request, found, moves, moves, outcome)
    shown = [*attempt, *verdict.refutation]
    if verdict.status == "failed":
        where = await sync_to_async(position_of)(found, shown)
        outcome["wrong_words"] = (await sync_to_async(said)(where, len(found.moves) + len(attempt) - 1, 1))[0]
        outcome["refutation_words"] = await sync_to_async(said)(where, len(found.moves) + len(attempt))
        outcome["refuted_over"] = where.state.is_over()
    return await sync_to_async(_page)(request, found, attempt, shown, outcome)
