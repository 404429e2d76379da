"""Players for the lobby's tests: browsers, accounts, API clients."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User

from accounts import services as accounts
from accounts.models import Account
from lobby.seekers import Who, of_account

BLITZ = {"initial": 180, "increment": 2}


def browser(name: str = "") -> Who:
    return Who(player_id=name or secrets.token_hex(8), address=f"10.0.0.{len(name) % 250}")


def account_row(name: str, *, bot: bool = False) -> Account:
    """A new user ``name`` and its account (a bot's when ``bot``)."""
    row = accounts.account_of(User.objects.create_user(name, password="a-long-pass-phrase"))
    assert row is not None
    if bot:
        row.bot = True
        row.save()
    return row


def account(name: str, *, bot: bool = False) -> Who:
    return of_account(account_row(name, bot=bot), address="10.1.0.1")


def api_client(token: str | None = None) -> Who:
    return Who(api=True, token=token, address="10.2.0.1")
