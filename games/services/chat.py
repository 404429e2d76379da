"""A game's chat and its players' display names.

Players (seat holders) write; everyone who may see the game reads, spectators
included: spectators have no chat of their own, which keeps the players' chat free of
strangers. A line is at most ``CHAT_MAX_LENGTH`` characters, each player may say
``RATE_LIMIT_CHAT`` lines, and a player the moderators muted is refused with a
sentence saying so. Text is stored as typed (control characters aside) and escaped
where it is shown. A new line or name is published as an event, so open pages get it.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from games.events import GameEvent, publish
from games.models import ChatLine, ChatMute, Game, Seat, hash_token
from games.services import policy, ratelimit, site_lines
from games.services.base import Actor, ServiceError, locked_game
from games.services.names import BadName, clean

SHOWN_LINES = 30
_SPACES = re.compile(r"\s+")


def clean_text(text: object) -> str:
    """The line as it will be stored: trimmed, every run of white space one space,
    no control characters; refused when empty or too long."""
    if not isinstance(text, str):
        raise ServiceError("bad_text", _("Send the chat line as text."))
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C" or c in "\t\n\r")
    text = _SPACES.sub(" ", text).strip()
    if not text:
        raise ServiceError("empty", _("Say something: the line is empty."))
    limit = settings.CHAT_MAX_LENGTH
    if len(text) > limit:
        raise ServiceError(
            "too_long",
            _("A chat line is at most %(limit)d characters (this one has %(length)d).")
            % {"limit": limit, "length": len(text)},
        )
    return text


def clean_name(name: object) -> str:
    """A display name as :func:`games.services.names.clean` checks it."""
    try:
        return clean(name)
    except BadName as exc:
        raise ServiceError("bad_name", str(exc)) from None


def seat_keys(seat: Seat) -> list[str]:
    """What holds a seat: its player id and/or its token's hash (what a mute names)."""
    return [key for key in (seat.player_id, seat.token_hash) if key]


def actor_keys(actor: Actor) -> list[str]:
    return [key for key in (actor.player_id, hash_token(actor.token) if actor.token else "") if key]


def is_muted(keys: list[str]) -> bool:
    return bool(keys) and ChatMute.objects.filter(key__in=keys).exists()


def visible_lines(game: Game, limit: int = SHOWN_LINES) -> list[ChatLine]:
    """The newest ``limit`` lines nobody hid, oldest first: read once per game object (a
    render round renders every audience from one object; building the query cost a
    quarter of each rendering)."""
    memo: dict[int, list[ChatLine]] = game.__dict__.setdefault("_visible_chat", {})
    if limit not in memo:
        newest = game.chat_lines.filter(hidden=False).order_by("-created", "-pk")[:limit]
        memo[limit] = list(reversed(newest))
    return list(memo[limit])


def say(game_id: int, actor: Actor, text: object) -> ChatLine:
    """Add a line for the seat ``actor`` holds (the first, in hot-seat play)."""
    text = clean_text(text)
    with transaction.atomic():
        game = locked_game(game_id)
        if refusal := policy.chat_refusal(game, actor):
            raise refusal
        seat = game.seat_list[policy.seats_of(game, actor)[0]]
        if is_muted(seat_keys(seat) + actor_keys(actor)):
            raise ServiceError("muted", _("A moderator muted you: your chat lines are not accepted."), 403)
        wait = ratelimit.hit(_budget_key(game, seat), ratelimit.parse_rate(settings.RATE_LIMIT_CHAT))
        if wait:
            raise ServiceError(
                "rate_limited",
                _("You are chatting too fast: try again in %(seconds)d s.") % {"seconds": wait},
                429,
                retry_after=wait,
            )
        line = ChatLine.objects.create(game=game, seat=seat.index, name=seat.name, text=text)
        publish(GameEvent(game.pk, game.ply, "chat"))
    return line


def _budget_key(game: Game, seat: Seat) -> str:
    """Whose chat budget a line spends: the seat's holder, in every game."""
    return "chat:" + (seat_keys(seat) or [f"{game.pk}:{seat.index}"])[0]


def site_line(game: Game, seat: Seat, act: str, offer: str) -> ChatLine | None:
    """A line of the site saying what ``seat``'s player did ("Player 2 declined the draw
    offer.", see games/services/site_lines.py).

    It spends that player's chat budget, so an action repeated to fill the chat soon adds
    nothing more (the action itself still counts); a muted player is named by their seat,
    never by the name they chose.
    """
    if ratelimit.hit(_budget_key(game, seat), ratelimit.parse_rate(settings.RATE_LIMIT_CHAT)):
        return None
    name = "" if is_muted(seat_keys(seat)) else seat.name
    said = site_lines.said(act, offer, seat.index, name)
    return ChatLine.objects.create(game=game, seat=None, text=site_lines.english(said), said=said)


def set_name(game_id: int, actor: Actor, name: object) -> str:
    """Give the seats ``actor`` holds in the game a display name; returns the cleaned name."""
    name = clean_name(name)
    with transaction.atomic():
        game = locked_game(game_id)
        held = policy.seats_of(game, actor)
        if not held:
            raise ServiceError("not_your_seat", _("Only a player may name their seat."), 403)
        Seat.objects.filter(game=game, index__in=held).update(name=name)
        publish(GameEvent(game.pk, game.ply, "named"))
    return name


# -- moderation -----------------------------------------------------------------------


def hide_lines(lines: QuerySet[ChatLine], hidden: bool = True) -> int:
    """Hide (or show again) chat lines; open pages drop them at once."""
    with transaction.atomic():
        games = set(lines.values_list("game_id", flat=True))
        count = lines.update(hidden=hidden)
        for game in Game.objects.filter(pk__in=games):
            publish(GameEvent(game.pk, game.ply, "chat"))
    return count


def mute_authors(lines: QuerySet[ChatLine], reason: str = "") -> int:
    """Mute the players who said these lines, in every game; returns how many were muted."""
    keys: set[str] = set()
    for game_id, index in lines.values_list("game_id", "seat").distinct():
        if index is None:
            continue  # a line of the site's own
        seat = Seat.objects.filter(game_id=game_id, index=index).first()
        if seat is not None:
            keys.update(seat_keys(seat))
    return mute_keys(keys, reason)


def mute_keys(keys: set[str], reason: str = "") -> int:
    with transaction.atomic():
        new = keys - set(ChatMute.objects.filter(key__in=keys).values_list("key", flat=True))
        ChatMute.objects.bulk_create(ChatMute(key=key, reason=reason[:200]) for key in sorted(new))
    return len(new)
