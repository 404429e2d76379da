"""Signal receivers, games' identity hooks and the game emails' subscription, connected in
``AccountsConfig.ready()``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.http import HttpRequest

from accounts import notices, services
from games import events, identity
from games.models import Seat


def on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        services.logged_in(request.session, user)


def on_seat_saved(sender: Any, instance: Seat, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is None or "player_id" in update_fields:
        services.seat_named(instance)


def connect() -> None:
    user_logged_in.connect(on_login, dispatch_uid="accounts-login")
    post_save.connect(on_seat_saved, sender=Seat, dispatch_uid="accounts-seat")
    identity.add_session_check(services.session_player)
    identity.add_token_reader(services.token_player)
    events.subscribe(notices.on_game_event)
