"""The history page: this browser's games and everyone's recent finished games (the
replay and review of one game: games/web/replay.py)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_safe

from games import catalog
from games.models import Game
from games.services import players

PER_PAGE = 20


def _page(games: QuerySet[Game], number: str | None) -> Page[Game]:
    return Paginator(games.prefetch_related("seats"), PER_PAGE).get_page(number)


def _rows(page: Page[Game], player: str | None) -> list[dict[str, Any]]:
    rows = []
    for game in page:
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        mine = [s.index for s in seats if player and s.player_id == player]
        rows.append(
            {
                "game": game,
                "players": ", ".join(_player_words(game, seat, mine) for seat in seats),
                "result": _result(game, mine, seats),
            }
        )
    return rows


def _player_words(game: Game, seat: Any, mine: list[int]) -> str:
    """A seat in the players column, in the reader's language (as the game page names it)."""
    if seat.index in mine:
        return gettext("you")
    if seat.is_ai:
        return gettext("computer (%(level)s)") % {"level": pgettext("computer level", game.ai_level)}
    if seat.name:
        return str(seat.name)
    if seat.is_open:
        return gettext("open seat")
    return gettext("Player %(number)s") % {"number": seat.index + 1}


def _result(game: Game, mine: list[int], seats: list[Any]) -> str:
    """How the game ended, one whole sentence in the reader's language."""
    if game.status == Game.Status.ABORTED:
        return (
            gettext("aborted: no first move") if game.reason == Game.Reason.NO_START else gettext("aborted")
        )
    on_time = game.reason == Game.Reason.TIMEOUT
    if game.status == Game.Status.DRAWN:
        return gettext("draw on time") if on_time else gettext("draw")
    if game.status == Game.Status.WON and game.winner is not None:
        if game.winner in mine and len(mine) == 1:
            return gettext("you won on time") if on_time else gettext("you won")
        if mine and len(mine) == 1:
            return gettext("you lost on time") if on_time else gettext("you lost")
        seat = seats[game.winner] if game.winner < len(seats) else None
        if seat is not None and seat.is_ai:
            return gettext("The computer won on time") if on_time else gettext("The computer won")
        if seat is not None and seat.name:
            # The winner's own words, never wrapped in brackets: a name may hold some already.
            said = gettext("%(who)s won on time") if on_time else gettext("%(who)s won")
            return said % {"who": seat.name}
        said = gettext("Player %(number)s won on time") if on_time else gettext("Player %(number)s won")
        return said % {"number": game.winner + 1}
    return str(Game.Status(game.status).label)


@require_safe
def history(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind", "")
    if kind not in catalog.CATALOG:
        kind = ""
    games = Game.objects.all()
    if kind:
        games = games.filter(kind=kind)
    player = players.player_id(request.session)
    mine = games.filter(seats__player_id=player).distinct() if player else games.none()
    public = games.filter(status__gte=Game.FINISHED)
    mine_page = _page(mine, request.GET.get("mine"))
    public_page = _page(public, request.GET.get("page"))
    return render(
        request,
        "games/history.html",
        {
            "kinds": [(spec.kind, spec.title) for spec in catalog.CATALOG.values()],
            "kind": kind,
            "mine": _rows(mine_page, player),
            "mine_page": mine_page,
            "public": _rows(public_page, player),
            "public_page": public_page,
        },
    )
