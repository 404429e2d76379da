"""What accounts do: carry a browser's seats in, check a session or a token, manage tokens,
close or ban an account. Games are changed only through games' public services and models.
"""

from __future__ import annotations

import secrets
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext

from accounts.models import Account, ApiToken
from games.events import GameEvent, publish
from games.identity import Holder
from games.models import Game, Seat, hash_token
from games.services import moderation, players
from games.services.moves import ServiceError

# Sent once an account is closed or banned (``user``, ``player_id``): the apps above
# accounts (the lobby) give up what the account still offers.
withdrawn = Signal()

# The session's player id came from this account (set on log-in): checked on every use.
SESSION_ACCOUNT = "account_player"
TOKEN_PREFIX = "qsp_"
DELETED_NAME = "deleted player"
MAX_TOKENS = 20


def account_of(user: Any) -> Account | None:
    """The user's account (made on first need); None for an anonymous visitor."""
    if not user.is_authenticated:
        return None
    account, _ = Account.objects.get_or_create(user=user)
    return account


def _renamed(game_ids: set[int]) -> None:
    """Tell each game's pages that a seat changed hands (their seat maps and names)."""
    for game_id, ply in Game.objects.filter(pk__in=game_ids).values_list("pk", "ply"):
        publish(GameEvent(game_id, ply, "named"))


def carry_seats(account: Account, anonymous_id: str | None) -> set[int]:
    """The seats an anonymous browser holds become the account's; the games' ids.

    Only seats no account holds move: a log-in never takes another account's seat.
    """
    if not anonymous_id or anonymous_id == account.player_id:
        return set()
    with transaction.atomic():
        seats = Seat.objects.filter(player_id=anonymous_id, user__isnull=True)
        game_ids = set(seats.values_list("game_id", flat=True))
        seats.update(player_id=account.player_id, user=account.user, name=account.user.get_username())
        _renamed(game_ids)
    return game_ids


def logged_in(session: Any, user: Any) -> None:
    """On log-in (and sign-up): carry the browser's seats in, then play as the account."""
    account = account_of(user)
    if account is None or not account.in_good_standing:
        return
    previous = session.get(players.SESSION_FIELD)
    if isinstance(previous, str) and previous != session.get(SESSION_ACCOUNT):
        carry_seats(account, previous)
    session[players.SESSION_FIELD] = account.player_id
    session[SESSION_ACCOUNT] = account.player_id


def session_player(session: Any, player_id: str) -> str | None:
    """games' session check: an account's id stands while the account is in good standing
    and the session's log-in still stands (no password change since, :func:`logged_in_as`)."""
    if session.get(SESSION_ACCOUNT) != player_id:
        return player_id  # an anonymous browser's own id
    account = (
        Account.objects.filter(player_id=player_id, banned=False, closed__isnull=True, user__is_active=True)
        .select_related("user")
        .first()
    )
    return player_id if account is not None and logged_in_as(session, account.user) else None


def logged_in_as(session: Any, user: Any) -> bool:
    """Whether the session is still logged in as ``user``, checked as Django's
    ``django.contrib.auth.get_user`` checks it: the same user, and the session's auth hash
    (an HMAC of the password's hash) that of the password now, or made with one of
    ``SECRET_KEY_FALLBACKS``. A password changed or reset elsewhere ends the session's hold."""
    if str(session.get(SESSION_KEY)) != user._meta.pk.value_to_string(user):
        return False
    stored = session.get(HASH_SESSION_KEY)
    if not isinstance(stored, str) or not stored:
        return False
    if constant_time_compare(stored, user.get_session_auth_hash()):
        return True
    return any(constant_time_compare(stored, other) for other in user.get_session_auth_fallback_hash())


def password_changed(user: Any, keep: str | None = None) -> int:
    """The password was changed, set or reset: every other session of the account stops
    playing as it now (its open sockets become spectators'); the session keyed ``keep``,
    which changed it, plays on. How many sessions."""
    account = Account.objects.filter(user=user).first()
    return players.forget_player(account.player_id, keep=keep) if account is not None else 0


def token_holder(token: str) -> Holder | None:
    """games' token reader: a personal token acts as its account's player id, and reads
    the account's language."""
    account = account_for_token(token)
    return Holder(account.player_id, account.language) if account is not None else None


def account_for_token(token: str | None) -> Account | None:
    if not token or not token.startswith(TOKEN_PREFIX):
        return None
    row = ApiToken.objects.filter(token_hash=hash_token(token)).select_related("account__user").first()
    return row.account if row is not None and row.account.in_good_standing else None


def seat_named(seat: Seat) -> None:
    """A seat just taken by an account's player id gets the account and its name."""
    if seat.user_id or not seat.player_id:
        return
    account = Account.objects.filter(player_id=seat.player_id).select_related("user").first()
    if account is None:
        return
    seat.user = account.user
    seat.name = account.user.get_username()
    Seat.objects.filter(pk=seat.pk).update(user=seat.user, name=seat.name)


# -- personal API tokens ----------------------------------------------------------------


def clean_token_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ServiceError("bad_name", gettext("A token needs a name, such as the bot that will use it."))
    name = " ".join(name.split())
    if len(name) > 40:
        raise ServiceError("bad_name", gettext("A token's name is at most 40 characters."))
    return name


def create_token(account: Account, name: object) -> str:
    """A new token named ``name``; the token itself is returned once and never stored."""
    clean = clean_token_name(name)
    if not account.in_good_standing:
        raise ServiceError("account_closed", gettext("This account cannot make tokens."), 403)
    if account.tokens.filter(name=clean).exists():
        raise ServiceError(
            "duplicate_name", gettext("You already have a token named %(name)r.") % {"name": clean}, 409
        )
    if account.tokens.count() >= MAX_TOKENS:
        raise ServiceError(
            "too_many",
            gettext("An account has at most %(count)d tokens: revoke one.") % {"count": MAX_TOKENS},
            409,
        )
    token = TOKEN_PREFIX + secrets.token_urlsafe(24)
    ApiToken.objects.create(account=account, name=clean, token_hash=hash_token(token))
    return token


def revoke_token(account: Account, name: str) -> None:
    deleted, _ = account.tokens.filter(name=name).delete()
    if not deleted:
        raise ServiceError("not_found", gettext("You have no token named %(name)r.") % {"name": name}, 404)


# -- closing and banning ----------------------------------------------------------------


def close_account(account: Account) -> None:
    """Close the account: it can no longer log in; its games stay, its seats read "deleted player".

    The username stays taken, so nobody else appears under it in old games.
    """
    user = account.user
    with transaction.atomic():
        account.closed = timezone.now()
        account.save(update_fields=["closed"])
        account.tokens.all().delete()
        user.is_active = False
        user.set_unusable_password()
        user.email = ""
        user.save()
        EmailAddress.objects.filter(user=user).delete()
        seats = Seat.objects.filter(user=user)
        game_ids = set(seats.values_list("game_id", flat=True))
        seats.update(user=None, name=DELETED_NAME)
        _renamed(game_ids)
    # Its browsers' open sockets no longer get its seats' renderings, whichever they are.
    players.forget_player(account.player_id)
    withdrawn.send(sender=Account, user=user, player_id=account.player_id)


def ban_account(account: Account) -> list[int]:
    """Ban the account: it cannot log in, create games or chat (its sessions and tokens no
    longer stand); its games still in play or waiting are aborted, with no result for
    anyone (a ban is not a loss for its opponents). The games aborted."""
    user = account.user
    with transaction.atomic():
        account.banned = True
        account.save(update_fields=["banned"])
        account.tokens.all().delete()
        user.is_active = False
        user.save(update_fields=["is_active"])
    players.forget_player(account.player_id)
    withdrawn.send(sender=Account, user=user, player_id=account.player_id)
    held = Q(seats__user=user) | Q(seats__player_id=account.player_id)
    unfinished = Game.objects.filter(held, status__lt=Game.FINISHED).values_list("pk", flat=True)
    aborted = []
    for game_id in sorted(set(unfinished)):
        try:
            moderation.abort_game(game_id, f"{user.username}'s account was banned")
        except ServiceError:  # it ended meanwhile
            continue
        aborted.append(game_id)
    return aborted
