"""Pages and HTMX partials. Every change goes through :mod:`games.services.moves`."""

from __future__ import annotations

from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games.models import Game
from games.presenting import downloads, front, presence, presenters
from games.presenting.audiences import rendering_for
from games.runner import turns as ai_runner
from games.services import abandonment, actions, clocks, names, players, policy, ratelimit
from games.services import moves as services
from games.web import newgame
from games.web.forms import NewGameForm


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def player_id(request: HttpRequest) -> str:
    """The browser's player id; created on first need so a seat can be tied to it."""
    value = players.player_id(request.session, create=True)
    assert value is not None
    return value


SESSION_NAME = "display_name"


def session_name(request: HttpRequest) -> str:
    """The display name this browser gave itself last: its next games start with it (not
    one kept from before the site refused it)."""
    value = request.session.get(SESSION_NAME, "")
    return value if isinstance(value, str) and not names.is_reserved(value) else ""


def actor_for(request: HttpRequest) -> services.Actor:
    return services.Actor(player_id=players.identify(request.session))


def redirect_to(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url, status=303)


LIMITS = {
    "create": ("RATE_LIMIT_CREATE", "You are starting games too fast"),
    "move": ("RATE_LIMIT_MOVE", "You are moving too fast"),
    "hint": ("RATE_LIMIT_HINT", "You asked for many hints"),
}


def limited(request: HttpRequest, action: str) -> str | None:
    """Count one ``action`` of this client; a sentence saying how long to wait when over."""
    setting, sentence = LIMITS[action]
    wait = ratelimit.check(action, ratelimit.request_address(request), setting)
    return f"{sentence}: try again in {wait} s." if wait else None


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for on pages that name no icon: the site's SVG icon."""
    return HttpResponseRedirect(static("favicon.svg"), status=301)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return _home(request)


def _home(request: HttpRequest, error: services.ServiceError | None = None) -> HttpResponse:
    """The home page; after a refused new-game form, with that form as posted and its error."""
    games = newgame.game_cards(request.POST if error else None, error)
    recent = Game.objects.filter(seats__player_id=players.player_id(request.session) or "-").distinct()[:10]
    context = {"games": games, "recent": recent, "sections": front.sections(request)}
    return render(request, "games/home.html", context, status=400 if error else 200)


@require_POST
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    if refusal := limited(request, "create"):
        messages.error(request, refusal)
        return redirect_to(request, reverse("games:home"))
    form = NewGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The new-game form was incomplete: " + form.errors.as_text())
        return redirect_to(request, reverse("games:home"))
    data = form.cleaned_data
    try:
        clock = newgame.clock_choice(request.POST)
        if data["rated"]:
            rated_refusal(request, data["opponent"] or "ai")
        created = services.create_game(
            data["kind"],
            form.game_options(request.POST),
            opponent=data["opponent"] or "ai",
            level=data["level"] or None,
            seat=data["seat"] or "random",
            player_id=player_id(request),
            allow_hints=data["allow_hints"],
            allow_takebacks=data["allow_takebacks"],
            name=session_name(request),
            clock=clock,
            rated=data["rated"],
        )
    except services.ServiceError as exc:
        return _home(request, exc)  # the form as typed, the error beside its field
    return redirect_to(request, created.game.get_absolute_url())


def rated_refusal(request: HttpRequest, opponent: str) -> None:
    """A rated game from the home page: an account's, against the computer (people meet
    for rated games in the lobby)."""
    if not request.user.is_authenticated:
        raise services.ServiceError("rated_needs_account", _("Log in to play rated games."), field="rated")
    if opponent != "ai":
        raise services.ServiceError(
            "rated_in_lobby", _("Rated games between people are made in the lobby."), field="rated"
        )


def page_context(request: HttpRequest, game: Game) -> dict[str, object]:
    """What the game page shows this viewer."""
    actor = actor_for(request)
    now = clocks.now()
    # ?part=: the first part of a two-part move, chosen without JavaScript (see move()).
    context = presenters.game_context(game, actor, now=now, part=request.GET.get("part", "")[:16] or None)
    # Not cached (the partials are): the page's clocks count from the server's moment.
    context["server_now"] = clocks.ms(now)
    context["presence_text"] = presence.presence_of(game, actor)
    context["app_parts"] = front.game_parts(request, game)  # e.g. the game's tournament
    context["game_links"] = front.game_links(game.kind)  # e.g. the game's rules
    if "invite_url" in context:  # policy.may_see_invite: the seat holders of a waiting game
        context["invite_url"] = request.build_absolute_uri(str(context["invite_url"]))
    return context


@require_safe
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    return render(request, "games/game.html", page_context(request, game))


@require_safe
def partials(request: HttpRequest, pk: int) -> HttpResponse:
    """The current board, pieces and status: how a client that missed a push resyncs, and
    how a page without a socket keeps current. A player's poll says their page is open, as
    a socket would: without that, a page whose socket was refused looked gone."""
    game = get_object_or_404(Game, pk=pk)
    actor = actor_for(request)
    if policy.is_playing(game):
        abandonment.page_polled(game.pk, game.ply, policy.seats_of(game, actor))
    return HttpResponse(presenters.render_partials(game, actor))


@require_safe
def record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game record to download: ``?format=text`` (the default) or ``json``."""
    game = get_object_or_404(Game, pk=pk)
    try:
        return downloads.record_download(game, request.GET.get("format", "text"))
    except ValueError:
        raise Http404("No such record format.") from None


@require_POST
def move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    ply_text = request.POST.get("ply", "")
    revision_text = request.POST.get("revision", "")
    text = request.POST.get("move", "")
    if not text and "part" in request.POST and not request.htmx:
        # The first click of a two-part move on a page without JavaScript: nothing is
        # played; the page comes back with that part chosen and its second parts offered
        # (with JavaScript, static/js/parts.js does this on the page itself).
        part = request.POST["part"][:16]
        url = reverse("games:detail", args=[pk])
        return redirect(f"{url}?{urlencode({'part': part})}#board" if part else f"{url}#board")
    error = None
    game = None
    try:
        ply = int(ply_text)
        revision = int(revision_text) if revision_text else None  # older pages send none
    except ValueError:
        error = "The form did not say which position it was made for; reload the page."
    if error is None:
        error = limited(request, "move")
    if error is None:
        try:
            game = services.play_move(pk, actor_for(request), text, ply, revision)
        except services.ServiceError as exc:
            if exc.code == "not_found":
                return HttpResponse(exc.message, status=404)
            error = exc.message
            # A page's socket move that got no answer is resent here ("resent"): when the
            # socket did play it, this second delivery is answered as played, not as stale.
            if exc.code == "stale" and request.POST.get("resent"):
                game = services.already_played(pk, actor_for(request), text, ply)
                error = None if game is not None else error
    if request.htmx:
        # 200 so htmx swaps the error into the status line (it ignores 4xx bodies).
        if game is not None and error is None:
            # The mover's audience rendering, rendered once for this answer and the push.
            return HttpResponse(rendering_for(game, actor_for(request)))
        game = game or get_object_or_404(Game, pk=pk)
        return HttpResponse(presenters.render_partials(game, actor_for(request), error))
    if error:
        messages.error(request, error)
    return redirect("games:detail", pk=pk)


@require_POST
def game_action(request: HtmxHttpRequest, pk: int, action: str) -> HttpResponse:
    """Resign, claim a game a player left (``outcome`` win or draw), or answer (``answer``
    yes or no) a draw, takeback or rematch, like :func:`move`.

    An accepted rematch takes the player to the new game; the others follow the link
    their page is pushed.
    """
    error = None
    game = None
    try:
        ply = int(request.POST.get("ply", ""))
    except ValueError:
        error = "The form did not say which position it was made for; reload the page."
    if error is None:
        error = limited(request, "move")
    if error is None and action == "rematch" and request.POST.get("answer") != "no":
        error = limited(request, "create")  # a rematch is a game created, like "Play again"
    if error is None:
        actor = actor_for(request)
        try:
            if action == "resign":
                game = actions.resign(pk, actor, ply)
            elif action == "claim":
                outcome: abandonment.ClaimKind = "draw" if request.POST.get("outcome") == "draw" else "win"
                game = abandonment.claim(pk, actor, outcome, ply)
            else:
                game = actions.ACTIONS[action](pk, actor, request.POST.get("answer") != "no", ply)
        except services.ServiceError as exc:
            if exc.code == "not_found":
                return HttpResponse(exc.message, status=404)
            error = exc.message
    if game is not None and game.rematch_id is not None and action == "rematch":
        return redirect_to(request, reverse("games:detail", args=[game.rematch_id]))
    if request.htmx:
        if error is None:
            # The push (or, with the socket down, the page's poll) brings the new position:
            # one swap, so a confirmation the player opens meanwhile is not closed by a second.
            return HttpResponse(status=204)
        game = get_object_or_404(Game, pk=pk)
        return HttpResponse(presenters.render_partials(game, actor_for(request), error))
    if error:
        messages.error(request, error)
    return redirect("games:detail", pk=pk)


async def hint(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The value of every legal action for the player to move, shown on the board.

    Async, and the search runs in the AI executor: a long analysis never holds the
    thread that serves everyone's synchronous views.
    """
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    game = await sync_to_async(_load_game)(pk)
    actor = await sync_to_async(actor_for)(request)
    refusal = await sync_to_async(policy.hint_refusal)(game, actor)
    if refusal is None:
        refusal = await sync_to_async(limited)(request, "hint")
    values = None
    if refusal is None:
        address = ratelimit.request_address(request)
        try:
            values = await ai_runner.analyse(
                game.kind, game.options, game.move_texts, settings.HINT_BUDGET, client=f"ip:{address}"
            )
        except ai_runner.Busy as busy:
            refusal = busy.message
    if request.htmx:
        html = await sync_to_async(presenters.render_partials)(game, actor, refusal, values)
        return HttpResponse(html)
    context = await sync_to_async(presenters.game_context)(game, actor, refusal, values)
    context["presence_text"] = await sync_to_async(presence.presence_of)(game, actor)
    return await sync_to_async(render)(request, "games/game.html", context)


def _load_game(pk: int) -> Game:
    game = get_object_or_404(Game, pk=pk)
    game.move_rows  # noqa: B018 (loaded here, in a thread, not later on the event loop)
    return game


@require_POST
def again(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """A new game against the computer with the same game, options and level; a new coin
    toss. Between people it would leave the friend behind: they offer a rematch instead."""
    old = get_object_or_404(Game, pk=pk)
    if not old.ai_level:
        messages.info(request, "In a game between people, offer a rematch: your opponent comes along.")
        return redirect_to(request, old.get_absolute_url())
    if refusal := limited(request, "create"):
        messages.error(request, refusal)
        return redirect_to(request, old.get_absolute_url())
    created = services.create_game(
        old.kind,
        old.options,
        opponent="ai",
        level=old.ai_level,
        player_id=player_id(request),
        allow_hints=old.allow_hints,
        allow_takebacks=old.allow_takebacks,
        name=session_name(request),
    )
    return redirect_to(request, created.game.get_absolute_url())


@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, invite_code=code)
    if request.method == "POST":
        try:
            services.join_game(game.pk, invite=code, player_id=player_id(request), name=session_name(request))
        except services.ServiceError as exc:
            messages.error(request, exc.message)
        return redirect(game)
    seats = game.seat_list
    seated = any(actor_for(request).holds(s) for s in seats)
    return render(
        request, "games/join.html", {"game": game, "open": any(s.is_open for s in seats), "seated": seated}
    )
