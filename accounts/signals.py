"""Signal receivers, games' identity hooks and the game emails' subscription, connected in
``AccountsConfig.ready()``."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.account.signals import (
    email_added,
    email_confirmed,
    password_changed,
    password_reset,
    password_set,
)
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.http import HttpRequest

from accounts import notices, services
from games import events, identity
from games.models import Seat


def on_login(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        services.logged_in(request.session, user)


def on_password_changed(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """allauth's password changed, set or reset: the other sessions of the account stop
    playing as it; the one that changed it (its new key, after allauth's
    ``update_session_auth_hash``) plays on."""
    session = getattr(request, "session", None)
    services.password_changed(user, keep=session.session_key if session is not None else None)


def on_seat_saved(sender: Any, instance: Seat, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is None or "player_id" in update_fields:
        services.seat_named(instance)


def on_email_added(sender: Any, email_address: EmailAddress, **kwargs: Any) -> None:
    """An account without a primary address makes the first one it adds primary (allauth
    leaves it aside), so its game emails have somewhere to go."""
    user = email_address.user
    if not user.email and not EmailAddress.objects.filter(user=user, primary=True).exists():
        email_address.set_as_primary()


def connect() -> None:
    email_added.connect(on_email_added, dispatch_uid="accounts-email-added")
    email_confirmed.connect(on_email_added, dispatch_uid="accounts-email-confirmed")
    user_logged_in.connect(on_login, dispatch_uid="accounts-login")
    for signal in (password_changed, password_set, password_reset):
        signal.connect(on_password_changed, dispatch_uid="accounts-password")
    post_save.connect(on_seat_saved, sender=Seat, dispatch_uid="accounts-seat")
    identity.add_session_check(services.session_player)
    identity.add_token_reader(services.token_holder)
    events.subscribe(notices.on_game_event)
