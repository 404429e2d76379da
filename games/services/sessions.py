"""Django's database sessions, telling :mod:`games.services.players` when one ends, so
a socket never goes on taking a logged-out session for the player it was."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from games.services import players


class SessionStore(DatabaseStore):
    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        if key:
            players.forget(key)
        super().delete(session_key)
