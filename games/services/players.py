"""A browser's player id: a random secret kept in its session, never shown.

Seats are tied to it rather than to the session key, because Django gives a session a
new key on login (so logging into the admin kept nobody's seats) and the key is the
session cookie itself. The id survives a new key; it goes with the session on logout.

A session from before player ids existed, whose key holds seats (migration 0002 kept
the stored session keys as player ids), adopts its key as its id, so those seats stay
its own. Every other session gets a fresh random id: no cookie value is stored anew.
"""

from __future__ import annotations

import secrets

from django.contrib.sessions.backends.base import SessionBase

from games import identity
from games.models import Seat

SESSION_FIELD = "player_id"


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
