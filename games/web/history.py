"""The history page (this browser's games and everyone's recent finished games) and the
replay viewer, which renders any game's board at any ply on the server."""

from __future__ import annotations

import copy
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from games import catalog
from games.models import Game
from games.presenting import presenters, words
from games.presenting import replay as replay_words
from games.services import players
from games.services.base import Actor

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


def parse_ply(text: str | None, last: int) -> tuple[int, str | None]:
    """The ply to show and, when the request's was unusable, a sentence saying what is shown."""
    if text is None or text == "":
        return last, None
    try:
        ply = int(text)
    except ValueError:
        return last, f"“{text[:20]}” is not a ply number: showing the final position (ply {last})."
    if ply < 0:
        return 0, f"There is no ply {ply}: showing the start (ply 0)."
    if ply > last:
        return last, f"The game has {last} plies: showing the last one."
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


@require_safe
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    last = len(game.move_rows)
    ply, notice = parse_ply(request.GET.get("ply"), last)
    shown = at_ply(game, ply)
    context = {
        **presenters.game_context(shown, Actor()),
        "status_text": replay_words.position_text(game, shown),
    }
    board = presenters.read_only(render_to_string("games/replay.html#position", context))
    spec = catalog.get(game.kind)
    state = spec.rules.new_state(game.options)
    moves = []
    for number, (seat, text) in enumerate(game.move_rows, start=1):
        who = words.seat_title(spec, seat, game.seat_list)
        moves.append({"ply": number, "who": who, "words": spec.words.review(state, text)})
        state = state.play(spec.rules.parse_move(text))
    return render(
        request,
        "games/replay.html",
        {
            **context,
            "game": game,
            "board_html": board,
            "ply": ply,
            "last": last,
            "notice": notice,
            "moves": moves,
            "prev": max(ply - 1, 0),
            "next": min(ply + 1, last),
        },
    )
