"""Who acts in the lobby: a browser, an account (from a page or a personal token), or an
anonymous API client (known only by a seek's secret and its address)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.backends.base import SessionBase

from accounts import services as accounts
from accounts.models import Account
from games.services import players


@dataclass(frozen=True)
class Who:
    """``player_id``: a browser's or an account's player id (None for an anonymous API
    client); ``user``: the account's user; ``api``: asks through the JSON API (gets seat
    tokens); ``token``: a secret it holds (a seek's); ``address``: whom limits count."""

    player_id: str | None = None
    user: Any = None
    bot: bool = False
    api: bool = False
    token: str | None = None
    address: str = ""

    @property
    def client(self) -> str:
        return hashlib.sha256(self.address.encode()).hexdigest()[:32] if self.address else ""

    @property
    def is_account(self) -> bool:
        return self.user is not None


def of_account(account: Account | None, **kwargs: Any) -> Who:
    if account is None or not account.in_good_standing:
        return Who(**kwargs)
    return Who(player_id=account.player_id, user=account.user, bot=account.bot, **kwargs)


def of_browser(session: SessionBase, user: Any, address: str, *, create: bool = True) -> Who:
    """A page's visitor: the logged-in account, else the browser's own player id (made now
    when ``create``: a page that only shows makes none)."""
    account = accounts.account_of(user)
    if account is not None and account.in_good_standing:
        return of_account(account, address=address)
    return Who(player_id=players.player_id(session, create=create), address=address)


def of_token(token: str | None, address: str) -> Who:
    """An API client: a personal token's account, else anonymous (``token`` may be a seek's secret)."""
    account = accounts.account_for_token(token)
    if account is not None:
        return of_account(account, api=True, address=address)
    return Who(api=True, token=token, address=address)
