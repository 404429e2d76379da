"""The history page: this browser's games and everyone's recent finished games (the
replay and review of one game: games/web/replay.py)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
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
                "players": ", ".join(
                    "you" if s.index in mine else ("computer" if s.is_ai else s.called) for s in seats
                ),
                "result": _result(game, mine, seats),
            }
        )
    return rows


def _result(game: Game, mine: list[int], seats: list[Any]) -> str:
    if game.status == Game.Status.ABORTED:
        return "aborted: no first move" if game.reason == Game.Reason.NO_START else "aborted"
    if game.reason == Game.Reason.TIMEOUT:
        return f"{_winner_words(game, mine, seats)} on time"
    return _winner_words(game, mine, seats)


def _winner_words(game: Game, mine: list[int], seats: list[Any]) -> str:
    if game.status == Game.Status.DRAWN:
        return "draw"
    if game.status == Game.Status.WON and game.winner is not None:
        if game.winner in mine and len(mine) == 1:
            return "you won"
        if mine and len(mine) == 1:
            return "you lost"
        seat = seats[game.winner] if game.winner < len(seats) else None
        # The winner's own words, never wrapped in brackets: a name may hold some already.
        who = "the computer" if seat is not None and seat.is_ai else (seat.name if seat else "")
        return f"{who[:1].upper()}{who[1:]} won" if who else f"Player {game.winner + 1} won"
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
