"""What each viewer of a game sees, rendered once per audience and cached.

An *audience* is what one kind of viewer sees of a game: ``"seat-0"`` (whoever holds
seat 0 alone), ``"seat-0-1"`` (one person holding both seats, hot-seat play), ``"watch"``
(spectators) and ``"json"`` (programs on ``?format=json``: the API's state, the same for
everyone). Every socket joins two channel-layer groups: its audience's
(``game-<id>-<audience>``) and the game's (``game-<id>``, for events meant for all).

Renderings live in the ``live`` cache under (game, version, audience), with
``live:now:<game>`` naming the version last rendered; the page's htmx answer to a move
(:func:`rendering_for`), the live layer's render rounds and a connecting socket all read
and fill the same entries. The seat map of a game and the player id of a session are
cached here too, for the sockets' lookups.

Each audience is rendered in every language that has a socket open: a viewer reading
French is in ``"seat-0.fr"`` (and ``"watch.fr"``...), English keeps the bare name. A
socket is counted in its bare audience (who is here) and, when it reads another language
than English, in its language's too; the English sockets are the difference.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.utils import translation

from games.models import Game
from games.presenting import downloads, presenters
from games.services import players
from games.services.base import Actor

WATCH = "watch"


JSON = "json"


ANY = "any"  # the counter of every socket of a game


# Renderings and the viewer lookups live this long in the cache; the counters a day
# (they expire by themselves when a process died without saying goodbye).
RENDER_TTL = 600


COUNT_TTL = 24 * 60 * 60


def live_cache() -> Any:
    return caches["live"]


def group_name(game_id: int) -> str:
    """Everyone watching the game: small events for all and presence."""
    return f"game-{game_id}"


def session_group(session_key: str) -> str:
    """Every socket of one browser session, over every game: told when the session ends."""
    return tagged_session_group(players.session_tag(session_key))


def tagged_session_group(tag: str) -> str:
    return "session-" + tag


def audience_group(game_id: int, audience: str) -> str:
    return f"game-{game_id}-{audience}"


def audience_name(seats: Sequence[int]) -> str:
    return "seat-" + "-".join(str(s) for s in seats) if seats else WATCH


def audience_seats(audience: str) -> list[int]:
    audience = split(audience)[0]
    if not audience.startswith("seat-"):
        return []
    return [int(s) for s in audience.removeprefix("seat-").split("-")]


def localized(audience: str, language: str) -> str:
    """``audience`` reading ``language`` (English, the site's own, keeps the bare name)."""
    if audience == JSON or language not in other_languages():
        return audience
    return f"{audience}.{language}"


def split(audience: str) -> tuple[str, str]:
    """The bare audience and its language."""
    bare, _, language = audience.partition(".")
    return bare, language or str(settings.LANGUAGE_CODE)


def other_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def spoken(bare: Sequence[str]) -> list[str]:
    """Every language's audience of each bare one, to count their sockets."""
    return [*bare, *(localized(a, code) for a in bare if a != JSON for code in other_languages())]


def listening(bare: Sequence[str], counted: dict[str, int]) -> list[str]:
    """The audiences, per language, with a socket open, from the counts of :func:`spoken`."""
    found = []
    for audience in bare:
        others = [localized(audience, code) for code in other_languages()] if audience != JSON else []
        if counted.get(audience, 0) - sum(counted.get(a, 0) for a in others) > 0:
            found.append(audience)
        found += [a for a in others if counted.get(a, 0) > 0]
    return found


def version(game: Game) -> str:
    """What a rendering shows: the ply and the game row's last save (a takeback may repeat a ply)."""
    return f"{game.ply}.{int(game.updated.timestamp() * 1_000_000)}"


# Cache keys.
def seats_key(game_id: int) -> str:
    return f"live:seats:{game_id}"


def now_key(game_id: int) -> str:
    return f"live:now:{game_id}"


def render_key(game_id: int, ver: str, audience: str) -> str:
    return f"live:r:{game_id}:{ver}:{audience}"


def names_key(game_id: int) -> str:
    return f"live:names:{game_id}"


def count_key(game_id: int, audience: str) -> str:
    return f"live:n:{game_id}:{audience}"


# Who holds which seat: the human seats' player ids (None for the computer or an open seat).
SeatMap = list[str | None]


def seat_map(game: Game) -> SeatMap:
    return [None if s.is_ai else (s.player_id or None) for s in game.seat_list]


# The display name of each seat of the seat map ("" when none), None where it has no player.
SeatNames = list[str | None]


def seat_names(game: Game) -> SeatNames:
    return [
        None if player is None else seat.name
        for player, seat in zip(seat_map(game), game.seat_list, strict=True)
    ]


def audience_of(seats: SeatMap, player_id: str | None) -> str:
    return audience_name([i for i, p in enumerate(seats) if player_id and p == player_id])


def audiences(seats: SeatMap) -> list[str]:
    """Every HTML audience of a game: each person's seats, and the spectators."""
    named = {audience_of(seats, p) for p in seats if p}
    return [*sorted(named), WATCH]


def render(game: Game, seats: SeatMap, audience: str) -> str:
    """One audience's bytes: the HTML partials of its viewer in its language, or the API
    state for JSON."""
    if audience == JSON:
        return json.dumps({"type": "state", "ply": game.ply, "state": downloads.game_json(game)})
    held = audience_seats(audience)
    actor = Actor(player_id=seats[held[0]]) if held else Actor()
    with translation.override(split(audience)[1]):
        return presenters.render_partials(game, actor)


# A JSON state ends with the server's time left blank (downloads.game_json): the socket
# fills it in as it sends the frame, however long ago it was rendered.
UNSTAMPED = '"now": null}}'


def stamped(text: str, now: datetime) -> str:
    """A JSON audience's frame with the state's ``now`` set to ``now`` (other text as is)."""
    if not text.endswith(UNSTAMPED):
        return text
    return f'{text[: -len(UNSTAMPED)]}"now": {json.dumps(now.isoformat())}}}}}'


def rendering_for(game: Game, actor: Actor) -> str:
    """The partials ``actor`` sees (the htmx answer to a move): from the cache when this
    version was rendered for that audience already, else rendered and stored for the push."""
    if actor.token or actor.is_ai:  # not a browser: its seats are not its player id's
        return presenters.render_partials(game, actor)
    seats = seat_map(game)
    audience = localized(audience_of(seats, actor.player_id), translation.get_language() or "")
    key = render_key(game.pk, version(game), audience)
    text: str | None = live_cache().get(key)
    if text is None:
        text = render(game, seats, audience)
        live_cache().set(key, text, RENDER_TTL)
    return text


# Looking viewers up: the seat map of a game (with the seats' names), cached. (A
# session's player id: games.services.players.identify.)
def remember_seats(game: Game) -> tuple[SeatMap, SeatNames]:
    seats, names = seat_map(game), seat_names(game)
    live_cache().set_many({seats_key(game.pk): seats, names_key(game.pk): names}, RENDER_TTL)
    return seats, names


def read_lineup(game_id: int) -> tuple[SeatMap, SeatNames] | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return remember_seats(game)


def cached_seats(game_id: int) -> SeatMap | None:
    seats: SeatMap | None = live_cache().get(seats_key(game_id))
    return seats


def shown_version(game_id: int) -> str | None:
    """The version the game's current renderings show (None: none rendered lately)."""
    ver: str | None = live_cache().get(now_key(game_id))
    return ver


def render_current(game_id: int, audience: str) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    seats = seat_map(game)
    text = render(game, seats, audience)
    ver = version(game)
    cache = live_cache()
    cache.set(render_key(game_id, ver, audience), text, RENDER_TTL)
    cache.add(now_key(game_id), ver, COUNT_TTL)
    return text
