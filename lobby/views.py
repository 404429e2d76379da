"""The lobby's pages: the list of seeks with the seek form and the quick-pairing grid, and
the waiting page. Plain forms that post and redirect: they work without JavaScript."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games import catalog
from games import clocks as clock_rules
from games.engine.numbers import whole_number
from games.services import ratelimit
from games.services.moves import ServiceError
from lobby import pool, presenting, services
from lobby.models import Seek
from lobby.seekers import Who, of_browser

# How often the waiting page asks again without JavaScript (seconds); well under SEEK_ALIVE.
WAIT_REFRESH = 2


def who(request: HttpRequest) -> Who:
    """The visitor; a player id is made for a browser that acts (posts) and has none yet."""
    address = ratelimit.request_address(request)
    return of_browser(request.session, request.user, address, create=request.method == "POST")


def game_url(game_id: int) -> str:
    return reverse("games:detail", args=[game_id])


def see_other(url: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(url, status=303)


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    return lobby_page(request)


def lobby_page(request: HttpRequest, error: ServiceError | None = None, status: int = 200) -> HttpResponse:
    kind = request.GET.get("game") or None
    if kind not in catalog.CATALOG:
        kind = None
    posted: QueryDict | dict[str, Any] = request.POST if error else {}
    visitor = who(request)
    waiting = pool.current_pool(visitor)
    mine = services.open_seek_ids(visitor)
    context = {
        "rows": presenting.seek_rows(kind, mine),
        "mine": sorted(mine),
        "grid": presenting.pool_grid(waiting),
        "kind": kind,
        "games": presenting.games_to_choose(posted, kind),
        "clocks": presenting.clock_choices(str(posted.get("clock", ""))),
        "seats": presenting.seat_choices(str(posted.get("seat", ""))),
        "rated": posted.get("mode") == "rated",
        "rating_min": posted.get("rating_min", ""),
        "rating_max": posted.get("rating_max", ""),
        "now_playing": presenting.now_playing(),
        "errors": presenting.errors_by_field(error.message, error.field) if error else {},
    }
    return render(request, "lobby/lobby.html", context, status=status)


def posted_options(data: QueryDict, kind: str) -> dict[str, Any]:
    """The chosen game's option fields (``<kind>.<name>``) as the rules take them."""
    spec = catalog.CATALOG.get(kind)
    options: dict[str, Any] = {}
    for option in spec.rules.options if spec else ():
        field = f"{kind}.{option.name}"
        if option.type == "bool":
            options[option.name] = field in data
        elif value := str(data.get(field, "")).strip():
            try:
                options[option.name] = int(value)
            except ValueError:
                # The label is marked in games.web.newgame.PACKAGE_WORDS.
                words = _("%(option)s must be a whole number.") % {"option": _(option.label)}
                raise ServiceError("bad_option", words, field=option.name) from None
    return options


def posted_number(data: QueryDict, name: str) -> int | None:
    text = str(data.get(name, "")).strip()
    if not text:
        return None
    rating = whole_number(text, 4)
    if rating is None or rating > 4000:
        words = _("A rating is a whole number from 0 to 4000.")
        raise ServiceError("bad_option", words, field="rating")
    return rating


def posted_clock(text: str) -> dict[str, Any]:
    try:
        return clock_rules.parse_label(text).to_json()
    except clock_rules.ClockError as exc:
        raise ServiceError(exc.code, exc.said(_), field="clock") from exc


@require_POST
def create_seek(request: HttpRequest) -> HttpResponse:
    data = request.POST
    kind = data.get("game", "")
    try:
        made = services.create_seek(
            who(request),
            kind,
            posted_options(data, kind),
            clock=posted_clock(data.get("clock", "")),
            rated=data.get("mode") == "rated",
            seat=data.get("seat", "random"),
            rating_range=(posted_number(data, "rating_min"), posted_number(data, "rating_max")),
        )
    except ServiceError as exc:
        return lobby_page(request, exc, status=429 if exc.status == 429 else 400)
    return see_other(reverse("lobby:wait") + f"?seek={made.seek.pk}")


@require_POST
def accept_seek(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        taken = services.accept_seek(pk, who(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return see_other(reverse("lobby:lobby"))
    return see_other(game_url(taken.game.pk))


@require_POST
def cancel_seek(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        services.cancel_seek(pk, who(request))
    except ServiceError as exc:
        if exc.code == "seek_gone":  # taken meanwhile: the waiting page takes the seeker there
            return see_other(reverse("lobby:wait") + f"?seek={pk}")
        messages.error(request, exc.message)
    return see_other(reverse("lobby:lobby"))


@require_POST
def quick_pairing(request: HttpRequest) -> HttpResponse:
    """One click waits in the pool of that game and clock; a click on the pool one waits in leaves it."""
    player = who(request)
    kind, clock = request.POST.get("game", ""), request.POST.get("clock", "")
    try:
        control = clock_rules.parse(posted_clock(clock))
        if request.POST.get("leave") or pool.current_pool(player) == pool.pool_key(kind, control):
            pool.leave(player)
            return see_other(reverse("lobby:lobby"))
        waiting = pool.join(player, kind, control.to_json())
    except ServiceError as exc:
        messages.error(request, exc.message)
        return see_other(reverse("lobby:lobby"))
    if waiting.game is not None:
        return see_other(game_url(waiting.game.pk))
    return see_other(reverse("lobby:wait"))


@require_safe
def wait(request: HttpRequest) -> HttpResponse:
    """Waiting for an opponent: refreshes itself, and moves to the game once there is one."""
    player = who(request)
    seek: Seek | None = None
    if seek_id := request.GET.get("seek", ""):
        try:
            seek = services.get_seek(int(seek_id))
        except (ValueError, ServiceError):
            seek = None
        if seek is None or not services.is_seeker(seek, player):
            messages.error(request, _("That is not a seek of yours."))
            return see_other(reverse("lobby:lobby"))
        if seek.status == Seek.Status.TAKEN and seek.game_id:
            return see_other(game_url(seek.game_id))
        if seek.status == Seek.Status.CANCELLED:
            messages.info(request, _("Your seek was cancelled."))
            return see_other(reverse("lobby:lobby"))
        services.keep_alive(seek)
        context: dict[str, Any] = {
            "seek": seek,
            "title": catalog.get(seek.kind).title,
            "time_control": clock_rules.parse(seek.clock).label,
            "lasts": services.lasts(seek),
            "lapses": services.lapses_at(seek),
        }
    else:
        waiting = pool.status(player)
        if waiting is None:
            return see_other(reverse("lobby:lobby"))
        if waiting.game is not None:
            return see_other(game_url(waiting.game.pk))
        context = {
            "entry": waiting.entry,
            "title": catalog.get(waiting.entry.kind).title,
            "time_control": clock_rules.parse(waiting.entry.clock).label,
        }
    context.update(refresh=WAIT_REFRESH, alive=round(settings.SEEK_ALIVE))
    return render(request, "lobby/wait.html", context)
