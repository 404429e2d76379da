"""A browser's player id: a random secret kept in its session, never shown.

Seats are tied to it rather than to the session key, because Django gives a session a
new key on login (so logging into the admin kept nobody's seats) and the key is the
session cookie itself. The id survives a new key; it goes with the session on logout.

A session from before player ids existed, whose key holds seats (migration 0002 kept
the stored session keys as player ids), adopts its key as its id, so those seats stay
its own. Every other session gets a fresh random id: no cookie value is stored anew.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable

from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import caches

from games import identity
from games.models import Seat

log = logging.getLogger(__name__)

SESSION_FIELD = "player_id"
# How long a session's player id is remembered in the live cache (the session store
# forgets it at once when the session ends: games/services/sessions.py).
KNOWN_TTL = 24 * 60 * 60
# The sessions remembered per player id, for forget_player: the newest this many.
MAX_SESSIONS = 50


def player_id(session: SessionBase, *, create: bool = False) -> str | None:
    """The session's player id; with ``create``, one is made (and the session saved) if need be.

    Reads the session, so call it from synchronous code (``database_sync_to_async`` in a consumer).
    """
    value = session.get(SESSION_FIELD)
    if isinstance(value, str) and value:
        # An app above games may say the id no longer stands (an account closed or banned).
        return identity.checked_player(session, value)
    legacy = session.session_key
    if legacy and Seat.objects.filter(player_id=legacy).exists():
        session[SESSION_FIELD] = legacy  # kept by the response's session save, before any login
        return legacy
    if not create:
        return None
    session[SESSION_FIELD] = new = secrets.token_hex(16)
    session.save()
    return new


def session_tag(session_key: str) -> str:
    """A session's key as the caches and the socket groups name it (never the key itself)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _known_key(session_key: str) -> str:
    return _known_tag_key(session_tag(session_key))


def _known_tag_key(tag: str) -> str:
    return "live:player:" + tag


def _sessions_key(player: str) -> str:
    return "live:sessions:" + hashlib.sha256(player.encode()).hexdigest()[:32]


def _remember(player: str, session_key: str) -> None:
    """Note that this session is known to play as ``player`` (see :func:`forget_player`)."""
    cache = caches["live"]
    tags: list[str] = cache.get(_sessions_key(player)) or []
    tag = session_tag(session_key)
    if tag not in tags:
        cache.set(_sessions_key(player), [*tags, tag][-MAX_SESSIONS:], KNOWN_TTL)


def known(session_key: str) -> str | None:
    """The player id :func:`identify` found for this session key, if it is remembered."""
    value: str | None = caches["live"].get(_known_key(session_key))
    return value


def identify(session: SessionBase) -> str | None:
    """Who this browser is: the one answer the page and its socket both go by. Reads the
    session (synchronous code only); the answer is remembered for the socket's next
    connection until the session ends."""
    key = session.session_key
    found = known(key) if key else None
    if found:
        # Remembered, but an app may say it no longer stands (an account closed or banned
        # from another browser meanwhile).
        return identity.checked_player(session, found)
    value = player_id(session)
    key = session.session_key  # None when the session no longer exists
    if key and value:  # "no player yet" is not kept: joining a game makes one
        caches["live"].set(_known_key(key), value, KNOWN_TTL)
        _remember(value, key)
    return value


# Told when a session ends, with its tag (session_tag): the live layer moves that
# browser's open sockets to the spectators (subscribed in GamesConfig.ready()).
_forget_hooks: list[Callable[[str], None]] = []


def on_forget(hook: Callable[[str], None]) -> None:
    if hook not in _forget_hooks:
        _forget_hooks.append(hook)


def forget(session_key: str) -> None:
    """The session ended (logged out, flushed, replaced by a new key): no door knows it."""
    _forget_tag(session_tag(session_key))


def forget_player(player: str, keep: str | None = None) -> int:
    """The player id no longer stands for anyone (an account closed or banned), or no
    longer for the sessions of an old password: every session known to play as it, but
    the session keyed ``keep`` (the one that changed the password), is forgotten, so its
    sockets become spectators' at once and reconnect as such, whichever browser holds
    them. How many sessions."""
    cache = caches["live"]
    tags: list[str] = cache.get(_sessions_key(player)) or []
    kept = [tag for tag in tags if keep and tag == session_tag(keep)]
    if kept:
        cache.set(_sessions_key(player), kept, KNOWN_TTL)
    else:
        cache.delete(_sessions_key(player))
    gone = [tag for tag in tags if tag not in kept]
    for tag in gone:
        _forget_tag(tag)
    return len(gone)


def _forget_tag(tag: str) -> None:
    caches["live"].delete(_known_tag_key(tag))
    for hook in _forget_hooks:
        try:
            hook(tag)
        except Exception:  # the session ends whatever a subscriber does
            log.exception("could not tell the live layer that a session ended")
