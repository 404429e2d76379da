"""Tournament pages: the list, a tournament (live over its socket), join and withdraw
(forms that work without JavaScript), and the page that follows a player to its games."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games import clocks as clock_rules
from games.services.base import ServiceError
from tournaments import berserk, presenting, services
from tournaments.models import Tournament


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/list.html", {**presenting.list_context(), **presenting.form_context()}
    )


def _number(text: str) -> object:
    """A form's number as the services check it (a word stays a word: refused there)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else (text or None)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """The list page's form (works without JavaScript): a refusal is said on the list page."""
    posted = request.POST
    kind = posted.get("kind", "")
    try:
        control = clock_rules.parse_label(posted.get("clock", ""))
    except clock_rules.ClockError as exc:
        messages.error(request, exc.said(gettext))
        return redirect("tournaments:list")
    starts_in = _number(posted.get("starts_in", "0"))
    try:
        made = services.create(
            request.user,
            kind=kind,
            game=posted.get("game", ""),
            clock=control.to_json(),
            minutes=_number(posted.get("minutes", "")) if kind == "arena" else None,
            rounds=_number(posted.get("rounds", "")) if kind == "swiss" else None,
            starts_in=starts_in * 60 if isinstance(starts_in, int) else starts_in,
            rated="rated" in posted,
            name=posted.get("name", ""),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:list")
    return redirect("tournaments:detail", pk=made.pk)


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        tournament = services.get(pk)
    except ServiceError as exc:
        raise Http404(exc.message) from exc
    entry = services.entry_of(tournament, request.user)
    context = {
        **presenting.live_context(tournament),
        "title": presenting.title(tournament),
        "time_control": presenting.time_control(tournament),
        "entry": entry,
        "joined": entry is not None and not entry.withdrawn,
        "may_berserk": entry is not None
        and entry.game_id is not None
        and tournament.kind == Tournament.Kind.ARENA,
        "over": tournament.status == Tournament.Status.FINISHED,
    }
    return render(request, "tournaments/detail.html", context)


def _act(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    try:
        if action == "join":
            services.join(pk, request.user)
        elif action == "withdraw":
            services.withdraw(pk, request.user)
        else:
            berserk.berserk(pk, request.user)
    except ServiceError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from exc
        messages.error(request, exc.message)
    return redirect("tournaments:detail", pk=pk)


@require_POST
def join(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "join")


@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "withdraw")


@require_POST
def go_berserk(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "berserk")


@require_GET
def follow(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's game in the tournament when it has one, else a page that waits for the
    next (its socket sends it on; without JavaScript it refreshes itself)."""
    try:
        tournament = services.get(pk)
    except ServiceError as exc:
        raise Http404(exc.message) from exc
    entry = services.entry_of(tournament, request.user)
    if entry is not None and entry.game_id is not None:
        return redirect("games:detail", entry.game_id)
    context = {
        "tournament": tournament,
        "entry": entry,
        "over": tournament.status == Tournament.Status.FINISHED,
    }
    return render(request, "tournaments/follow.html", context)
